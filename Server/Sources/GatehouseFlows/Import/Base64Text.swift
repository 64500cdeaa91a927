import Foundation

/// Base64 as the services export it: standard or URL-safe alphabet, padded or not.
enum Base64Text {
    static func decode(_ text: String) -> Data? {
        var standard = text.trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
