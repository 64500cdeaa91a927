// platforms: watchOS
// expect: 'UIApplication' is unavailable in watchOS
// why: watchOS has UIKit but no UIApplication (UIApplication.h: API_UNAVAILABLE(watchos)).
import UIKit

@MainActor
func application() -> UIApplication {
    UIApplication.shared
}
