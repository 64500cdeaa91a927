// Platform-specific code in this file: on iOS, tvOS, watchOS and visionOS the default folder is
// Application Support (FileManager.urls(for:in:), available everywhere); macOS and Linux use
// $XDG_CONFIG_HOME or $HOME/.config (NSHomeDirectory(), available everywhere). The data
// protection calls are in FileProtection.swift.
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A session store that keeps the session in one JSON file readable only by its owner.
///
/// The default store on Linux. The file is created with mode 0600 inside a folder with mode
/// 0700, under `$XDG_CONFIG_HOME` (or `~/.config`); on iOS, tvOS, watchOS and visionOS under
/// Application Support, with `completeUntilFirstUserAuthentication` protection and excluded
/// from backups. Every write goes to a temporary file that
/// is flushed to disk and then renamed over the old one, so a crash leaves either the old or
/// the new session, never half of one.
///
/// A file that cannot be decoded is reported as ``ErrorCode/storageCorrupt`` and left in place;
/// the next ``save(_:)`` moves it aside to `<name>.corrupt` before writing, so nothing is lost
/// silently.
public struct FileSessionStore: SessionStore {
    /// The file the session lives in.
    public let fileURL: URL

    /// Creates a store that keeps the session at `fileURL`.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Creates a store at `<directory>/<name>.json`, where `<directory>` is
    /// ``defaultDirectory(namespace:environment:)``.
    public init(namespace: String = "gatehouse", name: String = "session") {
        self.init(fileURL: Self.defaultDirectory(namespace: namespace).appendingPathComponent("\(name).json"))
    }

    /// Where sessions live by default: on iOS, tvOS, watchOS and visionOS the app's Application
    /// Support folder (protected until the first unlock, excluded from backups); elsewhere
    /// `$XDG_CONFIG_HOME/<namespace>`, or `~/.config/<namespace>` when the variable is unset or
    /// relative.
    public static func defaultDirectory(
        namespace: String = "gatehouse",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return applicationSupportDirectory(namespace: namespace)
        #else
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent(namespace, isDirectory: true)
        #endif
    }

    /// `<Application Support>/<namespace>` in the app's container (or the user's Library on macOS).
    public static func applicationSupportDirectory(namespace: String = "gatehouse") -> URL {
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        return base.appendingPathComponent(namespace, isDirectory: true)
    }

    public func load() throws -> Session? {
        let data: Data
        do {
            guard let read = try FileIO.readIfPresent(fileURL.path) else { return nil }
            data = read
        } catch {
            if FileProtection.meansLocked(error) { throw AuthError.storageLocked() }
            throw AuthError.storageFailure("reading \(fileURL.path): \(error)")
        }
        do {
            return try StoredSessionFile.decode(data)
        } catch {
            throw AuthError.storageCorrupt(location: fileURL.path, underlying: String(describing: error))
        }
    }

    public func save(_ session: Session) throws {
        let path = fileURL.path
        let directory = fileURL.deletingLastPathComponent().path
        do {
            try FileIO.makePrivateDirectory(directory)
            if let existing = try FileIO.readIfPresent(path), (try? StoredSessionFile.decode(existing)) == nil {
                try FileIO.rename(path, to: path + ".corrupt")
            }
            FileProtection.protect(directory: directory)
            try FileIO.writeAtomically(StoredSessionFile.encode(session), to: path, directory: directory)
        } catch {
            if FileProtection.meansLocked(error) { throw AuthError.storageLocked() }
            throw AuthError.storageFailure("writing \(path): \(error)")
        }
    }

    /// An advisory lock on `<file>.lock`, so that processes sharing the file (several runs of a
    /// command-line program, an app and a helper) refresh one at a time.
    public var refreshLock: RefreshLock? {
        .file(at: fileURL.appendingPathExtension("lock"))
    }

    /// A read of one small local file takes microseconds and takes no lock (writers replace
    /// the file atomically), so ``AuthService`` reads it at launch without a thread hop.
    public var loadsWithoutBlocking: Bool { true }

    public func delete() throws {
        do {
            try FileIO.removeIfPresent(fileURL.path)
        } catch {
            throw AuthError.storageFailure("removing \(fileURL.path): \(error)")
        }
    }
}
