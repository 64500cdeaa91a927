import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The provider key fetch (``JWKSFetcher/live``) and the form posted to Apple
/// (``AppleFormPoster/live``), both on ``OutboundHTTP``, against a real HTTP server on loopback:
/// body and cache age, the posted form as the server reads it, and every failure bounded and
/// reported.
@Suite("Outbound HTTP: provider key sets and Apple's forms")
struct OutboundHTTPTests {
    @Test func fetchesTheBodyAndCacheAgeAndRefusesWhatItShouldNot() async throws {
        let router = Router()
        router.get("keys") { _, _ -> Response in
            Response(
                status: .ok,
                headers: [.cacheControl: "public, max-age=300", .contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"keys":[]}"#))
            )
        }
        router.get("streamed") { _, _ -> Response in
            // No Content-Length: chunked transfer encoding.
            Response(
                status: .ok,
                body: ResponseBody { writer in
                    for part in [#"{"keys""#, ":", "[]}"] { try await writer.write(ByteBuffer(string: part)) }
                    try await writer.finish(nil)
                }
            )
        }
        router.get("huge") { _, _ -> Response in
            Response(status: .ok, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: 2 << 20)))
        }
        router.get("slow") { _, _ -> Response in
            try await Task.sleep(for: .seconds(2))
            return Response(status: .ok)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            func url(_ path: String, scheme: String = "http") -> URL {
                URL(string: "\(scheme)://127.0.0.1:\(port)\(path)")!
            }

            let document = try await JWKSFetcher.live.fetch(url("/keys"))
            #expect(String(decoding: document.body, as: UTF8.self) == #"{"keys":[]}"#)
            #expect(document.maxAge == 300)
            let streamed = try await JWKSFetcher.live.fetch(url("/streamed"))
            #expect(String(decoding: streamed.body, as: UTF8.self) == #"{"keys":[]}"#)
            #expect(streamed.maxAge == nil)

            await #expect(throws: OutboundHTTP.Failure.status(404)) {
                try await JWKSFetcher.live.fetch(url("/missing"))
            }
            await #expect(throws: OutboundHTTP.Failure.tooLarge) { try await JWKSFetcher.live.fetch(url("/huge")) }
            await #expect(throws: OutboundHTTP.Failure.timedOut) {
                try await OutboundHTTP(url: url("/slow"), accept: "application/json", timeout: .milliseconds(300)).run()
            }
            await #expect(throws: OutboundHTTP.Failure.unsupportedURL) {
                try await JWKSFetcher.live.fetch(URL(string: "ftp://127.0.0.1:\(port)/keys")!)
            }
            // TLS to a plain HTTP server fails its handshake: an error, not a hang.
            await #expect(throws: (any Error).self) { try await JWKSFetcher.live.fetch(url("/keys", scheme: "https")) }
        }
    }

    @Test func aFormIsPostedWithItsTypeAndLengthAndTheAnswerComesBackAsIs() async throws {
        let router = Router()
        router.post("auth/token") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 1 << 16)
            let echo = [
                request.method.rawValue,
                request.headers[.contentType] ?? "-",
                request.headers[.contentLength] ?? "-",
                request.headers[.accept] ?? "-",
                String(buffer: body),
            ].joined(separator: "\n")
            return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: echo)))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let form = AppleFormPoster.formEncoded([("client_id", "com.example.app"), ("code", "a b&c=d/é")])
            let reply = try await AppleFormPoster.live.post(
                URL(string: "http://127.0.0.1:\(port)/auth/token")!,
                [("client_id", "com.example.app"), ("code", "a b&c=d/é")]
            )
            // Apple's error statuses come back as a reply for the caller to read, not a throw.
            #expect(reply.status == 400)
            #expect(
                String(decoding: reply.body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                    == [
                        "POST", "application/x-www-form-urlencoded", "\(form.utf8.count)", "application/json",
                        "client_id=com.example.app&code=a%20b%26c%3Dd%2F%C3%A9",
                    ]
            )
            await #expect(throws: OutboundHTTP.Failure.unsupportedURL) {
                try await AppleFormPoster.live.post(URL(string: "file:///etc/passwd")!, [])
            }
        }
    }
}
