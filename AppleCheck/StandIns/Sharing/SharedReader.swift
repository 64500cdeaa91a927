// Sharing (pointfreeco/swift-sharing 2.8.2).
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedReader.swift
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedReaderKey.swift (its initialisers)
public import Observation
#if canImport(SwiftUI)
public import SwiftUI
#endif

// SharedReader.swift: `@dynamicMemberLookup @propertyWrapper public struct SharedReader<Value>`
// with `public var wrappedValue: Value { get }` and `public var projectedValue: Self`.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
    // Shared.swift/SharedReader.swift: `let box: Box` (internal storage: a reference).
    private let box: any AnyObject & Sendable

    public var wrappedValue: Value { fatalError() }

    public var projectedValue: Self {
        get { fatalError() }
        nonmutating set { fatalError() }
    }

    // SharedReader.swift: `public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member>`.
    public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
        fatalError()
    }
}

// SharedReaderKey.swift: `extension SharedReader { public init(wrappedValue: @autoclosure () ->
// Value, _ key: some SharedReaderKey<Value>); public init<K: SharedReaderKey<Value>>(_ key: K.Default) }`.
extension SharedReader {
    public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>) { fatalError() }
    public init<K: SharedReaderKey<Value>>(_ key: K.Default) { fatalError() }
}

// SharedReader.swift: `extension SharedReader: Observable {}`; `#if compiler(>=6) extension SharedReader: Sendable {}`.
extension SharedReader: Observable {}
extension SharedReader: Sendable {}

#if canImport(SwiftUI)
extension SharedReader: DynamicProperty {
    public func update() { fatalError() }
}
#endif
