import Foundation
import GatehouseFlows
import GatehouseServer
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A real server on loopback with a temporary SQLite file, a memory mailer and a manual clock.
struct Harness {
    let server: GatehouseServerApp
    let mailer: CapturingMailer
    let clock: TestClock
    let directory: URL
    var configuration: ServerConfiguration

    static func make(
        clock: TestClock = TestClock(),
        directory: URL? = nil,
        logger: Logger? = nil,
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> Harness {
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.database = try await TestDatabase.database(for: directory)
        configuration.serverSecret = TestDatabase.secret(for: directory)
        configuration.bcryptCost = 4
        configuration.rateLimits.token = 10_000
        configuration.rateLimits.verify = 10_000
        configuration.rateLimits.otp = 10_000
        configuration.rateLimits.anonymous = 10_000
        configuration.rateLimits.emailSent = 10_000
        configuration.rateLimits.emailPerRecipient = 10_000
        configuration.rateLimits.emailPerRecipientClient = 10_000
        configuration.rateLimits.emailSentUnconfirmed = 10_000
        configuration.rateLimits.signupEmailPerClient = 10_000
        configuration.rateLimits.mfa = 10_000
        configuration.rateLimits.mfaPerUser = 10_000
        configuration.rateLimits.mfaFailuresPerUser = 10_000
        configuration.rateLimits.passkey = 10_000
        // The live test client keeps one connection. A test that spends a while between two of
        // its requests (hundreds of racing guesses on the whole suite's loaded machine took 37 s)
        // must not find it closed as idle; the timeout tests set their own.
        configuration.connections.idleTimeout = 600
        // A loaded machine (the whole suite on two cores) may take seconds to answer `/ready`'s
        // read; the probe's own deadline is tested where a database is really gone.
        configuration.readinessTimeout = .seconds(60)
        // Every test client is on loopback: one client network holding all of a test's connections.
        configuration.connections.maxConnectionsPerClient = 10_000
        configure(&configuration)
        let mailer = CapturingMailer()
        let logger =
            logger
            ?? {
                var logger = Logger(label: "test")
                logger.logLevel = .critical
                return logger
            }()
        let server = try await buildServer(configuration: configuration, mailer: mailer, now: clock.now, logger: logger)
        return Harness(server: server, mailer: mailer, clock: clock, directory: directory, configuration: configuration)
    }

    /// Runs `body` against the server over real HTTP on loopback (on `127.0.0.1:fixedPort` when
    /// the server must know its own address before it starts).
    func live(fixedPort: Int? = nil, _ body: @escaping @Sendable (Client) async throws -> Void) async throws {
        try await LiveServer.run(server.application, fixedPort: fixedPort) { client in
            try await body(Client(client: client, mailer: mailer, server: server))
        }
        try? await server.storage.close()
    }

    /// The database's contents as text (SQLite: the files' bytes), to check what is (not) stored.
    func databaseText() async throws -> String {
        try await TestDatabase.contents(of: configuration.database)
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A JSON reply.
struct Reply: @unchecked Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var text: String
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }

    subscript(key: String) -> Any? { json[key] }
    func string(_ key: String) -> String? { json[key] as? String }
    var user: [String: Any] { json["user"] as? [String: Any] ?? json }
    var errorCode: String? { (json["error_code"] as? String) ?? (json["code"] as? String) }
    func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }
}

/// Sends requests to the live server.
struct Client: Sendable {
    let client: LiveClient
    let mailer: CapturingMailer
    /// The server, whose mail outbox the waits below watch.
    let server: GatehouseServerApp

    @discardableResult
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        json: String? = nil,
        bearer: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        if let bearer { fields[.authorization] = "Bearer \(bearer)" }
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        let response = try await client.execute(
            uri: path,
            method: method,
            headers: fields,
            body: json.map { ByteBuffer(string: $0) }
        )
        let text = String(buffer: response.body ?? ByteBuffer())
        return Reply(status: response.status, headers: response.headers, text: text)
    }

    func post(
        _ path: String,
        _ json: String = "{}",
        bearer: String? = nil,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        try await send(.post, path, json: json, bearer: bearer, headers: headers)
    }

    func get(_ path: String, bearer: String? = nil) async throws -> Reply {
        try await send(.get, path, bearer: bearer)
    }

    /// Signs up with autoconfirm off, confirms with the mailed code, and returns the session.
    func confirmedSession(email: String, password: String = "correct horse battery") async throws -> Reply {
        let signup = try await post("/signup", #"{"email":"\#(email)","password":"\#(password)"}"#)
        guard signup.status == .ok else { return signup }
        if signup["access_token"] != nil { return signup }
        let code = try await waitForCode(to: email)
        return try await post("/verify", #"{"type":"signup","email":"\#(email)","token":"\#(code)"}"#)
    }

    func signIn(_ email: String, _ password: String = "correct horse battery") async throws -> Reply {
        try await post("/token?grant_type=password", #"{"email":"\#(email)","password":"\#(password)"}"#)
    }

    func refresh(_ token: String) async throws -> Reply {
        try await post("/token?grant_type=refresh_token", #"{"refresh_token":"\#(token)"}"#)
    }

    /// Waits until the mail outbox has delivered every mail queued so far to ``mailer`` (or
    /// dropped it by rule: over budget, its code replaced), for at most `timeout`. Mail goes
    /// out off the request path; a request's mail is in the outbox when its answer comes.
    func waitForOutbox(timeout: Duration = .seconds(60)) async throws {
        try await Outbox.waitUntilDelivered(server, timeout: timeout)
    }

    /// The newest code mailed to an address.
    func waitForCode(to email: String) async throws -> String {
        try await waitForOutbox()
        guard let code = await mailer.lastCode(to: email) else { throw HarnessError.noMail(email) }
        return code
    }

    /// The code of the newest message to an address with `subject`.
    func waitForCode(to email: String, subject: String) async throws -> String {
        try await waitForOutbox()
        let mail = await mailer.sent.last { $0.to == email.lowercased() && $0.subject == subject }
        guard let mail, let code = CapturingMailer.code(in: mail.body) else { throw HarnessError.noMail(email) }
        return code
    }

    /// Waits until a message with `subject` reached an address.
    func waitForMail(to email: String, subject: String) async throws {
        try await waitForOutbox()
        guard await mailer.sent.contains(where: { $0.to == email.lowercased() && $0.subject == subject }) else {
            throw HarnessError.noMail(email)
        }
    }

    /// The code of the `count`th message to an address, once that many have arrived.
    func waitForMail(to email: String, count: Int) async throws -> String {
        try await waitForOutbox()
        let mails = await mailer.sent.filter { $0.to == email.lowercased() }
        guard mails.count >= count, let code = CapturingMailer.code(in: mails[count - 1].body) else {
            throw HarnessError.noMail(email)
        }
        return code
    }

    /// The code of a mail to `email` sent after the first `count`.
    func waitForCode(to email: String, after count: Int) async throws -> String {
        try await waitForOutbox()
        guard await mailCount(to: email) > count, let code = await mailer.lastCode(to: email) else {
            throw HarnessError.noMail(email)
        }
        return code
    }

    func mailCount(to email: String) async -> Int {
        await mailer.sent.filter { $0.to == email }.count
    }
}

enum HarnessError: Error {
    case noMail(String)
    case outboxNotDelivered(MailOutboxDepth)
    case codesNotIssued(Int)
}

/// Waits on a server's mail outbox.
enum Outbox {
    /// Waits until the codes requests handed off are issued (their mail queued), wakes the
    /// sender and waits until the outbox is empty (every mail delivered or dropped), for at most
    /// `timeout` in all.
    static func waitUntilDelivered(_ server: GatehouseServerApp, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while server.codesBeingIssued > 0 {
            guard ContinuousClock.now < deadline else { throw HarnessError.codesNotIssued(server.codesBeingIssued) }
            try await Task.sleep(for: .milliseconds(5))
        }
        server.wakeMailSender()
        while true {
            let depth = try await server.mailOutboxDepth()
            if depth.count == 0 { return }
            guard ContinuousClock.now < deadline else { throw HarnessError.outboxNotDelivered(depth) }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
