import GatehouseFlows

/// A path inside the console to send the browser to: after sign-in (`next`) and after each
/// form. Anything that is not plainly one of the console's own paths (another host, `//host`,
/// a backslash, a scheme, control characters, `..`) becomes the users page, so no address the
/// console redirects to can leave it (no open redirect).
struct ConsoleReturnPath: Sendable, Equatable {
    let path: String

    static let users = ConsoleReturnPath(trusted: "/console/users")
    static let signIn = ConsoleReturnPath(trusted: "/console/sign-in")

    /// A path the console built itself.
    init(trusted path: String) {
        self.path = path
    }

    /// `text` if it is a console path, else the users page.
    init(validating text: String?) {
        self = Self.isConsolePath(text) ? ConsoleReturnPath(trusted: text ?? "") : .users
    }

    static func isConsolePath(_ text: String?) -> Bool {
        guard let text, text.utf8.count <= 512, text == "/console" || text.hasPrefix("/console/") else { return false }
        let allowed = text.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || "/-_?=&%.".unicodeScalars.contains(scalar)
        }
        return allowed && !text.contains("//") && !text.contains("..")
    }
}
