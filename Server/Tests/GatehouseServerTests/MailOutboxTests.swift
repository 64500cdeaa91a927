import Foundation
import GatehouseServerSupport
import GatehouseStorage
import Logging
import Synchronization
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// Issue 32: mail is a row of the transaction that carries its code or notice (the outbox),
/// delivered by the sender service in order per address, retried on temporary failures for an
/// hour, given up (and audited) on permanent ones, never sent once its code is replaced or
/// expired, and shared by instances without sending twice. These tests drive the sender's
/// passes themselves (no application runs, so no other pass interleaves).
@Suite("Mail outbox")
struct MailOutboxTests {
    /// A harness whose server is built but not run, a user, and a sender over a scripted mailer.
    struct Scene {
        let harness: Harness
        let userID: UUID
        let mailer: ScriptedMailer
        let sender: MailSender

        static func make(_ configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> Scene {
            let harness = try await Harness.make(configure)
            let now = harness.clock.now()
            let user = UserRecord(email: "ada@example.com", createdAt: now, updatedAt: now)
            try await harness.server.storage.transaction { tx in try await tx.insertUser(user) }
            let mailer = ScriptedMailer()
            var sender = harness.server.services.mailSender
            sender = MailSender(
                storage: sender.storage,
                mailer: mailer,
                sealing: sender.sealing,
                audit: sender.audit,
                settings: sender.settings,
                wakeup: Wakeup(),
                logger: sender.logger,
                now: sender.now
            )
            return Scene(harness: harness, userID: user.id, mailer: mailer, sender: sender)
        }

        var delivery: CodeDelivery { harness.server.services.delivery }

        /// The mail budgets' admission of a code to ada, as the request path asks for it.
        func admission() async throws -> MailBudget.Admission {
            let now = harness.clock.now()
            return try await delivery.admit("ada@example.com", recipient: .confirmed, client: "192.0.2.1", now: now)
        }

        /// Issues a magic-link code to ada in its own transaction; its mail is queued with it.
        @discardableResult
        func issueCode() async throws -> Mail {
            let (delivery, userID, now) = (delivery, userID, harness.clock.now())
            let admitted = try await admission()
            return try #require(
                try await harness.server.storage.transaction { tx in
                    try await delivery.issue(.magicLink, for: userID, to: admitted, spacing: .ignore, in: tx, now: now)
                }
            ).mail
        }

        /// Queues a notice to `address`.
        func notify(_ address: String, _ subject: String) async throws {
            let (delivery, now) = (delivery, harness.clock.now())
            _ = try await harness.server.storage.transaction { tx in
                try await delivery.notify(Mail(to: address, subject: subject, body: "Notice."), in: tx, now: now)
            }
        }

        func depth() async throws -> Int { try await harness.server.mailOutboxDepth().count }

        func audit() async throws -> [AuditEntry] {
            try await harness.server.storage.read { try await $0.auditEntries(limit: 100) }
        }

        func close() async {
            try? await harness.server.storage.close()
            harness.removeFiles()
        }
    }

    @Test func aMailIsARowOfItsTransactionAndRollsBackWithIt() async throws {
        let scene = try await Scene.make()
        let (delivery, userID, now) = (scene.delivery, scene.userID, scene.harness.clock.now())
        let admitted = try await scene.admission()
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await scene.harness.server.storage.transaction { tx in
                _ = try await delivery.issue(.magicLink, for: userID, to: admitted, spacing: .ignore, in: tx, now: now)
                throw Refused()
            }
        }
        #expect(try await scene.depth() == 0, "no mail for a code that rolled back")
        let mail = try await scene.issueCode()
        #expect(try await scene.depth() == 1)
        // The body is sealed at rest: the database holds no code (security.md OTP-4).
        let code = try #require(CapturingMailer.code(in: mail.body))
        #expect(!(try await scene.harness.databaseText()).contains(code))
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered == [mail])
        #expect(try await scene.depth() == 0)
        await scene.close()
    }

    /// Issuing answers with what it issued (issue 33): the code as stored and the mail queued with
    /// it, in one value, so no flow reads the code back and no purpose is guessed from a subject;
    /// a code held back by the spacing answers `nil`.
    @Test func issuingAnswersWithTheStoredCodeAndTheMailQueuedWithIt() async throws {
        let scene = try await Scene.make()
        let (delivery, userID, now) = (scene.delivery, scene.userID, scene.harness.clock.now())
        let admitted = try await scene.admission()
        let storage = scene.harness.server.storage
        let issued = try #require(
            try await storage.transaction { tx in
                try await delivery.issue(.recovery, for: userID, to: admitted, spacing: .ignore, in: tx, now: now)
            }
        )
        #expect(issued.purpose == .recovery)
        let stored = try #require(try await storage.read { try await $0.code(userID: userID, purpose: .recovery) })
        #expect(stored.linkHash == issued.record.linkHash)
        #expect(stored.codeHash == issued.record.codeHash)
        #expect(stored.email == issued.record.email)
        #expect(issued.mail.subject == CodeMailTemplate.subject(for: .recovery))
        let again = try await storage.transaction { tx in
            try await delivery.issue(.recovery, for: userID, to: admitted, spacing: .skip, in: tx, now: now)
        }
        #expect(again == nil, "held back by the spacing")
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered == [issued.mail])
        await scene.close()
    }

    @Test func mailsToOneAddressGoOutInTheOrderTheyWereQueued() async throws {
        let scene = try await Scene.make()
        for index in 1...3 { try await scene.notify("ada@example.com", "ada \(index)") }
        try await scene.notify("bob@example.com", "bob 1")
        // The first pass takes the oldest mail of each address: a newer one waits for it.
        // (The mails of one pass go to different addresses, at once, in any order.)
        let first = try await scene.sender.deliver()
        #expect(first.sent == 2)
        #expect(Set(await scene.mailer.delivered.map(\.subject)) == ["ada 1", "bob 1"])
        try await scene.sender.deliver()
        try await scene.sender.deliver()
        let adas = await scene.mailer.delivered.filter { $0.to == "ada@example.com" }.map(\.subject)
        #expect(adas == ["ada 1", "ada 2", "ada 3"])
        // A mail waiting for its retry holds the address's later mail back.
        await scene.mailer.fail(times: 1, with: SMTPError(kind: .connectionFailed, detail: "refused"))
        try await scene.notify("cy@example.com", "cy 1")
        try await scene.notify("cy@example.com", "cy 2")
        #expect(try await scene.sender.deliver().retried == 1)
        #expect(try await scene.sender.deliver().claimedAny == false, "cy 2 waits behind cy 1's retry")
        scene.harness.clock.advance(by: 2)
        try await scene.sender.deliver()
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered.suffix(2).map(\.subject) == ["cy 1", "cy 2"])
        await scene.close()
    }

    @Test func aMailWhoseCodeWasReplacedUsedOrExpiredIsNotSent() async throws {
        let scene = try await Scene.make()
        // Replaced: two codes queued, the first one's mail is dropped; the second keeps its own
        // text (a later code does not change an earlier mail).
        try await scene.issueCode()
        let second = try await scene.issueCode()
        try await scene.sender.deliver()
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered == [second])
        // Expired: the lifetime passed before the sender came.
        try await scene.issueCode()
        scene.harness.clock.advance(by: scene.harness.configuration.codeLifetime + 1)
        try await scene.sender.deliver()
        // Used: the code went before its mail did.
        try await scene.issueCode()
        let userID = scene.userID
        try await scene.harness.server.storage.transaction { tx in
            try await tx.deleteCode(userID: userID, purpose: .magicLink)
        }
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered == [second])
        #expect(try await scene.depth() == 0)
        await scene.close()
    }

    @Test func temporaryFailuresAreRetriedWithBackoffForAnHourThenGivenUp() async throws {
        let scene = try await Scene.make()
        let clock = scene.harness.clock
        await scene.mailer.fail(times: 3, with: SMTPError(kind: .unexpectedReply, detail: "451", replyCode: 451))
        try await scene.notify("ada@example.com", "kept trying")
        #expect(try await scene.sender.deliver().retried == 1)
        // Not due before its delay: 2 s, then 4 s, then 8 s.
        for delay in [2.0, 4.0] {
            clock.advance(by: delay - 0.5)
            #expect(try await scene.sender.deliver().claimedAny == false)
            clock.advance(by: 0.5)
            #expect(try await scene.sender.deliver().retried == 1)
        }
        clock.advance(by: 8)
        #expect(try await scene.sender.deliver().sent == 1)
        #expect(await scene.mailer.delivered.map(\.subject) == ["kept trying"])
        #expect(await scene.mailer.attempts == 4)

        // A mail that keeps failing is given up once an hour has passed since it was queued.
        await scene.mailer.fail(times: 1_000, with: SMTPError(kind: .connectionFailed, detail: "refused"))
        try await scene.notify("bob@example.com", "never arrives")
        var passes = 0
        while try await scene.depth() > 0, passes < 100 {
            try await scene.sender.deliver()
            clock.advance(by: 300)
            passes += 1
        }
        #expect(try await scene.depth() == 0)
        #expect(passes > 10 && passes < 20, "about an hour of 5-minute retries (\(passes) passes)")
        #expect(try await scene.audit().contains { $0.action == .mailAbandoned })
        await scene.close()
    }

    @Test func aPermanentFailureIsGivenUpAtOnceAndAudited() async throws {
        let scene = try await Scene.make()
        await scene.mailer.fail(times: 1, with: SMTPError(kind: .unexpectedReply, detail: "550", replyCode: 550))
        let mail = try await scene.issueCode()
        let pass = try await scene.sender.deliver()
        #expect(pass.givenUp == 1)
        #expect(try await scene.depth() == 0)
        let entry = try #require(try await scene.audit().first { $0.action == .mailRejected })
        #expect(entry.actorID == scene.userID)
        let detail = try #require(entry.detail)
        #expect(detail.contains("550"))
        #expect(!detail.contains("ada@example.com"), "no address in the audit detail")
        #expect(!detail.contains(CapturingMailer.code(in: mail.body) ?? "-"), "no code in the audit detail")
        await scene.close()
    }

    /// The budgets are decided on the request path before a code is issued (``MailBudget``) and
    /// never hold back the owner's notices: the sender charges nothing again (a second charge
    /// would spend the owner's budget twice).
    @Test func theSenderChargesNoBudgetAgain() async throws {
        let scene = try await Scene.make {
            $0.rateLimits.emailPerRecipient = 1
            $0.rateLimits.emailPerRecipientClient = 1
            $0.rateLimits.emailSent = 1
        }
        try await scene.notify("ada@example.com", "first")
        try await scene.notify("ada@example.com", "second")
        try await scene.sender.deliver()
        try await scene.sender.deliver()
        #expect(await scene.mailer.delivered.map(\.subject) == ["first", "second"])
        #expect(try await scene.depth() == 0)
        await scene.close()
    }

    @Test func twoSendersShareTheOutboxWithoutSendingAMailTwice() async throws {
        let scene = try await Scene.make()
        let (other, database) = try await Self.secondInstance(of: scene)
        var expected: [String: [String]] = [:]
        for index in 0..<30 {
            let address = "user\(index % 10)@example.com"
            try await scene.notify(address, "mail \(index)")
            expected[address, default: []].append("mail \(index)")
        }
        // Both instances deliver at once; the mailer takes a moment per mail.
        await scene.mailer.delay(.milliseconds(5))
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await scene.sender.deliverDue() }
            group.addTask { await other.deliverDue() }
        }
        let delivered = await scene.mailer.delivered
        #expect(delivered.count == 30, "each mail once (\(delivered.count))")
        for (address, subjects) in expected {
            #expect(delivered.filter { $0.to == address }.map(\.subject) == subjects, "in order to \(address)")
        }
        #expect(try await scene.depth() == 0)
        try await database.close()
        await scene.close()
    }

    /// A second sender on the same database, through its own storage (another instance), sharing
    /// the scene's mailer.
    static func secondInstance(of scene: Scene) async throws -> (MailSender, ServerDatabase) {
        let database = try await ServerDatabase.open(scene.harness.configuration, logger: Logger(label: "second"))
        let sender = scene.sender
        let second = MailSender(
            storage: database.storage,
            mailer: scene.mailer,
            sealing: sender.sealing,
            audit: sender.audit,
            settings: sender.settings,
            wakeup: Wakeup(),
            logger: sender.logger,
            now: sender.now
        )
        return (second, database)
    }
}

/// A mailer that keeps what it delivered and fails when told to.
actor ScriptedMailer: Mailer {
    private(set) var delivered: [Mail] = []
    private(set) var attempts = 0
    private var failures: [any Error] = []
    private var pause: Duration?

    /// The next `times` attempts fail with `error`.
    func fail(times: Int, with error: any Error & Sendable) {
        failures = Array(repeating: error, count: times)
    }

    /// Each delivery takes `duration`.
    func delay(_ duration: Duration) {
        pause = duration
    }

    func send(_ mail: Mail) async throws {
        attempts += 1
        if let pause { try await Task.sleep(for: pause) }
        if !failures.isEmpty { throw failures.removeFirst() }
        delivered.append(mail)
    }
}
