/// Why a passkey JSON value (options, a credential, client data) was refused: which field,
/// and what is wrong with it, as in `credential.response.clientDataJSON is not base64url` or
/// `options.rp.name is missing`.
public struct PasskeyJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's path from the value's name, then what is wrong with it.
    public var reason: String

    /// The error for `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }

    /// The error for a decoding failure inside the value called `name`: the path of the field
    /// (`name.response.signature`, `name.pubKeyCredParams[0].alg`) and the problem.
    init(_ error: any Error, in name: String) {
        guard let error = error as? DecodingError else {
            self.init(reason: "\(name) cannot be read (\(error))")
            return
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(reason: "\(Self.path(name, context.codingPath + [key])) is missing")
        case .valueNotFound(_, let context):
            self.init(reason: "\(Self.path(name, context.codingPath)) must not be null")
        case .typeMismatch(let type, let context):
            self.init(reason: "\(Self.path(name, context.codingPath)) must be \(Self.kind(type))")
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            self.init(reason: "\(name) is not JSON")
        case .dataCorrupted(let context):
            self.init(reason: "\(Self.path(name, context.codingPath)) \(context.debugDescription)")
        @unknown default:
            self.init(reason: "\(name) cannot be read")
        }
    }

    /// `name.a.b[2].c`.
    private static func path(_ name: String, _ keys: [any CodingKey]) -> String {
        keys.reduce(into: name) { path, key in
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += ".\(key.stringValue)"
            }
        }
    }

    /// How a JSON value of `type` is described: `a string`, `an object`, ….
    private static func kind(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Double.Type: "a number"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "a value of type \(type)"
        }
    }
}
