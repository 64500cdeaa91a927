public import Foundation
public import GatehouseCore

/// What an authenticator needs to create a passkey: the server's creation options as plain
/// values (binary fields decoded), and the challenge id to verify against.
///
/// Hand it to the platform (`ASAuthorizationPlatformPublicKeyCredentialProvider`) or, in tests,
/// to `SoftwarePasskeyAuthenticator`; send what comes back to ``AuthPasskeys/register(_:for:name:)``.
public struct PasskeyRegistrationRequest: Sendable, Equatable {
    /// The id of the server's challenge, sent back with the credential.
    public var challengeID: String
    /// The RP id (`rp.id`): the domain the passkey belongs to.
    public var relyingPartyID: String
    /// The name authenticators show for the relying party (`rp.name`).
    public var relyingPartyName: String
    /// The user handle (`user.id`) the passkey stores.
    public var userID: Data
    /// The account name the passkey is saved under (`user.name`).
    public var userName: String
    /// The server's random challenge, which the authenticator signs.
    public var challenge: Data
    /// Credentials the account has already (`excludeCredentials`).
    public var excludedCredentialIDs: [Data]
    /// When the challenge expires (five minutes after it was made, on Gatehouse's server).
    public var expiresAt: Date

    /// Creates a request from plain values.
    public init(
        challengeID: String,
        relyingPartyID: String,
        relyingPartyName: String,
        userID: Data,
        userName: String,
        challenge: Data,
        excludedCredentialIDs: [Data],
        expiresAt: Date
    ) {
        self.challengeID = challengeID
        self.relyingPartyID = relyingPartyID
        self.relyingPartyName = relyingPartyName
        self.userID = userID
        self.userName = userName
        self.challenge = challenge
        self.excludedCredentialIDs = excludedCredentialIDs
        self.expiresAt = expiresAt
    }

    /// Reads the server's answer (``PasskeyCreationOptions``); options that do not read, or
    /// name no RP id, are ``ErrorCode/invalidResponse``.
    public init(_ reply: PasskeyOptions) throws {
        let options: PasskeyCreationOptions
        do {
            options = try PasskeyCreationOptions(json: reply.options)
        } catch {
            throw AuthError.invalidPasskeyOptions(error.reason)
        }
        guard let rpID = options.relyingParty.id else {
            throw AuthError.invalidPasskeyOptions("options.rp.id is missing")
        }
        self.init(
            challengeID: reply.challengeID,
            relyingPartyID: rpID,
            relyingPartyName: options.relyingParty.name,
            userID: options.user.id,
            userName: options.user.name,
            challenge: options.challenge,
            excludedCredentialIDs: (options.excludeCredentials ?? []).map(\.id),
            expiresAt: Date(timeIntervalSince1970: TimeInterval(reply.expiresAt))
        )
    }
}

/// What an authenticator needs to sign in with a discoverable passkey (no user name).
public struct PasskeyAssertionRequest: Sendable, Equatable {
    /// The id of the server's challenge, sent back with the assertion.
    public var challengeID: String
    /// The RP id (`rpId`): the domain whose passkeys may answer.
    public var relyingPartyID: String
    /// The server's random challenge, which the passkey signs.
    public var challenge: Data
    /// When the challenge expires (five minutes after it was made, on Gatehouse's server).
    public var expiresAt: Date

    /// Creates a request from plain values.
    public init(challengeID: String, relyingPartyID: String, challenge: Data, expiresAt: Date) {
        self.challengeID = challengeID
        self.relyingPartyID = relyingPartyID
        self.challenge = challenge
        self.expiresAt = expiresAt
    }

    /// Reads the server's answer (``PasskeyRequestOptions``); options that do not read, or
    /// name no RP id, are ``ErrorCode/invalidResponse``.
    public init(_ reply: PasskeyOptions) throws {
        let options: PasskeyRequestOptions
        do {
            options = try PasskeyRequestOptions(json: reply.options)
        } catch {
            throw AuthError.invalidPasskeyOptions(error.reason)
        }
        guard let rpID = options.relyingPartyID else {
            throw AuthError.invalidPasskeyOptions("options.rpId is missing")
        }
        self.init(
            challengeID: reply.challengeID,
            relyingPartyID: rpID,
            challenge: options.challenge,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(reply.expiresAt))
        )
    }
}

extension AuthError {
    /// The server's passkey options do not read: `reason` says which field
    /// (``PasskeyJSONError``).
    static func invalidPasskeyOptions(_ reason: String) -> AuthError {
        AuthError(
            code: .invalidResponse,
            message: "The server's passkey options cannot be read: \(reason).",
            recoverySuggestion: "Check that the server supports passkeys (GATEHOUSE_WEBAUTHN_RP_ID)."
        )
    }
}
