import Foundation
import GatehouseProcessTesting
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Logging
import Synchronization
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 19: request ids, the request log, `GATEHOUSE_LOG_FORMAT=json`, and no secret in
/// either format after a full flow.
@Suite("Logs")
struct LogTests {
    /// Lines a ``JSONLogHandler`` wrote.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func append(_ data: Data) { lines.withLock { $0.append(String(decoding: data, as: UTF8.self)) } }
        var objects: [[String: Any]] {
            all.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
    }

    @Test func everyRequestHasAnIdEchoedAndOneJSONLine() async throws {
        let lines = Lines()
        var logger = Logger(label: "gatehouse") { JSONLogHandler(label: $0, sink: lines.append) }
        logger.logLevel = .info
        let harness = try await Harness.make(logger: logger)
        defer { harness.removeFiles() }
        try await harness.live { client in
            let given = try await client.send(.get, "/health", headers: ["X-Request-Id": "trace-42.a:b_c"])
            #expect(given.header("X-Request-Id") == "trace-42.a:b_c")
            let generated = try await client.get("/settings")
            let id = try #require(generated.header("X-Request-Id"))
            #expect(UUID(uuidString: id) != nil)
            // An id that could forge a log line, or fill it, is replaced.
            for bad in ["a b", "x\"}{", String(repeating: "a", count: 129)] {
                let reply = try await client.send(.get, "/health", headers: ["X-Request-Id": bad])
                #expect(reply.header("X-Request-Id").flatMap(UUID.init(uuidString:)) != nil)
            }
            let failed = try await client.get("/admin/users/\(UUID().uuidString)")
            #expect(failed.status == .unauthorized && failed.header("X-Request-Id") != nil)
        }
        #expect(lines.all.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
        let requests = lines.objects.filter { $0["message"] as? String == "Request" }
        let health = try #require(requests.first { $0["request_id"] as? String == "trace-42.a:b_c" })
        #expect(health["route"] as? String == "/health")
        #expect(health["method"] as? String == "GET")
        #expect(health["status"] as? Int == 200)
        #expect(health["duration_ms"] is Double)
        #expect(health["level"] as? String == "info" && health["time"] is String)
        let admin = try #require(requests.first { $0["status"] as? Int == 401 })
        // The route's pattern, never the id the client sent.
        #expect(admin["route"] as? String == "/admin/users/{id}")
    }

    @Test(arguments: ["json", "text"])
    func noSecretInTheLogAfterAFullFlow(format: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-logs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let serverSecret = "log-test-server-secret-\(UUID().uuidString)"
        let jwtSecret = "log-test-jwt-secret-\(UUID().uuidString)"
        let server = try await ServerProcess(
            environment: [
                "GATEHOUSE_DATABASE_URL": TestDatabase.url(of: try await TestDatabase.database(for: directory)),
                "GATEHOUSE_SERVER_SECRET": serverSecret,
                "GATEHOUSE_JWT_SECRET": jwtSecret,
                "GATEHOUSE_MAILER_AUTOCONFIRM": "true",
                "GATEHOUSE_BCRYPT_COST": "4",
                "GATEHOUSE_LOG_FORMAT": format,
                "GATEHOUSE_LOG_LEVEL": "trace",
            ],
            logDirectory: directory
        )
        let http = HTTPClient()
        let base = server.url
        let password = "log-test-password-\(UUID().uuidString.prefix(8))"
        let email = "log-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let signUp = await http.send(
            "POST",
            base.appendingPathComponent("signup"),
            json: #"{"email":"\#(email)","password":"\#(password)"}"#
        )
        let access = try #require(signUp.string("access_token"))
        let refresh = try #require(signUp.string("refresh_token"))
        let token = base.appendingPathComponent("token")
        let signIn = await http.send(
            "POST",
            URL(string: token.absoluteString + "?grant_type=password")!,
            json: #"{"email":"\#(email)","password":"\#(password)"}"#
        )
        #expect(signIn.status == 200)
        let wrong = await http.send(
            "POST",
            URL(string: token.absoluteString + "?grant_type=password")!,
            json: #"{"email":"\#(email)","password":"\#(password)-wrong"}"#
        )
        #expect(wrong.status == 400)
        let rotated = await http.send(
            "POST",
            URL(string: token.absoluteString + "?grant_type=refresh_token")!,
            json: #"{"refresh_token":"\#(refresh)"}"#
        )
        let newRefresh = try #require(rotated.string("refresh_token"))
        let user = base.appendingPathComponent("user")
        #expect(await http.send("GET", user, bearer: access).status == 200)
        #expect(await http.send("PUT", user, json: #"{"data":{"plan":"pro"}}"#, bearer: access).status == 200)
        let linkToken = "log-test-link-token-\(UUID().uuidString)"
        _ = await http.send("GET", URL(string: base.absoluteString + "/verify?type=magiclink&token=\(linkToken)")!)
        #expect(await http.send("POST", base.appendingPathComponent("logout"), bearer: access).status == 204)

        let log = try String(contentsOf: server.logURL, encoding: .utf8)
        await server.kill()
        #expect(log.contains("Request"), "the request log is on at info")
        for secret in [password, access, refresh, newRefresh, serverSecret, jwtSecret, linkToken, "eyJ"] {
            #expect(!log.contains(secret), "\(format) log has \(secret.prefix(12))…")
        }
        let lines = log.split(separator: "\n")
        if format == "json" {
            for line in lines {
                let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                #expect(object?["message"] is String && object?["level"] is String, "not a JSON line: \(line)")
            }
            let requests = lines.compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }
            .filter { $0["message"] as? String == "Request" }
            #expect(requests.count >= 8)
            #expect(requests.allSatisfy { $0["request_id"] is String && $0["route"] is String && $0["status"] is Int })
        } else {
            #expect(lines.allSatisfy { !$0.hasPrefix("{") }, "text stays text")
            // The metadata set on the request's logger is rendered with each line
            // (TextLogHandler renders it only when a line is written).
            let requests = lines.filter { $0.hasSuffix(" Request") }
            #expect(requests.count >= 8)
            #expect(
                requests.allSatisfy { $0.contains("request_id=") && $0.contains("route=/") && $0.contains("status=") }
            )
        }
    }

    /// A text stream for ``TextLogHandler``.
    final class Text: TextOutputStream, Sendable {
        private let text = Mutex("")
        var all: String { text.withLock { $0 } }
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    /// The text handler renders the logger's metadata with each line, the line's own metadata
    /// winning a clash, and writes nothing below its level.
    @Test func theTextHandlerRendersTheLoggersMetadataWithEachLine() {
        let text = Text()
        var logger = Logger(label: "gatehouse") { TextLogHandler(label: $0, output: text) }
        logger.logLevel = .info
        logger[metadataKey: "request_id"] = "r-1"
        logger[metadataKey: "route"] = "/token"
        logger.debug("Hidden")
        logger.info("Request", metadata: ["status": "200", "route": "/user"])
        let line = text.all
        #expect(line.hasSuffix(" Request\n") && !line.contains("Hidden"))
        #expect(line.contains("request_id=r-1") && line.contains("route=/user") && line.contains("status=200"))
        #expect(!line.contains("route=/token"))
        #expect(logger[metadataKey: "request_id"] == "r-1")
    }

    /// The server keeps UTC when `TZ` is unset or empty (Foundation's built-in GMT zone, no ICU
    /// zone tables), and keeps the zone an operator names.
    @Test func theProcessTimeZoneIsUTCUnlessTZNamesOne() {
        #expect(ProcessTimeZone.replacement(forTZ: nil) == "GMT")
        #expect(ProcessTimeZone.replacement(forTZ: "") == "GMT")
        #expect(ProcessTimeZone.replacement(forTZ: "Asia/Kolkata") == nil)
        #expect(ProcessTimeZone.replacement(forTZ: "IST-5:30") == nil)
        #expect(ProcessTimeZone.replacement(forTZ: "GMT") == nil)
    }

    /// A `TZ` the operator sets is kept: the text log's timestamps carry its offset (a POSIX
    /// zone string, which needs no time-zone database). Unset or empty `TZ` is covered by the
    /// decision above: C's library reads an empty `TZ` as UTC whatever the server does, and this
    /// machine's own zone is UTC, so a server run could not tell the two apart.
    @Test func anOperatorsTZIsKeptInTheTextLog() async throws {
        let (zone, offset) = ("IST-5:30", "+0530")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-logs-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await ServerProcess(
            environment: [
                "GATEHOUSE_DATABASE_URL": TestDatabase.url(of: try await TestDatabase.database(for: directory)),
                "GATEHOUSE_SERVER_SECRET": "log-test-server-secret-\(UUID().uuidString)",
                "GATEHOUSE_LOG_FORMAT": "text",
                "GATEHOUSE_LOG_LEVEL": "info",
                "TZ": zone,
            ],
            logDirectory: directory
        )
        let log = try String(contentsOf: server.logURL, encoding: .utf8)
        await server.kill()
        let listening = try #require(log.split(separator: "\n").first { $0.contains("Gatehouse listening") })
        // swift-log's text lines start with the time: 2026-11-26T15:04:05+0000 info gatehouse: …
        let stamp = try #require(listening.split(separator: " ").first)
        #expect(stamp.hasSuffix(offset), "\(listening)")
    }
}
