import Foundation
import Gatehouse

/// The JSON the CLI prints with `--json`.
public enum JSONOutput {
    /// Encodes a value as one line of JSON with sorted keys and ISO-8601 dates.
    public static func render(_ value: some Encodable) -> String {
        let encoder = WireCoding.makeEncoder()
        guard let data = try? encoder.encode(value) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The JSON shape of an error: `{"error": {"code", "message", "hint"}}`.
    public static func render(_ error: CLIError) -> String {
        struct Body: Encodable {
            struct Inner: Encodable {
                var code: String
                var message: String
                var hint: String?
            }
            var error: Inner
        }
        return render(Body(error: .init(code: error.code, message: error.message, hint: error.hint)))
    }
}
