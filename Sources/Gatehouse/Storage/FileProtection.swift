// Apple-only call sites in this file (iOS, tvOS, watchOS, visionOS; not macOS or Linux):
// FileManager.setAttributes with FileAttributeKey.protectionKey and
// FileProtectionType.completeUntilFirstUserAuthentication, URL.setResourceValues with
// URLResourceValues.isExcludedFromBackup. Elsewhere these are no-ops.
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Data protection for the session file on devices that have it.
enum FileProtection {
    /// Marks the folder readable from the first unlock after boot (files created in it inherit
    /// the class) and excludes it from backups, so a refresh token never lands in one.
    static func protect(directory: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
            ofItemAtPath: directory
        )
        var url = URL(fileURLWithPath: directory, isDirectory: true)
        var values = URLResourceValues()
        values.isExcludedFromBackup = true
        try? url.setResourceValues(values)
        #endif
    }

    /// Whether a file error means "protected data is unavailable" (before the first unlock a
    /// protected file cannot be opened: `EPERM`), as opposed to a real failure.
    static func meansLocked(_ error: any Error) -> Bool {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return (error as? FileIO.Failure)?.code == EPERM
        #else
        return false
        #endif
    }
}
