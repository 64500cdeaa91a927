// Sharing (pointfreeco/swift-sharing 2.8.2).
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/Shared.swift
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedKey.swift (its initialisers)
public import Observation
#if canImport(SwiftUI)
public import SwiftUI
#endif

// Shared.swift: `@dynamicMemberLookup @propertyWrapper public struct Shared<Value>` (not isolated);
// `public var wrappedValue: Value` (get, and a deprecated nonmutating set), `public var
// projectedValue: Self`, `public func withLock<R>(_ operation: (inout Value) throws -> R,
// fileID:filePath:line:column:) rethrows -> R`.
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
    // Shared.swift/SharedReader.swift: `let box: Box` (internal storage: a reference).
    private let box: any AnyObject & Sendable

    public var wrappedValue: Value {
        get { fatalError() }
        @available(
            *,
            deprecated,
            message: """
                Use '$shared.withLock' to modify a shared value with exclusive access; when constructing a SwiftUI binding, use 'Binding($shared)'
                """
        )
        nonmutating set { fatalError() }
    }

    public var projectedValue: Self {
        get { fatalError() }
        nonmutating set { fatalError() }
    }

    public func withLock<R>(
        _ operation: (inout Value) throws -> R,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) rethrows -> R { fatalError() }

    // Shared.swift: `public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>`.
    public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member> {
        fatalError()
    }
}

// SharedKey.swift: `extension Shared { public init(wrappedValue: @autoclosure () -> Value, _ key:
// some SharedKey<Value>); public init<K: SharedKey<Value>>(_ key: K.Default) }`.
extension Shared {
    public init(wrappedValue: @autoclosure () -> Value, _ key: some SharedKey<Value>) { fatalError() }
    public init<K: SharedKey<Value>>(_ key: K.Default) { fatalError() }
}

// Shared.swift: `extension Shared: Observable {}`; `#if compiler(>=6) extension Shared: Sendable {}`.
extension Shared: Observable {}
extension Shared: Sendable {}

// Shared.swift: `#if canImport(SwiftUI) extension Shared: DynamicProperty { public func update() } #endif`.
#if canImport(SwiftUI)
extension Shared: DynamicProperty {
    public func update() { fatalError() }
}
#endif
