public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("RefreshLock needs flock(2) from a POSIX C library: Glibc, Musl or Darwin.")
#endif

/// A lock that processes sharing one session store (an app and its extensions in an App Group,
/// or several runs of a command-line program) hold around a token refresh, so that at most one
/// of them refreshes at a time; the others wait, then find the new pair in the store and adopt
/// it instead of presenting a refresh token that was just used.
///
/// ``FileSessionStore`` provides one beside its file; give ``KeychainSessionStore`` a
/// `refreshLockURL` in the App Group container to share one with extensions. ``AuthService``
/// takes it inside a background activity (``BackgroundActivity``), releases it when the
/// activity expires, and does not wait for it once the app is in the background
/// (`RefreshLockHold`): iOS terminates a suspended app that holds a lock on a file in a
/// shared container.
///
/// ```swift
/// // In a test: a lock that counts how often it was taken.
/// let taken = Locked(0)
/// let lock = RefreshLock {
///     taken.withLock { $0 += 1 }
///     return {}
/// }
/// ```
public struct RefreshLock: Sendable {
    /// Waits for the lock while `keepWaiting()` answers `true` (asked between attempts; `false`
    /// at once means one attempt) and returns the function that releases it; throws when it
    /// gives up.
    public var acquireWhile: @Sendable (_ keepWaiting: @escaping @Sendable () -> Bool) async throws -> @Sendable () -> Void

    /// Creates a lock from its acquire function, which may wait as long as it likes.
    public init(acquire: @escaping @Sendable () async throws -> @Sendable () -> Void) {
        self.acquireWhile = { _ in try await acquire() }
    }

    /// Creates a lock whose acquire function stops waiting when told to.
    public init(acquireWhile: @escaping @Sendable (_ keepWaiting: @escaping @Sendable () -> Bool) async throws -> @Sendable () -> Void) {
        self.acquireWhile = acquireWhile
    }

    /// Waits for the lock (up to the lock's own timeout) and returns the function that releases it.
    public func acquire() async throws -> @Sendable () -> Void {
        try await acquireWhile { true }
    }

    /// Waits for the lock while `keepWaiting()` answers `true` and returns the function that
    /// releases it; throws when it gives up.
    public func acquire(while keepWaiting: @escaping @Sendable () -> Bool) async throws -> @Sendable () -> Void {
        try await acquireWhile(keepWaiting)
    }

    /// An advisory `flock` on the file at `url` (created 0600 with its folder 0700). The
    /// operating system releases it when the holder exits or is killed, so a crashed process
    /// never blocks the others. A holder that hangs is waited for at most `timeout`; then the
    /// refresh goes ahead without the lock.
    public static func file(at url: URL, timeout: Duration = .seconds(30)) -> RefreshLock {
        RefreshLock { keepWaiting in
            let path = url.path
            try? FileIO.makePrivateDirectory(url.deletingLastPathComponent().path)
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw AuthError.storageFailure("opening the refresh lock \(path): errno \(errno)")
            }
            let held = HeldLock(descriptor: descriptor)
            let clock = ContinuousClock()
            let deadline = clock.now.advanced(by: timeout)
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                if code == EINTR { continue }
                guard code == EWOULDBLOCK, clock.now < deadline, keepWaiting() else {
                    held.close()
                    throw AuthError.storageFailure("taking the refresh lock \(path): errno \(code)")
                }
                do {
                    try await Task.sleep(for: .milliseconds(5))
                } catch {
                    held.close()
                    throw error
                }
            }
            return { held.close() }
        }
    }
}

/// An open, locked file descriptor, released and closed exactly once.
private final class HeldLock: Sendable {
    private let descriptor: Locked<Int32?>

    init(descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    func close() {
        let taken = descriptor.withLock { value in
            defer { value = nil }
            return value
        }
        guard let descriptor = taken else { return }
        _ = flock(descriptor, LOCK_UN)
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
        _ = Musl.close(descriptor)
        #elseif canImport(Darwin)
        _ = Darwin.close(descriptor)
        #endif
    }

    deinit { close() }
}
