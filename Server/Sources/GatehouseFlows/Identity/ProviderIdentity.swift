import Foundation
import GatehouseCore
import GatehouseStorage

/// Who a provider says signed in, checked already (an ID token's signature and claims, or a
/// provider's user endpoints read with its access token), reduced to what the linking rules
/// need (``IdentityLinking``).
struct ProviderIdentity: Sendable {
    /// The provider's name, the first half of the identity key (`apple`, `github`, …).
    var provider: AuthProvider
    /// The name people know ("GitHub"), for messages and notices.
    var displayName: String
    /// The provider's stable id of the person (`sub`), the second half of the identity key.
    var subject: String
    /// The normalized address the provider reported, if any.
    var email: String?
    /// Whether the provider is authoritative for ``email`` and says it is verified: only then
    /// may it confirm an address or link to an account that has it (security.md ID-1).
    var emailIsVouched: Bool
    /// What the identity keeps of the provider's answer (`identity_data` on the wire).
    var data: [String: JSONValue]
    /// The person's name as the provider gives it, for a new account's `full_name`.
    var fullName: String?

    /// The provider's name as `app_metadata` holds it (`provider`, `providers`).
    var providerText: JSONValue { .string(provider.rawValue) }

    /// The provider as a way into an account, in a notice ("Sign in with GitHub").
    var wayIn: String { "Sign in with \(displayName)" }
}

extension VerifiedIDToken {
    /// The token's identity for the linking rules.
    var identity: ProviderIdentity {
        ProviderIdentity(
            provider: provider.name,
            displayName: provider.displayName,
            subject: subject,
            email: email,
            emailIsVouched: emailIsVouched,
            data: claims.identityData,
            fullName: claims.name
        )
    }
}
