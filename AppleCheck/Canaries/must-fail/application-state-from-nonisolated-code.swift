// platforms: iOS
// expect: main actor-isolated property 'applicationState' can not be referenced from a nonisolated context
// why: applicationState is "@MainActor var applicationState" (UIApplication is NS_SWIFT_UI_ACTOR);
// beginBackgroundTask and endBackgroundTask are nonisolated, so only the state needs the main actor.
import UIKit

func state(_ application: UIApplication) -> UIApplication.State {
    _ = application.beginBackgroundTask(withName: "refresh")
    return application.applicationState
}
