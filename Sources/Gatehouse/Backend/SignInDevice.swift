#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The device label sent with sign-ins, which the server shows in the user's list of sessions
/// (``AuthService/sessions()``).
///
/// ``AuthService`` sets ``name`` from ``AuthService/Configuration/deviceName`` around each of its
/// calls to the backend; a backend reads it when it signs in (`GoTrueBackend` sends it as the
/// `device` field; `InMemoryAuthBackend` records it).
public enum SignInDevice {
    /// The label of the sign-in in progress on this task, if any.
    @TaskLocal public static var name: String?

    /// A label for this device that costs nothing to compute: the host name on Linux and macOS
    /// ("build-box"), the hardware model on iPhone, iPad, Apple TV, Watch and Vision Pro
    /// ("iPhone15,2"); `nil` when the system tells neither.
    public static var platformDefault: String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var system = utsname()
        guard uname(&system) == 0 else { return nil }
        #if os(Linux) || os(macOS)
        let field = system.nodename
        #else
        let field = system.machine
        #endif
        let text = withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
        #else
        return nil
        #endif
    }
}
