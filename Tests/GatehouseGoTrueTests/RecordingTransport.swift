import Foundation
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that records requests and answers from a queue of canned replies.
final class RecordingTransport: @unchecked Sendable {
    enum Reply {
        case http(Int, String, [String: String] = [:])
        case failure(any Error)
    }

    private let lock = NSLock()
    private var replies: [Reply]
    private(set) var requests: [URLRequest] = []

    init(_ replies: [Reply]) {
        self.replies = replies
    }

    var transport: HTTPTransport {
        HTTPTransport { request in try self.answer(request) }
    }

    private func answer(_ request: URLRequest) throws -> (Data, HTTPURLResponse) {
        let reply: Reply = lock.withLock {
            requests.append(request)
            return replies.isEmpty ? .http(500, "no reply queued") : replies.removeFirst()
        }
        switch reply {
        case .failure(let error):
            throw error
        case .http(let status, let body, let headers):
            let response = HTTPURLResponse(
                url: request.url!,
                statusCode: status,
                httpVersion: "HTTP/1.1",
                headerFields: headers
            )!
            return (Data(body.utf8), response)
        }
    }

    func bodyJSON(_ index: Int) throws -> [String: Any] {
        let data = try #require(lock.withLock { requests[index].httpBody })
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}

enum Fixtures {
    static let userJSON = #"""
        {"id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","aud":"authenticated","role":"authenticated",
         "email":"ada@example.com","phone":"","created_at":"2026-01-02T03:04:05.123456Z",
         "updated_at":"2026-01-02T03:04:05Z","app_metadata":{"provider":"email","providers":["email"]},
         "user_metadata":{},"is_anonymous":false}
        """#

    static func sessionJSON(
        access: String = "access-1",
        refresh: String = "refresh-1",
        anonymous: Bool = false
    ) -> String {
        let user =
            anonymous
            ? userJSON.replacingOccurrences(of: #""is_anonymous":false"#, with: #""is_anonymous":true"#) : userJSON
        return
            #"{"access_token":"\#(access)","token_type":"bearer","expires_in":3600,"expires_at":1900000000,"refresh_token":"\#(refresh)","user":\#(user)}"#
    }
}
