public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock that processes sharing one session store (an app and its extensions in an App Group,
/// or several runs of a command-line program) hold around a token refresh, so that at most one
/// of them refreshes at a time; the others wait, then find the new pair in the store and adopt
/// it instead of presenting a refresh token that was just used.
///
/// ``FileSessionStore`` provides one beside its file; give ``KeychainSessionStore`` a
/// `refreshLockURL` in the App Group container to share one with extensions.
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
    /// Waits for the lock and returns the function that releases it.
    public var acquire: @Sendable () async throws -> @Sendable () -> Void

    /// Creates a lock from its acquire function.
    public init(acquire: @escaping @Sendable () async throws -> @Sendable () -> Void) {
        self.acquire = acquire
    }

    /// An advisory `flock` on the file at `url` (created 0600 with its folder 0700). The
    /// operating system releases it when the holder exits or is killed, so a crashed process
    /// never blocks the others. A holder that hangs is waited for at most `timeout`; then the
    /// refresh goes ahead without the lock.
    public static func file(at url: URL, timeout: Duration = .seconds(30)) -> RefreshLock {
        RefreshLock {
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
                guard code == EWOULDBLOCK || code == EINTR, clock.now < deadline else {
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
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    deinit { close() }
}
