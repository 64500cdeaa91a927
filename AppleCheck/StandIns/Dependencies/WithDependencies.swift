// Dependencies (pointfreeco/swift-dependencies 1.17.1).
// https://github.com/pointfreeco/swift-dependencies/blob/1.17.1/Sources/Dependencies/WithDependencies.swift

// WithDependencies.swift: `public func prepareDependencies<R>(_ updateValues: (inout
// DependencyValues) throws -> R) rethrows -> R` (nonisolated, synchronous, @discardableResult).
@discardableResult
public func prepareDependencies<R>(
    _ updateValues: (inout DependencyValues) throws -> R
) rethrows -> R { fatalError() }

// WithDependencies.swift: `@discardableResult public func withDependencies<R>(_ updateValuesForOperation:
// (inout DependencyValues) throws -> Void, operation: () throws -> R) rethrows -> R`.
@discardableResult
public func withDependencies<R>(
    _ updateValuesForOperation: (inout DependencyValues) throws -> Void,
    operation: () throws -> R
) rethrows -> R { fatalError() }
