import Foundation

/// What the SDK needs to know about the process it runs in: whether it is a Simulator, an
/// Xcode Preview, a test run or an app extension. Read once from the build and the process's
/// environment (``current``); tests pass their own.
public struct ProcessEnvironment: Sendable, Equatable {
    /// Whether the process runs in a Simulator (iOS, tvOS, watchOS or visionOS).
    public var isSimulator: Bool
    /// Whether Xcode runs the process to render SwiftUI previews (`XCODE_RUNNING_FOR_PREVIEWS=1`).
    public var isXcodePreview: Bool
    /// Whether the process runs tests (XCTest or Swift Testing, under Xcode or `swift test`).
    public var isTestRun: Bool
    /// Whether the process is an app extension (its bundle is an `.appex`).
    public var isAppExtension: Bool

    /// Creates an environment from its facts.
    public init(isSimulator: Bool, isXcodePreview: Bool, isTestRun: Bool, isAppExtension: Bool) {
        self.isSimulator = isSimulator
        self.isXcodePreview = isXcodePreview
        self.isTestRun = isTestRun
        self.isAppExtension = isAppExtension
    }

    /// Reads the facts from a process's environment variables, arguments and main bundle path.
    public init(
        variables: [String: String],
        arguments: [String],
        bundlePath: String,
        isSimulator: Bool = ProcessEnvironment.isSimulatorBuild
    ) {
        let testVariables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        let testRunner = arguments.contains { argument in
            argument.hasSuffix(".xctest") || argument.contains(".xctest/")
                || (argument as NSString).lastPathComponent == "swiftpm-testing-helper"
        }
        self.init(
            isSimulator: isSimulator,
            isXcodePreview: variables["XCODE_RUNNING_FOR_PREVIEWS"] == "1",
            isTestRun: testVariables.contains { variables[$0] != nil } || testRunner,
            isAppExtension: bundlePath.hasSuffix(".appex") || bundlePath.hasSuffix(".appex/")
        )
    }

    /// This process.
    public static let current = ProcessEnvironment(
        variables: ProcessInfo.processInfo.environment,
        arguments: CommandLine.arguments,
        bundlePath: Bundle.main.bundlePath
    )

    /// Whether this build targets a Simulator (`targetEnvironment(simulator)`).
    public static var isSimulatorBuild: Bool {
        #if targetEnvironment(simulator)
        return true
        #else
        return false
        #endif
    }
}
