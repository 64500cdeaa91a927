// platforms: macOS
// expect: 'performExpiringActivity\(withReason:using:\)' is unavailable in macOS
// why: ProcessInfo.performExpiringActivity exists on iOS, Mac Catalyst, tvOS, visionOS and watchOS only.
import Foundation

func keepAlive() {
    ProcessInfo.processInfo.performExpiringActivity(withReason: "refresh") { _ in }
}
