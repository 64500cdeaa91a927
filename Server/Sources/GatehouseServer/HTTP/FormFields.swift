import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import HTTPTypes
import Hummingbird
import NIOCore

/// `application/x-www-form-urlencoded` fields (a query, or a form body): `+` is a space and
/// `%XX` a byte, names and values alike, in order, duplicates kept.
enum FormFields {
    /// The fields of `text`; a malformed escape leaves that part as it is.
    static func parse(_ text: Substring) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// The request's query fields.
    static func query(of request: Request) -> [(String, String)] {
        request.uri.query.map { parse($0[...]) } ?? []
    }

    /// The fields of a form body (at most 64 KiB), and the query's after them; a body that is not
    /// a form adds nothing.
    static func formAndQuery(of request: Request, context: some RequestContext) async throws -> [(String, String)] {
        var request = request
        var fields: [(String, String)] = []
        let type = request.headers[.contentType]?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            let buffer: ByteBuffer
            do {
                buffer = try await request.collectBody(upTo: 65_536)
            } catch {
                throw APIError(.contentTooLarge, .requestEntityTooLarge, "Request body too large")
            }
            fields = parse(String(buffer: buffer)[...])
        }
        return fields + query(of: request)
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
