import Foundation
import GatehouseFlows
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The console's cookies: the session (`__Host-gatehouse-console` when the server's public
/// address is https, else `gatehouse-console`) and the sign-in form's CSRF value; both
/// `HttpOnly`, `Secure`, `SameSite=Strict`, `Path=/`, and the session at most 12 hours old.
struct ConsoleCookie: Sendable {
    /// Which of the two cookies.
    enum Kind: String, Sendable {
        case session = "gatehouse-console"
        case signInForm = "gatehouse-console-form"
    }

    /// Whether the console is served over https (`GATEHOUSE_API_EXTERNAL_URL`): then the names
    /// carry the `__Host-` prefix, which a browser accepts only from a secure origin, for
    /// `Path=/` and no `Domain`, so no sibling host can set or shadow them.
    let isHTTPS: Bool

    func name(_ kind: Kind) -> String {
        isHTTPS ? "__Host-" + kind.rawValue : kind.rawValue
    }

    /// `Set-Cookie` for `value`, living `maxAge` seconds.
    func setting(_ kind: Kind, _ value: String, maxAge: Int) -> String {
        "\(name(kind))=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; Secure; SameSite=Strict"
    }

    /// `Set-Cookie` that removes the cookie.
    func clearing(_ kind: Kind) -> String {
        setting(kind, "", maxAge: 0)
    }

    /// The cookie's value in `request`, if it sent one.
    func value(_ kind: Kind, in request: Request) -> String? {
        let wanted = name(kind)
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == wanted else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces)
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}
