// Sharing (pointfreeco/swift-sharing 2.8.2).
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedKeys/DefaultKey.swift

// DefaultKey.swift: `extension SharedReaderKey { public typealias Default = _SharedKeyDefault<Self> }`.
extension SharedReaderKey {
    public typealias Default = _SharedKeyDefault<Self>
}

// DefaultKey.swift: `public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey` with
// `public var id: Base.ID`, `public var initialValue: Base.Value`, `public static subscript(_ key:
// Base, default value: @autoclosure @escaping @Sendable () -> Base.Value) -> Self`, and
// `extension _SharedKeyDefault: SharedKey where Base: SharedKey`.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
    public var id: Base.ID { fatalError() }
    public var initialValue: Base.Value { fatalError() }
    public static subscript(
        _ key: Base,
        default value: @autoclosure @escaping @Sendable () -> Base.Value
    ) -> Self { fatalError() }
    public func load(context: LoadContext<Base.Value>, continuation: LoadContinuation<Base.Value>) {
        fatalError()
    }
    public func subscribe(
        context: LoadContext<Base.Value>,
        subscriber: SharedSubscriber<Base.Value>
    ) -> SharedSubscription { fatalError() }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
    public func save(_ value: Base.Value, context: SaveContext, continuation: SaveContinuation) {
        fatalError()
    }
}
