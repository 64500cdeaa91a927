import Foundation
import Gatehouse
import Testing

/// Issue 30: the passkey adapter's state machine, with a fake controller in place of
/// ASAuthorizationController: one request at a time, cancelled with the task that awaits it,
/// completed once, and never a continuation left waiting.
@MainActor
@Suite("Passkey requests: one at a time, cancellable, completed once", .timeLimit(.minutes(1)))
struct AuthorizationFlightTests {
    typealias Flight = AuthorizationFlight<PasskeyAuthenticatorResponse>

    static let assertion = PasskeyAuthenticatorResponse.assertion(
        PasskeyAssertionCredential(
            credentialID: Data([1]),
            clientDataJSON: Data([2]),
            authenticatorData: Data([3]),
            signature: Data([4]),
            userHandle: Data([5])
        )
    )

    @Test func aRequestCompletesOnceAndALateReportIsDropped() async throws {
        let flight = Flight()
        let controller = FakeController()
        let request = Task { try await flight.perform(.modal, start: controller.start) }
        await controller.waitUntilStarted()

        controller.complete(with: .success(Self.assertion))
        controller.complete(with: .failure(.authorizationCancelled()))

        #expect(try await value(of: request) == Self.assertion)
        #expect(!flight.isBusy)
        #expect(controller.cancels == 0)
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        let flight = Flight()
        let controller = FakeController()
        let request = Task { try await flight.perform(.autoFill, start: controller.start) }
        await controller.waitUntilStarted()

        request.cancel()

        let error = await #expect(throws: AuthError.self) { try await value(of: request) }
        #expect(error?.code == .cancelled)
        #expect(controller.cancels == 1, "ASAuthorizationController.cancel()")
        #expect(!flight.isBusy)
        controller.complete(with: .failure(.passkeyAuthorizationFailure(authorizationErrorCode: 1001)))
        #expect(!flight.isBusy, "the controller's own report of the cancellation changes nothing")
    }

    @Test func aTaskCancelledBeforeItStartsNeverShowsASheet() async throws {
        let flight = Flight()
        let controller = FakeController()
        let request = Task {
            try? await Task.sleep(for: .seconds(3600))
            return try await flight.perform(.modal, start: controller.start)
        }
        request.cancel()
        await #expect(throws: AuthError.self) { try await value(of: request) }
        #expect(controller.starts == 0)
        #expect(!flight.isBusy)
    }

    @Test func aSecondRequestIsRefusedWhileOneRuns() async throws {
        let flight = Flight()
        let first = FakeController()
        let second = FakeController()
        let running = Task { try await flight.perform(.modal, start: first.start) }
        await first.waitUntilStarted()

        let error = await #expect(throws: AuthError.self) { try await flight.perform(.modal, start: second.start) }
        #expect(error?.code == .authorizationInProgress)
        #expect(second.starts == 0)
        let autoFill = await #expect(throws: AuthError.self) { try await flight.perform(.autoFill, start: second.start) }
        #expect(autoFill?.code == .authorizationInProgress)

        first.complete(with: .success(Self.assertion))
        #expect(try await value(of: running) == Self.assertion, "the first one is unharmed")
        #expect(!flight.isBusy)
    }

    @Test func aModalRequestReplacesAWaitingAutoFillOne() async throws {
        let flight = Flight()
        let autoFill = FakeController()
        let modal = FakeController()
        let waiting = Task { try await flight.perform(.autoFill, start: autoFill.start) }
        await autoFill.waitUntilStarted()

        let tapped = Task { try await flight.perform(.modal, start: modal.start) }
        await modal.waitUntilStarted()

        let error = await #expect(throws: AuthError.self) { try await value(of: waiting) }
        #expect(error?.code == .cancelled)
        #expect(autoFill.cancels == 1)
        modal.complete(with: .success(Self.assertion))
        #expect(try await value(of: tapped) == Self.assertion)
        #expect(!flight.isBusy)
    }

    @Test func aFailureIsReportedAsTheSystemSaidIt() async throws {
        let flight = Flight()
        let controller = FakeController()
        let request = Task { try await flight.perform(.modal, start: controller.start) }
        await controller.waitUntilStarted()
        controller.complete(with: .failure(.passkeyAuthorizationFailure(authorizationErrorCode: 1006)))
        let error = await #expect(throws: AuthError.self) { try await value(of: request) }
        #expect(error?.code == .webAuthnCredentialExists, "excludedCredentials matched: this device has one")
    }

    @Test func theSystemsCodesMeanWhatTheySay() {
        #expect(AuthError.passkeyAuthorizationFailure(authorizationErrorCode: 1001).code == .cancelled)
        #expect(AuthError.passkeyAuthorizationFailure(authorizationErrorCode: 1006).code == .webAuthnCredentialExists)
        let other = AuthError.passkeyAuthorizationFailure(authorizationErrorCode: 1004)
        #expect(other.recoverySuggestion?.contains("webcredentials") == true)
        #expect(AuthError.passkeyAuthorizationFailure(authorizationErrorCode: nil).code == .unknown)
    }

    @Test func theResponseIsTheKindAsked() throws {
        #expect(throws: AuthError.unexpectedPasskeyCredential()) { try Self.assertion.registration() }
        #expect(try Self.assertion.assertion().userHandle == Data([5]))
    }
}

/// Stands in for ASAuthorizationController: records starts and cancellations, and reports
/// when the test says.
@MainActor
final class FakeController {
    private(set) var starts = 0
    private(set) var cancels = 0
    private var report: (@MainActor (Result<PasskeyAuthenticatorResponse, AuthError>) -> Void)?

    var start: AuthorizationFlight<PasskeyAuthenticatorResponse>.Start {
        { complete in
            self.starts += 1
            self.report = complete
            return { self.cancels += 1 }
        }
    }

    func complete(with result: Result<PasskeyAuthenticatorResponse, AuthError>) {
        report?(result)
    }

    func waitUntilStarted() async {
        for _ in 0..<10_000 where starts == 0 { await Task.yield() }
    }
}
