// Dependencies (pointfreeco/swift-dependencies 1.17.1).
// https://github.com/pointfreeco/swift-dependencies/blob/1.17.1/Sources/Dependencies/Dependency.swift

// Dependency.swift: `@propertyWrapper public struct Dependency<Value>: _HasInitialValues` with
// `public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable, fileID:filePath:line:column:)`
// and `public var wrappedValue: Value { get }`; `extension Dependency: Sendable where Value: Sendable`.
@propertyWrapper
public struct Dependency<Value> {
    public init(
        _ keyPath: any KeyPath<DependencyValues, Value> & Sendable,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) { fatalError() }

    public var wrappedValue: Value { fatalError() }
}

extension Dependency: Sendable where Value: Sendable {}
