// platforms: iOS, Mac Catalyst, tvOS, visionOS
// why: the same read from main-actor code; the notification names are nonisolated constants.
import UIKit

@MainActor
func application() -> UIApplication {
    UIApplication.shared
}

func activation() -> NSNotification.Name {
    UIApplication.didBecomeActiveNotification
}
