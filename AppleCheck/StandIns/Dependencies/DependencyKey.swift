// Dependencies (pointfreeco/swift-dependencies 1.17.1), the part GatehouseSharing uses.
// https://github.com/pointfreeco/swift-dependencies/blob/1.17.1/Sources/Dependencies/DependencyKey.swift

// DependencyKey.swift: `public protocol TestDependencyKey<Value> { associatedtype Value: Sendable
// = Self; static var previewValue: Value { get }; static var testValue: Value { get } }`.
public protocol TestDependencyKey<Value> {
    associatedtype Value: Sendable = Self
    static var previewValue: Value { get }
    static var testValue: Value { get }
}

// DependencyKey.swift: `public protocol DependencyKey<Value>: TestDependencyKey { static var
// liveValue: Value { get }; associatedtype Value = Self; ... }` (the requirements repeated there
// for a compiler bug).
public protocol DependencyKey<Value>: TestDependencyKey {
    static var liveValue: Value { get }
    associatedtype Value = Self
    static var previewValue: Value { get }
    static var testValue: Value { get }
}

// DependencyKey.swift: `extension DependencyKey { public static var previewValue: Value;
// public static var testValue: Value }` (defaults: the live value, and a reported issue in tests).
extension DependencyKey {
    public static var previewValue: Value { fatalError() }
    public static var testValue: Value { fatalError() }
}

// DependencyKey.swift: `extension TestDependencyKey { public static var previewValue: Value }`.
extension TestDependencyKey {
    public static var previewValue: Value { fatalError() }
}
