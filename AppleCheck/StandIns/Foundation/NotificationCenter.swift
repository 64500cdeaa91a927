// NotificationCenter, Notification and OperationQueue.main: Foundation/NSNotification.h and
// Foundation/NSOperation.h, with Notification from the Swift overlay (Foundation.swiftinterface);
// https://developer.apple.com/documentation/foundation/notificationcenter.
// The block of addObserver(forName:object:queue:using:) is `@escaping @Sendable (Notification) -> Void`
// (https://developer.apple.com/documentation/foundation/notificationcenter/addobserver(forname:object:queue:using:)).
// Sendable: NSNotificationCenter and NSOperationQueue are NS_SWIFT_SENDABLE in the iOS 17+ SDKs
// (swift-corelibs-foundation mirrors them as `@unchecked Sendable`) — recalled, not re-read from
// the header here. Notification is not Sendable (Apple DTS, developer.apple.com/forums/thread/718565:
// "Notification can't be sendable because it has a user info dictionary").

// Foundation/NSNotification.h: NSNotificationName, NS_TYPED_EXTENSIBLE_ENUM, imported as
// NSNotification.Name (Notification.Name in the overlay).
open class NSNotification: NSObject, @unchecked Sendable {
    public struct Name: Hashable, Equatable, RawRepresentable, @unchecked Sendable {
        public init(_ rawValue: String) { fatalError() }
        public init(rawValue: String) { fatalError() }
        public var rawValue: String { fatalError() }
    }
}

// Foundation.swiftinterface: struct Notification (not Sendable: it carries `object: Any?` and
// `userInfo: [AnyHashable: Any]?`).
public struct Notification: Hashable, Equatable {
    public typealias Name = NSNotification.Name
    public var name: Notification.Name {
        get { fatalError() }
        set { fatalError() }
    }
    public var object: Any? {
        get { fatalError() }
        set { fatalError() }
    }
    public var userInfo: [AnyHashable: Any]? {
        get { fatalError() }
        set { fatalError() }
    }
    public init(name: Notification.Name, object: Any? = nil, userInfo: [AnyHashable: Any]? = nil) { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: Notification, rhs: Notification) -> Bool { fatalError() }
}

// Foundation/NSNotification.h
open class NotificationCenter: NSObject, @unchecked Sendable {
    open class var `default`: NotificationCenter { fatalError() }
    open func addObserver(
        forName name: NSNotification.Name?,
        object obj: Any?,
        queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol { fatalError() }
    open func removeObserver(_ observer: Any) { fatalError() }
    open func post(name aName: NSNotification.Name, object anObject: Any?) { fatalError() }
}

// Foundation/NSOperation.h
open class OperationQueue: NSObject, @unchecked Sendable {
    open class var main: OperationQueue { fatalError() }
}
