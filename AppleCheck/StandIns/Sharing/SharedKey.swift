// Sharing (pointfreeco/swift-sharing 2.8.2).
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedKey.swift

// SharedKey.swift: `public protocol SharedKey<Value>: SharedReaderKey { func save(_ value: Value,
// context: SaveContext, continuation: SaveContinuation) }`.
public protocol SharedKey<Value>: SharedReaderKey {
    func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

// SharedKey.swift: `public enum SaveContext: Hashable, Sendable { case didSet; case userInitiated }`.
public enum SaveContext: Hashable, Sendable {
    case didSet
    case userInitiated
}
