public import GatehouseCore

/// What a one-time code is for. The raw value is what the database stores (`one_time_codes.purpose`),
/// so a shipped raw value is never renamed.
///
/// This is the one place that maps purposes to and from the wire's ``VerificationType``:
/// which purposes a `POST /verify` type accepts, and which type a purpose's link carries.
public enum CodePurpose: String, Sendable, CaseIterable {
    /// Confirms the address of a new account (or of a guest's upgrade).
    case signup
    /// Signs in by e-mail code (`POST /otp`, a "magic link" in GoTrue's words).
    case magicLink = "email"
    /// Signs in to reset a forgotten password (`POST /recover`).
    case recovery
    /// Confirms a new address (`PUT /user` with `email`); sent to the new address.
    case emailChange = "email_change"
    /// Confirms an address change from the current address (GoTrue's secure e-mail change);
    /// `POST /verify type=email_change` with the current address accepts it.
    case emailChangeCurrent = "email_change_current"
    /// Proves a recent sign-in before a sensitive change (`GET /reauthenticate`); used as a nonce.
    case reauthentication
    /// Accepts an admin's invitation (`POST /invite`).
    case invite

    /// The purposes a `POST|GET /verify` `type` may verify, in the order they are tried; `nil`
    /// for a type that verifies no e-mail code.
    ///
    /// `email` and `magiclink` also accept a sign-up code, as GoTrue does: `POST /otp` to an
    /// unconfirmed address confirms it.
    public static func verified(by type: VerificationType) -> [CodePurpose]? {
        switch type {
        case .signup: [.signup]
        case .email, .magiclink: [.magicLink, .signup]
        case .recovery: [.recovery]
        case .emailChange: [.emailChange, .emailChangeCurrent]
        case .invite: [.invite]
        default: nil
        }
    }

    /// The `type` a link for this purpose carries (`/verify?token=…&type=…`).
    public var verificationType: VerificationType {
        switch self {
        case .signup: .signup
        case .magicLink: .magiclink
        case .recovery: .recovery
        case .emailChange, .emailChangeCurrent: .emailChange
        case .reauthentication: VerificationType(rawValue: "reauthentication")
        case .invite: .invite
        }
    }

    /// The `amr` method of a session a verified code of this purpose signs in.
    package var signInMethod: AuthenticationMethod {
        switch self {
        case .signup: .emailSignup
        case .magicLink, .reauthentication: .otp
        case .recovery: .recovery
        case .emailChange, .emailChangeCurrent: .emailChange
        case .invite: .invite
        }
    }
}

extension CodePurpose {
    /// The purpose of a `POST /admin/generate_link` `type`: `signup`, `invite`, `magiclink`,
    /// `recovery`, `email_change_current` or `email_change_new`; `nil` for any other.
    package init?(linkType: String) {
        switch linkType {
        case "signup": self = .signup
        case "invite": self = .invite
        case "magiclink": self = .magicLink
        case "recovery": self = .recovery
        case "email_change_current": self = .emailChangeCurrent
        case "email_change_new": self = .emailChange
        default: return nil
        }
    }
}
