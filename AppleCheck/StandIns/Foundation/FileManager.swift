// FileManager and its attribute vocabulary: Foundation/NSFileManager.h and
// Foundation/NSPathUtilities.h (Objective-C classes; Swift overlay in Foundation.swiftinterface);
// https://developer.apple.com/documentation/foundation/filemanager.
// Sendable: NSFileManager is NS_SWIFT_SENDABLE in the iOS 17+ SDKs (FileManager's documentation
// lists Sendable among its conformances) — recalled, not re-read from the header here.

// Foundation/NSFileManager.h
open class FileManager: NSObject, @unchecked Sendable {
    open class var `default`: FileManager { fatalError() }
    public override init() { fatalError() }

    open func fileExists(atPath path: String) -> Bool { fatalError() }
    open func fileExists(atPath path: String, isDirectory: UnsafeMutablePointer<ObjCBool>?) -> Bool { fatalError() }
    open func urls(
        for directory: FileManager.SearchPathDirectory,
        in domainMask: FileManager.SearchPathDomainMask
    ) -> [URL] {
        fatalError()
    }
    open func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws { fatalError() }

    // Foundation/NSFileManager.h: API_AVAILABLE(macos(10.12)) API_UNAVAILABLE(ios, watchos, tvos);
    // https://developer.apple.com/documentation/foundation/filemanager/homedirectoryforcurrentuser
    // lists macOS 10.12 only (no Mac Catalyst, which inherits iOS's `unavailable`, no visionOS).
    @available(macOS 10.12, *)
    @available(iOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @available(visionOS, unavailable)
    open var homeDirectoryForCurrentUser: URL { fatalError() }
}

// Foundation/NSPathUtilities.h: NSSearchPathDirectory and NSSearchPathDomainMask (NS_ENUM and
// NS_OPTIONS: not frozen), imported as FileManager.SearchPathDirectory/SearchPathDomainMask.
extension FileManager {
    public enum SearchPathDirectory: UInt, @unchecked Sendable {
        case applicationDirectory = 1
        case demoApplicationDirectory = 2
        case developerApplicationDirectory = 3
        case adminApplicationDirectory = 4
        case libraryDirectory = 5
        case developerDirectory = 6
        case userDirectory = 7
        case documentationDirectory = 8
        case documentDirectory = 9
        case coreServiceDirectory = 10
        case autosavedInformationDirectory = 11
        case desktopDirectory = 12
        case cachesDirectory = 13
        case applicationSupportDirectory = 14
        case downloadsDirectory = 15
        case inputMethodsDirectory = 16
        case moviesDirectory = 17
        case musicDirectory = 18
        case picturesDirectory = 19
        case printerDescriptionDirectory = 20
        case sharedPublicDirectory = 21
        case preferencePanesDirectory = 22
        case applicationScriptsDirectory = 23
        case itemReplacementDirectory = 99
        case allApplicationsDirectory = 100
        case allLibrariesDirectory = 101
        case trashDirectory = 102
    }

    public struct SearchPathDomainMask: OptionSet, @unchecked Sendable {
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public let rawValue: UInt
        public static var userDomainMask: SearchPathDomainMask { fatalError() }
        public static var localDomainMask: SearchPathDomainMask { fatalError() }
        public static var networkDomainMask: SearchPathDomainMask { fatalError() }
        public static var systemDomainMask: SearchPathDomainMask { fatalError() }
        public static var allDomainsMask: SearchPathDomainMask { fatalError() }
    }
}

// Foundation/NSFileManager.h: NSFileAttributeKey, NS_TYPED_EXTENSIBLE_ENUM over NSString.
public struct FileAttributeKey: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public init(_ rawValue: String) { fatalError() }
    public init(rawValue: String) { fatalError() }
    public var rawValue: String { fatalError() }
    // NSFileManager.h: FOUNDATION_EXPORT NSFileAttributeKey const NSFileProtectionKey API_AVAILABLE(macos(10.15), ios(4.0), watchos(2.0), tvos(9.0))
    public static var protectionKey: FileAttributeKey { fatalError() }
}

// Foundation/NSFileManager.h: NSFileProtectionType, NS_TYPED_ENUM over NSString.
public struct FileProtectionType: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
    public init(rawValue: String) { fatalError() }
    public var rawValue: String { fatalError() }
    public static var none: FileProtectionType { fatalError() }
    public static var complete: FileProtectionType { fatalError() }
    public static var completeUnlessOpen: FileProtectionType { fatalError() }
    public static var completeUntilFirstUserAuthentication: FileProtectionType { fatalError() }
}

// Foundation/NSPathUtilities.h
public func NSHomeDirectory() -> String { fatalError() }
public func NSTemporaryDirectory() -> String { fatalError() }
