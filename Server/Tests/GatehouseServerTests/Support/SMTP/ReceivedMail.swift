import Foundation

/// One message the test SMTP listener accepted: envelope and the `DATA` text (CRLF lines).
struct ReceivedMail: Sendable {
    var from: String
    var to: [String]
    var data: String

    /// The decoded `Subject:` header (the server writes it as one RFC 2047 base64 word).
    var subject: String? {
        guard let line = data.split(separator: "\r\n").first(where: { $0.hasPrefix("Subject: ") }) else {
            return nil
        }
        let encoded = line.dropFirst("Subject: =?UTF-8?B?".count).dropLast(2)
        return Data(base64Encoded: String(encoded)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The decoded base64 body.
    var body: String {
        guard let range = data.range(of: "\r\n\r\n") else { return "" }
        let base64 = data[range.upperBound...].filter { !$0.isNewline }
        return Data(base64Encoded: String(base64)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The six-digit code in the body ("... is 123456.").
    var code: String? {
        body.split(separator: " ").first {
            $0.count == 7 && $0.hasSuffix(".") && $0.dropLast().allSatisfy(\.isNumber)
        }
        .map { String($0.dropLast()) }
    }
}
