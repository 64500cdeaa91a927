import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("FileIO needs a POSIX C library: Glibc, Musl or Darwin.")
#endif

/// The POSIX file operations ``FileSessionStore`` needs, with explicit modes and `fsync`.
enum FileIO {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var code: Int32
        var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
    }

    /// The file's bytes, or `nil` when there is no such file.
    static func readIfPresent(_ path: String) throws(Failure) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw Failure(operation: "open", code: errno)
        }
        defer { close(fd) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "read", code: errno)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }

    /// Creates `path` (and missing parents) with mode 0700, and tightens it to 0700 if it exists.
    static func makePrivateDirectory(_ path: String) throws(Failure) {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != path, !FileManager.default.fileExists(atPath: parent) {
                try makePrivateDirectory(parent)
            }
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw Failure(operation: "mkdir", code: errno)
            }
        }
        if chmod(path, 0o700) != 0 {
            throw Failure(operation: "chmod", code: errno)
        }
    }

    /// Writes `data` to a temporary 0600 file beside `path`, flushes it, and renames it over `path`.
    static func writeAtomically(_ data: Data, to path: String, directory: String) throws(Failure) {
        let temporary = "\(directory)/.\((path as NSString).lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 { throw Failure(operation: "open", code: errno) }
        var failure: Failure?
        if fchmod(fd, 0o600) != 0 { failure = Failure(operation: "fchmod", code: errno) }
        if failure == nil {
            failure = data.withUnsafeBytes { bytes -> Failure? in
                var offset = 0
                while offset < bytes.count {
                    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return Failure(operation: "write", code: errno)
                    }
                    offset += written
                }
                return nil
            }
        }
        if failure == nil, fsync(fd) != 0 { failure = Failure(operation: "fsync", code: errno) }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        if posixRename(temporary, path) != 0 {
            let code = errno
            unlink(temporary)
            throw Failure(operation: "rename", code: code)
        }
        syncDirectory(directory)
    }

    static func rename(_ from: String, to: String) throws(Failure) {
        if posixRename(from, to) != 0 { throw Failure(operation: "rename", code: errno) }
    }

    static func removeIfPresent(_ path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT {
            throw Failure(operation: "unlink", code: errno)
        }
        syncDirectory((path as NSString).deletingLastPathComponent)
    }

    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func posixRename(_ from: String, _ to: String) -> Int32 {
        #if canImport(Glibc)
        return Glibc.rename(from, to)
        #elseif canImport(Musl)
        return Musl.rename(from, to)
        #elseif canImport(Darwin)
        return Darwin.rename(from, to)
        #endif
    }
}
