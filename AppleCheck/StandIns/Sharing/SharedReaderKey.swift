// Sharing (pointfreeco/swift-sharing 2.8.2), the part GatehouseSharing and the sample app use.
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedReaderKey.swift

// SharedReaderKey.swift: `public protocol SharedReaderKey<Value>: Sendable { associatedtype
// Value: Sendable; associatedtype ID: Hashable = Self; var id: ID { get }; func load(context:
// LoadContext<Value>, continuation: LoadContinuation<Value>); func subscribe(context:
// LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription }` (nonisolated).
public protocol SharedReaderKey<Value>: Sendable {
    associatedtype Value: Sendable
    // The original's default, `= Self`, is left out: Swift 6.3 warns that `Self` need not be
    // Hashable, and every key checked here declares its own ID.
    associatedtype ID: Hashable
    var id: ID { get }
    func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)
    func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>) -> SharedSubscription
}

// SharedReaderKey.swift: `public enum LoadContext<Value> { case initialValue(Value); case
// userInitiated; public var initialValue: Value? }`, Sendable where Value: Sendable.
public enum LoadContext<Value> {
    case initialValue(Value)
    case userInitiated
    public var initialValue: Value? { fatalError() }
}

extension LoadContext: Sendable where Value: Sendable {}
