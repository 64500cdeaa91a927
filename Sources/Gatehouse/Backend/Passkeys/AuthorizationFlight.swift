/// One system authorization at a time (a passkey sheet, an AutoFill-assisted request): the
/// state machine `PasskeyAuthorization` drives `ASAuthorizationController` with, kept free of
/// Apple types so that it is tested on Linux with a fake controller.
///
/// - **Completed once.** The first completion resumes the caller; a late one (a controller that
///   reports after it was cancelled) is dropped. No path leaves the caller waiting: the request
///   completes, fails, or is cancelled.
/// - **Cancelled with its task.** When the task waiting in ``perform(_:start:)`` is cancelled
///   (a SwiftUI `.task` whose view went away), the request is cancelled
///   (`ASAuthorizationController.cancel()`) and the caller gets ``ErrorCode/cancelled`` at once.
/// - **Re-entry refused.** While a request runs, another is refused with
///   ``ErrorCode/authorizationInProgress``, except that a modal request replaces a waiting
///   AutoFill-assisted one (which ends with ``ErrorCode/cancelled``): a person who taps "Sign in
///   with a passkey" while the QuickType bar offers passkeys gets the sheet.
@MainActor
package final class AuthorizationFlight<Output: Sendable> {
    /// How a request is presented.
    package enum Presentation: Sendable, Equatable {
        /// A sheet, now.
        case modal
        /// Passkeys offered in the QuickType bar of a `.username` field, for as long as the
        /// screen shows it.
        case autoFill
    }

    /// Starts the request and reports its one outcome through `complete`; returns the function
    /// that cancels it.
    package typealias Start = (_ complete: @escaping @MainActor (Result<Output, AuthError>) -> Void) -> @MainActor () -> Void

    private struct Pending {
        let id: Int
        let presentation: Presentation
        var cancel: (@MainActor () -> Void)?
        let continuation: CheckedContinuation<Output, any Error>
    }

    private var pending: Pending?
    private var nextID = 0

    package init() {}

    /// Whether a request is running.
    package var isBusy: Bool { pending != nil }

    /// Runs one request started by `start` and returns its outcome.
    ///
    /// - Throws: ``ErrorCode/authorizationInProgress`` when another request runs (unless this
    ///   one is modal and that one AutoFill); ``ErrorCode/cancelled`` when the task is cancelled
    ///   or a modal request replaced this AutoFill one; the request's own failure.
    package func perform(_ presentation: Presentation, start: Start) async throws -> Output {
        nextID += 1
        let id = nextID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: AuthError.authorizationCancelled())
                    return
                }
                if let running = pending {
                    guard running.presentation == .autoFill, presentation == .modal else {
                        continuation.resume(throwing: AuthError.authorizationInProgress())
                        return
                    }
                    finish(running.id, with: .failure(.authorizationCancelled()), cancelling: true)
                }
                pending = Pending(id: id, presentation: presentation, cancel: nil, continuation: continuation)
                let cancel = start { [weak self] result in self?.finish(id, with: result, cancelling: false) }
                if pending?.id == id { pending?.cancel = cancel }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.finish(id, with: .failure(.authorizationCancelled()), cancelling: true) }
        }
    }

    /// Ends request `id` with `result` if it is still the one running; `cancelling` also
    /// cancels the system's request.
    private func finish(_ id: Int, with result: Result<Output, AuthError>, cancelling: Bool) {
        guard let running = pending, running.id == id else { return }
        pending = nil
        if cancelling { running.cancel?() }
        switch result {
        case .success(let output): running.continuation.resume(returning: output)
        case .failure(let error): running.continuation.resume(throwing: error)
        }
    }
}
