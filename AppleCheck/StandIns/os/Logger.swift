// The os module. The SDK does not import it (its LogSink lets an app plug in `os.Logger`), but the
// module exists on every Apple platform, so `canImport(os)` is true there as on Apple's SDKs.
// os.Logger as declared in os.swiftinterface (iOS 14, macOS 11; below the deployment targets);
// https://developer.apple.com/documentation/os/logger. Sendable per the documentation.
@_exported import Foundation

// os.swiftinterface
public struct Logger: @unchecked Sendable {
    public init(subsystem: String, category: String) { fatalError() }
    public init() { fatalError() }
}
