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

    /// The kinds of system a default label is chosen for.
    package enum System: Sendable, Equatable {
        /// Linux and other servers and workstations: the host name.
        case linux
        /// A Mac, native or Mac Catalyst: "Mac". Its host name is usually its owner's name
        /// ("Ada's MacBook Pro"), which a list of sessions should not show to whoever sees it.
        case mac
        /// iPhone, iPad, Apple TV, Watch, Vision Pro: the hardware model ("iPhone15,2").
        case device
    }

    /// A label for this device that costs nothing to compute and never names a person: the host
    /// name on Linux, "Mac" on macOS and Mac Catalyst, the hardware model on iPhone, iPad, Apple
    /// TV, Watch and Vision Pro ("iPhone15,2"); `nil` when the system tells nothing.
    public static var platformDefault: String? {
        #if os(macOS) || targetEnvironment(macCatalyst)
        return label(system: .mac, hostName: "", machine: "")
        #elseif os(Linux)
        return uname().flatMap { label(system: .linux, hostName: $0.hostName, machine: $0.machine) }
        #else
        return uname().flatMap { label(system: .device, hostName: $0.hostName, machine: $0.machine) }
        #endif
    }

    /// The default label of a `system` with this host name and hardware model.
    package static func label(system: System, hostName: String, machine: String) -> String? {
        let chosen: String
        switch system {
        case .mac: return "Mac"
        case .linux: chosen = hostName
        case .device: chosen = machine
        }
        return chosen.isEmpty ? nil : chosen
    }

    /// The host name and hardware model `uname(2)` gives.
    private static func uname() -> (hostName: String, machine: String)? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        var system = utsname()
        #if canImport(Glibc)
        guard Glibc.uname(&system) == 0 else { return nil }
        #elseif canImport(Musl)
        guard Musl.uname(&system) == 0 else { return nil }
        #else
        guard Darwin.uname(&system) == 0 else { return nil }
        #endif
        func text<Field>(_ field: Field) -> String {
            withUnsafeBytes(of: field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return (text(system.nodename), text(system.machine))
        #else
        return nil
        #endif
    }
}
