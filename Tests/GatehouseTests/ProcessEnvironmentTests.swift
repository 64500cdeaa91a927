import Foundation
import Gatehouse
import Testing

/// Issue 30: the debug stops of the SDK never fire in Xcode Previews or test runs.
@Suite("Process environment and the developer alarm")
struct ProcessEnvironmentTests {
    @Test func previewsAndTestRunsAreRecognisedAndNeverStopped() {
        let preview = ProcessEnvironment(
            variables: ["XCODE_RUNNING_FOR_PREVIEWS": "1"],
            arguments: ["/Users/ada/Library/Developer/Xcode/UserData/Previews/Simulator Devices/App.app/App"],
            bundlePath: "/x/App.app",
            isSimulator: true
        )
        #expect(preview.isXcodePreview && !preview.isTestRun)
        #expect(!DeveloperAlarm.stops(in: preview))

        let xctest = ProcessEnvironment(
            variables: ["XCTestConfigurationFilePath": "/tmp/x.xctestconfiguration"],
            arguments: ["/x/App.app/App"],
            bundlePath: "/x/App.app"
        )
        let swiftTest = ProcessEnvironment(
            variables: [:],
            arguments: ["/repo/.build/debug/GatehousePackageTests.xctest"],
            bundlePath: "/repo/.build/debug"
        )
        let testingHelper = ProcessEnvironment(
            variables: [:],
            arguments: ["/usr/bin/swiftpm-testing-helper", "--test-bundle-path", "/repo/.build/x.xctest/Contents/MacOS/x"],
            bundlePath: "/usr/bin"
        )
        for environment in [xctest, swiftTest, testingHelper] {
            #expect(environment.isTestRun)
            #expect(!DeveloperAlarm.stops(in: environment))
        }

        let app = ProcessEnvironment(variables: [:], arguments: ["/x/App.app/App"], bundlePath: "/x/App.app")
        #expect(!app.isTestRun && !app.isXcodePreview && !app.isAppExtension)
        #expect(DeveloperAlarm.stops(in: app))
        #expect(ProcessEnvironment.current.isTestRun, "this very run")
    }

    @Test func anExtensionIsItsBundle() {
        let widget = ProcessEnvironment(
            variables: [:],
            arguments: ["/x/App.app/PlugIns/Widget.appex/Widget"],
            bundlePath: "/x/App.app/PlugIns/Widget.appex"
        )
        #expect(widget.isAppExtension)
    }
}
