// platforms: iOS, macOS, tvOS, watchOS, visionOS
// why: the same call kept to macOS; the other platforms use the app's container.
import Foundation

func home() -> URL? {
    #if os(macOS)
    return FileManager.default.homeDirectoryForCurrentUser
    #else
    return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
    #endif
}
