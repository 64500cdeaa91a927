import Foundation
@testable import Gatehouse
import GatehouseTesting
import Testing

/// Collects the values an observation delivers.
@MainActor
final class SessionRecorder {
    private(set) var sessions: [AuthSession] = []

    func record(_ session: AuthSession) { sessions.append(session) }

    /// Waits until `condition` holds for the values so far, for at most `timeout`.
    func waitUntil(
        timeout: Duration = .seconds(10),
        _ condition: @MainActor ([AuthSession]) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(sessions) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out after \(timeout) waiting; received \(sessions.map { "\($0.state) \($0.operationStatus)" })")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(2))
        }
    }
}

@MainActor
@Suite("Observing the auth session")
struct AuthSessionObservationTests {
    @Test func theCurrentValueIsDeliveredBeforeObserveReturns() async {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()

        let observation = fixture.service.observeAuthSession { recorder.record($0) }
        defer { observation.cancel() }

        #expect(recorder.sessions.map(\.state) == [.unauthenticated])
    }

    @Test func everyChangeIsDeliveredWithTheOperationStatus() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()
        let observation = fixture.service.observeAuthSession { recorder.record($0) }
        defer { observation.cancel() }

        let user = try await fixture.service.signInAnonymously()

        try await recorder.waitUntil { $0.last?.state == .guest(user) && $0.last?.operationStatus == .success }
        #expect(recorder.sessions.contains { $0.operationStatus == .pending })
        for (earlier, later) in zip(recorder.sessions, recorder.sessions.dropFirst()) {
            #expect(earlier != later, "a value equal to the one before it was delivered again")
        }
    }

    @Test func aCancelledObservationReceivesNothingMore() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let cancelled = SessionRecorder()
        let control = SessionRecorder()
        let observation = fixture.service.observeAuthSession { cancelled.record($0) }
        let controlObservation = fixture.service.observeAuthSession { control.record($0) }
        defer { controlObservation.cancel() }

        observation.cancel()
        let user = try await fixture.service.signInAnonymously()

        // The control observation is told through the same path; once it has the change, a
        // cancelled observation would have had it too.
        try await control.waitUntil { $0.last?.state == .guest(user) }
        #expect(observation.isCancelled)
        #expect(cancelled.sessions.map(\.state) == [.unauthenticated])
    }

    @Test func anUnchangedValueIsNotDeliveredAgainButRedeliverForcesIt() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()
        let observation = fixture.service.observeAuthSession { recorder.record($0) }
        defer { observation.cancel() }

        let control = SessionRecorder()
        let controlObservation = fixture.service.observeAuthSession { control.record($0) }
        defer { controlObservation.cancel() }

        // A change undone before the observation reads it leaves nothing new to deliver. The
        // control's forced delivery is queued on the main actor after both reads, so once it
        // arrives the observation has read the (unchanged) value.
        let status = fixture.service.operationStatus
        fixture.service.operationStatus = .pending
        fixture.service.operationStatus = status
        controlObservation.redeliver()
        try await control.waitUntil { $0.count >= 2 }
        #expect(control.sessions.count == 2)
        #expect(recorder.sessions.count == 1)

        let user = try await fixture.service.signInAnonymously()
        try await recorder.waitUntil { $0.last?.state == .guest(user) && $0.last?.operationStatus == .success }
        for (earlier, later) in zip(recorder.sessions, recorder.sessions.dropFirst()) {
            #expect(earlier != later, "a value equal to the one before it was delivered again")
        }

        let count = recorder.sessions.count
        observation.redeliver()
        try await recorder.waitUntil { $0.count == count + 1 }
        #expect(recorder.sessions[count] == recorder.sessions[count - 1])
    }

    @Test func aSubscriptionFromAnotherThreadStartsOnTheMainActor() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()
        let service = fixture.service

        let observation = await Task.detached {
            service.subscribeToAuthSession { recorder.record($0) }
        }.value
        defer { observation.cancel() }

        try await recorder.waitUntil { $0.map(\.state) == [.unauthenticated] }
        let user = try await service.signInAnonymously()
        try await recorder.waitUntil { $0.last?.state == .guest(user) }
    }

    @Test func withAuthSessionOnTheMainThreadAnswersAtOnce() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        var received: AuthSession?

        fixture.service.withAuthSession { received = $0 }

        #expect(received?.state == .unauthenticated)
    }

    @Test func aSubscriptionOnTheMainActorDeliversBeforeItReturns() async {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()

        let observation = fixture.service.subscribeToAuthSession { recorder.record($0) }
        defer { observation.cancel() }

        #expect(recorder.sessions.map(\.state) == [.unauthenticated])
    }

    @Test func withAuthSessionFromAnotherThreadAnswersOnTheMainActor() async throws {
        let fixture = Fixture()
        await fixture.service.restoreSession()
        let recorder = SessionRecorder()
        let service = fixture.service

        await Task.detached { service.withAuthSession { recorder.record($0) } }.value

        try await recorder.waitUntil { $0.map(\.state) == [.unauthenticated] }
    }

    @Test func anObservationDoesNotKeepItsServiceAlive() async throws {
        weak var released: AuthService?
        var observation: AuthSessionObservation?
        do {
            let fixture = Fixture(verifies: false)
            released = fixture.service
            observation = fixture.service.observeAuthSession { _ in }
        }
        #expect(released == nil)
        observation?.cancel()
    }
}
