import Foundation
import GatehouseProcessTesting
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// JSON over HTTP/1.1 to server processes, on SwiftNIO (HummingbirdTesting's `TestClient`): one
/// connection per request and a read timeout that always fires. Not URLSession: on Linux a
/// request to a server killed mid-answer can wait forever there (no timeout, no error).
struct HTTPClient: Sendable {
    struct Answer: @unchecked Sendable {
        var status: Int
        var json: [String: Any]
        func string(_ key: String) -> String? { json[key] as? String }
    }

    /// Long: tests check what comes back, and on two cores running the whole suite sixty
    /// racing requests that one code's lock serializes have taken longer than 30 seconds.
    var timeout: Duration = .seconds(120)

    /// Sends a request; a connection failure or a timeout comes back as status 0.
    func send(_ method: String, _ url: URL, json: String? = nil, bearer: String? = nil) async -> Answer {
        guard let host = url.host, let port = url.port else { return Answer(status: 0, json: [:]) }
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var target = url.path.isEmpty ? "/" : url.path
        if let query = url.query { target += "?" + query }
        let request = TestClient.Request(
            target,
            method: HTTPRequest.Method(method) ?? .get,
            authority: "\(host):\(port)",
            headers: headers,
            body: json.map { ByteBuffer(string: $0) }
        )
        let client = TestClient(host: host, port: port, configuration: .init(timeout: timeout))
        client.connect()
        let response = try? await Deadline.answer(of: client, within: timeout) { try await $0.execute(request) }
        try? await client.shutdown()
        guard let response else { return Answer(status: 0, json: [:]) }
        let data = response.body.map { Data($0.readableBytesView) } ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return Answer(status: Int(response.status.code), json: object)
    }
}
