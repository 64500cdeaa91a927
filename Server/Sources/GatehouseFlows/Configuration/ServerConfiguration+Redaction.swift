import GatehouseStorage

/// What the settings look like in a log line, a `print` or a `dump`: every setting except the
/// secrets (database and SMTP passwords, the JWT and server secrets), which show as `<redacted>`.
extension ServerConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings without their secrets.
    public var description: String {
        let fields = customMirror.children.map { "\($0.label ?? "?"): \(String(describing: $0.value))" }
        return "ServerConfiguration(" + fields.joined(separator: ", ") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The stored settings, secrets replaced.
    public var customMirror: Mirror {
        let secret: (String?) -> String = { $0 == nil ? "nil" : "<redacted>" }
        return Mirror(
            self,
            children: [
                "host": host, "port": port, "database": database, "jwtSecret": secret(jwtSecret),
                "issuer": issuer, "siteURL": siteURL, "smtp": smtp.map(\.description) ?? "nil",
                "serverSecret": secret(serverSecret), "rateLimits": rateLimits,
                "externalProviders": externalProviders.map(\.description),
            ],
            displayStyle: .struct
        )
    }
}

extension SMTPSettings: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The relay for the log: the password is `<redacted>`.
    public var description: String {
        let user = username.map { $0 + (password == nil ? "" : ":<redacted>") + "@" } ?? ""
        return "smtp://\(user)\(host):\(port) (\(security.rawValue))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The settings without the password.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "host": host, "port": port, "username": username ?? "nil",
                "password": password == nil ? "nil" : "<redacted>", "sender": sender, "security": security,
            ],
            displayStyle: .struct
        )
    }
}
