public import Foundation

/// Which server the CLI talks to, and where it keeps that server's session.
public struct ServerLocation: Sendable, Equatable {
    /// The default server: a local Gatehouse server.
    public static let defaultURL = "http://127.0.0.1:9999"

    /// The server's base URL.
    public var url: URL

    /// Resolves the server from the `--server` flag, then `GATEHOUSE_URL`, then the default.
    public init(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let text = flag ?? environment["GATEHOUSE_URL"] ?? Self.defaultURL
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw CLIError.usage(
                "“\(text)” is not an http(s) server URL.",
                hint: "For example: --server http://127.0.0.1:9999"
            )
        }
        self.url = url
    }

    /// The name of this server's session file: its host, port and path, made file-name safe.
    public var sessionName: String {
        let port = url.port.map { "_\($0)" } ?? ""
        let raw = "session-\(url.host ?? "server")\(port)\(url.path)"
        let safe = raw.unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "-" ? Character(scalar) : "_"
        }
        return String(safe).trimmingCharacters(in: CharacterSet(charactersIn: "_"))
    }
}
