// Dependencies (pointfreeco/swift-dependencies 1.17.1).
// https://github.com/pointfreeco/swift-dependencies/blob/1.17.1/Sources/Dependencies/DependencyValues.swift

// DependencyValues.swift: `public struct DependencyValues: Sendable` with `public init()` and
// `public subscript<Key: TestDependencyKey>(key: Key.Type, fileID:filePath:line:column:function:)
// -> Key.Value { get set }`.
public struct DependencyValues: Sendable {
    public init() {}

    public subscript<Key: TestDependencyKey>(
        key: Key.Type,
        fileID fileID: StaticString = #fileID,
        filePath filePath: StaticString = #filePath,
        line line: UInt = #line,
        column column: UInt = #column,
        function function: StaticString = #function
    ) -> Key.Value {
        get { fatalError() }
        set { fatalError() }
    }
}
