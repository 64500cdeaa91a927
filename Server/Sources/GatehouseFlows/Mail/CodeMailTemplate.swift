import Foundation
import GatehouseCore
import GatehouseStorage

/// The message that carries a one-time code: a subject per purpose, the code, how long it
/// lasts, and a link to the server's `GET /verify`, which signs in and lands on the site.
struct CodeMailTemplate: Sendable {
    /// The server's public base URL, where links point (`GATEHOUSE_API_EXTERNAL_URL`).
    let externalURL: String
    /// Where a followed link lands (`GATEHOUSE_SITE_URL`).
    let siteURL: String
    /// Seconds a code stays valid.
    let lifetime: TimeInterval

    /// The mail for `code` (and its `link` token) of `purpose`, to `email`; the link lands on
    /// `redirectTo` (a PKCE flow's target), else on the site.
    func mail(to email: String, purpose: CodePurpose, code: String, link: String, redirectTo: String? = nil) -> Mail {
        let minutes = Int(lifetime / 60)
        let body = """
            \(Self.codeLead)\(code). It expires in \(minutes) minutes and works once.
            Or open: \(Self.link(externalURL: externalURL, token: link, type: purpose.verificationType.rawValue, redirectTo: redirectTo ?? siteURL))
            If you did not ask for this, ignore this message.
            """
        return Mail(to: email, subject: Self.subject(for: purpose), body: body)
    }

    static func subject(for purpose: CodePurpose) -> String {
        switch purpose {
        case .signup: "Confirm your sign-up"
        case .recovery: "Reset your password"
        case .emailChange: "Confirm your new e-mail address"
        case .emailChangeCurrent: "Confirm the change of your e-mail address"
        case .reauthentication: "Confirm it is you"
        case .invite: "You have been invited"
        case .magicLink: "Your sign-in code"
        }
    }

    /// `<external URL>/verify?token=…&type=…&redirect_to=…`, as mailed and as `action_link`.
    static func link(externalURL: String, token: String, type: String, redirectTo: String) -> String {
        let redirect = redirectTo.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        return "\(externalURL)/verify?token=\(token)&type=\(type)&redirect_to=\(redirect)"
    }

    private static let codeLead = "Your code is "

    /// The code in a body this template wrote, or `nil` for any other message (``LogMailer``
    /// shows it to a developer without SMTP).
    static func code(in body: String) -> String? {
        guard let start = body.range(of: codeLead)?.upperBound else { return nil }
        let code = body[start...].prefix { $0.isASCII && $0.isNumber }
        return code.count == 6 ? String(code) : nil
    }
}
