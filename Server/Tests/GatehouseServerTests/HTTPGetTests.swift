import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GatehouseServer

/// The provider key fetch (``JWKSFetcher/live`` on ``HTTPGet``) against a real HTTP server on
/// loopback: body and cache age, and every failure bounded and reported.
@Suite("Fetching a provider's key set")
struct HTTPGetTests {
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

            await #expect(throws: HTTPGet.Failure.status(404)) { try await JWKSFetcher.live.fetch(url("/missing")) }
            await #expect(throws: HTTPGet.Failure.tooLarge) { try await JWKSFetcher.live.fetch(url("/huge")) }
            await #expect(throws: HTTPGet.Failure.timedOut) {
                try await HTTPGet(url: url("/slow"), accept: "application/json", timeout: .milliseconds(300)).run()
            }
            await #expect(throws: HTTPGet.Failure.unsupportedURL) {
                try await JWKSFetcher.live.fetch(URL(string: "ftp://127.0.0.1:\(port)/keys")!)
            }
            // TLS to a plain HTTP server fails its handshake: an error, not a hang.
            await #expect(throws: (any Error).self) { try await JWKSFetcher.live.fetch(url("/keys", scheme: "https")) }
        }
    }
}
