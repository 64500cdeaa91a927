import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// An RFC 5322 plain-text message, rendered for the SMTP `DATA` command.
struct SMTPMessage: Sendable {
    var from: String
    var to: String
    var subject: String
    var body: String
    var date: Date

    /// The wire text: headers, a blank line, the base64 body, CRLF line endings.
    func render() throws -> String {
        for field in [from, to, subject] where field.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw SMTPError(kind: .invalidMessage, detail: "a header contains a line break")
        }
        for address in [from, to] where !SMTPMessage.isPlainAddress(address) {
            throw SMTPError(kind: .invalidMessage, detail: "not a plain e-mail address")
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        let domain = from.split(separator: "@").last.map(String.init) ?? "localhost"
        let encodedBody = Data(body.utf8).base64EncodedString(options: [
            .lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed,
        ])
        let headers = [
            "From: \(from)",
            "To: \(to)",
            "Subject: =?UTF-8?B?\(Data(subject.utf8).base64EncodedString())?=",
            "Date: \(formatter.string(from: date))",
            "Message-ID: <\(UUID.random().uuidString.lowercased())@\(domain)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
        ]
        // Base64 lines never start with ".", so no dot-stuffing is needed.
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + encodedBody + "\r\n"
    }

    static func isPlainAddress(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && address.allSatisfy { $0.isASCII && !$0.isWhitespace && $0 != "<" && $0 != ">" && $0 != "," }
    }
}
