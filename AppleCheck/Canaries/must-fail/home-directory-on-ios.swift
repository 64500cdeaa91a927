// platforms: iOS
// expect: 'homeDirectoryForCurrentUser' is unavailable in iOS
// why: FileManager.homeDirectoryForCurrentUser exists on macOS only.
import Foundation

func home() -> URL {
    FileManager.default.homeDirectoryForCurrentUser
}
