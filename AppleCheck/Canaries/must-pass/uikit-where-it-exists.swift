// platforms: macOS, iOS, Mac Catalyst, tvOS, watchOS, visionOS
// why: the SDK's guard for UIKit's application object: UIKit exists on watchOS without UIApplication.
#if canImport(UIKit) && !os(watchOS)
import UIKit

func activationNotification() -> NSNotification.Name {
    UIApplication.didBecomeActiveNotification
}
#endif
