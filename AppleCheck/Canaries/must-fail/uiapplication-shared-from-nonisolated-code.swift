// platforms: iOS
// expect: main actor-isolated class property 'shared' can not be referenced from a nonisolated context
// why: UIApplication is NS_SWIFT_UI_ACTOR; its `shared` may only be read on the main actor.
import UIKit

func application() -> UIApplication {
    UIApplication.shared
}
