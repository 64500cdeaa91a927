import GatehouseStorage
import HTTPTypes

/// Which routes perform which ``SensitiveAction``, and why every other route that writes is not
/// one. A test walks the router and fails on a route that writes (any method but `GET`) without
/// an entry here, on an entry no route has, and on an action no route performs: the next flow
/// cannot forget the table.
enum SensitiveRoutes {
    /// Why a route that writes is not a sensitive action.
    enum Exemption: String, Sendable {
        /// The admin API: `service_role` tokens, an operator's own trust domain, audited.
        case admin = "admin API (service_role), audited"
        /// Signs in or signs up; changes no existing account's ways in (an unproven password
        /// on a pending address is dropped when the address is proven: `security.md` OWN-1).
        case signIn = "signs in or signs up"
        /// Mails a code; nothing changes until the code is used.
        case mailsACode = "mails a code, changes nothing"
        /// A mailed code is the proof (`/verify`): of the address, or of both sides of an
        /// address change the table authorized.
        case mailedCodeIsTheProof = "the mailed code is the proof"
        /// A step toward AAL2 on a factor the caller has (`/factors/{id}/challenge`).
        case secondFactorStep = "a step toward AAL2"
        /// Signed by Apple, about an Apple account (`/apple/notifications`).
        case providerNotification = "signed by the provider"
        /// The console (`/console/…`) once signed in (``SensitiveAction/consoleSignIn``'s proof,
        /// asked again on every request), each form CSRF-checked, each action the admin API's
        /// flow, audited with the operator as actor.
        case console = "the console: a signed-in operator, CSRF-checked, audited"
    }

    /// What a route is.
    enum Entry: Sendable {
        case sensitive([SensitiveAction])
        case exempt(Exemption)
    }

    /// The routes, as `METHOD /path` with the router's `{capture}` syntax.
    static let entries: [String: Entry] = [
        "POST /token": .sensitive([.linkIdentity]),
        // A GET that starts a link: the table's proof is asked here, the callback links.
        "GET /user/identities/authorize": .sensitive([.linkIdentity]),
        "POST /passkeys/registration/options": .sensitive([.registerPasskey]),
        "POST /passkeys/registration/verify": .sensitive([.registerPasskey]),
        "PATCH /passkeys/{passkey_id}": .sensitive([.renamePasskey]),
        "DELETE /passkeys/{passkey_id}": .sensitive([.removePasskey]),
        "POST /factors": .sensitive([.enrolFactor]),
        "POST /factors/{factor_id}/verify": .sensitive([.verifyNewFactor]),
        "DELETE /factors/{factor_id}": .sensitive([.unenrolFactor]),
        "DELETE /user/identities/{identity_id}": .sensitive([.unlinkIdentity]),
        "PUT /user": .sensitive([.changePassword, .changeEmail]),
        "GET /user/sessions": .sensitive([.listSessions]),
        "DELETE /user/sessions/{id}": .sensitive([.endOtherSession]),
        "POST /logout": .sensitive([.endOtherSessions]),
        "DELETE /user": .sensitive([.deleteAccount]),
        "POST /console/sign-in": .sensitive([.consoleSignIn]),
        "POST /console/sign-in/passkey": .sensitive([.consoleSignIn]),

        "POST /signup": .exempt(.signIn),
        "POST /passkeys/authentication/options": .exempt(.signIn),
        "POST /passkeys/authentication/verify": .exempt(.signIn),
        "POST /otp": .exempt(.mailsACode),
        "POST /recover": .exempt(.mailsACode),
        "POST /resend": .exempt(.mailsACode),
        "POST /verify": .exempt(.mailedCodeIsTheProof),
        // The provider's form post (Apple): signs in, or finishes a link the table authorized at
        // `GET /user/identities/authorize` (the session that asked must still qualify).
        "POST /callback": .exempt(.signIn),
        "POST /factors/{factor_id}/challenge": .exempt(.secondFactorStep),
        "POST /apple/notifications": .exempt(.providerNotification),
    ]

    /// Admin routes are exempt as a whole (``Exemption/admin``), and so are the console's besides
    /// its sign-in (``Exemption/console``).
    static func entry(method: HTTPRequest.Method, path: String) -> Entry? {
        let path = path.hasPrefix("/") ? path : "/" + path
        if path.hasPrefix("/admin/") || path == "/invite" { return .exempt(.admin) }
        if let entry = entries["\(method.rawValue) \(path)"] { return entry }
        return path.hasPrefix("/console/") ? .exempt(.console) : nil
    }
}
