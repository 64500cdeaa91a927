// platforms: macOS
// expect: no such module 'UIKit'
// why: a UIKit call compiled for macOS, where UIKit does not exist (`os(macOS)` taken as "Apple").
#if os(iOS) || os(macOS)
import UIKit

@MainActor
func observeActivation() -> NSNotification.Name {
    UIApplication.didBecomeActiveNotification
}
#endif
