import Foundation

/// What a settings screen shows about the account: "Signed in", "Guest" or "Not signed in",
/// with a masked identifier (`a•••@example.com`, or the first characters of a guest's id) and
/// whether the server has confirmed the session since launch.
///
/// ```swift
/// let status = auth.accountStatus
/// Text(status.title)            // "Signed in"
/// Text(status.maskedIdentifier ?? "")   // "a•••@example.com"
/// ```
public struct AccountStatus: Sendable, Hashable {
    /// Who is signed in, in the words a settings row uses.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A permanent account is signed in.
        case signedIn = "signed_in"
        /// A guest (anonymous) user is signed in.
        case guest
        /// Nobody is signed in.
        case signedOut = "signed_out"
        /// The session has not been read yet, or could not be for a reason that passes (a
        /// locked device): the service reads it again by itself.
        case unknown
        /// The stored session cannot be read and retrying will not help (an unreadable item, a
        /// missing keychain entitlement): the person must sign in again.
        case unavailable
    }

    /// Who is signed in.
    public var kind: Kind
    /// The account's e-mail or a guest's id, masked for display; `nil` when nobody is signed in.
    public var maskedIdentifier: String?
    /// Whether the server has confirmed the session since it was restored or obtained.
    public var isConfirmedByServer: Bool

    /// Creates a status.
    public init(kind: Kind, maskedIdentifier: String?, isConfirmedByServer: Bool) {
        self.kind = kind
        self.maskedIdentifier = maskedIdentifier
        self.isConfirmedByServer = isConfirmedByServer
    }

    /// The status for a session lifecycle value.
    public init(session: Loadable<User?>, isConfirmedByServer: Bool) {
        switch session {
        case .notInitiated, .loading:
            self.init(kind: .unknown, maskedIdentifier: nil, isConfirmedByServer: false)
        case .failure(let error):
            self.init(
                kind: error.isRetryable ? .unknown : .unavailable,
                maskedIdentifier: nil,
                isConfirmedByServer: false
            )
        case .success(nil):
            self.init(kind: .signedOut, maskedIdentifier: nil, isConfirmedByServer: false)
        case .success(let user?):
            if user.isAnonymous {
                self.init(
                    kind: .guest,
                    maskedIdentifier: Self.mask(id: user.id),
                    isConfirmedByServer: isConfirmedByServer
                )
            } else {
                let identifier = user.email.map(Self.mask(email:)) ?? Self.mask(id: user.id)
                self.init(kind: .signedIn, maskedIdentifier: identifier, isConfirmedByServer: isConfirmedByServer)
            }
        }
    }

    /// The row's title, localizable through the app's `Gatehouse.strings` table.
    public var title: String {
        switch kind {
        case .signedIn: return GatehouseText.localized("account.signedIn", "Signed in")
        case .guest: return GatehouseText.localized("account.guest", "Guest")
        case .signedOut: return GatehouseText.localized("account.signedOut", "Not signed in")
        case .unknown: return GatehouseText.localized("account.unknown", "Checking…")
        case .unavailable: return GatehouseText.localized("account.unavailable", "Sign-in needed")
        }
    }

    /// One line for a terminal or a log: title, identifier and confirmation.
    public var summary: String {
        var parts = [title]
        if let maskedIdentifier { parts.append(maskedIdentifier) }
        if kind == .signedIn || kind == .guest {
            parts.append(
                isConfirmedByServer
                    ? GatehouseText.localized("account.confirmed", "confirmed by the server")
                    : GatehouseText.localized("account.unconfirmed", "not confirmed by the server yet")
            )
        }
        return parts.joined(separator: " · ")
    }

    /// `ada@example.com` → `a•••@example.com`: the first character of the local part, the domain whole.
    public static func mask(email: String) -> String {
        guard let at = email.lastIndex(of: "@"), at != email.startIndex else {
            return String(email.prefix(1)) + "•••"
        }
        return String(email[email.startIndex]) + "•••" + email[at...]
    }

    /// A guest's id shortened to its first eight characters: `1b9d6bcd…`.
    public static func mask(id: String) -> String {
        id.count > 8 ? String(id.prefix(8)) + "…" : id
    }
}
