// Sharing (pointfreeco/swift-sharing 2.8.2).
// https://github.com/pointfreeco/swift-sharing/blob/2.8.2/Sources/Sharing/SharedContinuations.swift

// SharedContinuations.swift: `public struct LoadContinuation<Value>: Sendable` with
// `resume(returning:)`, `resume(throwing:)`, `resumeReturningInitialValue()`, `resume(with:)`.
public struct LoadContinuation<Value>: Sendable {
    public init(
        _ description: @autoclosure @escaping @Sendable () -> String = "",
        callback: @escaping @Sendable (Result<Value?, any Error>) -> Void
    ) { fatalError() }
    public func resume(returning value: Value) { fatalError() }
    public func resume(throwing error: any Error) { fatalError() }
    public func resumeReturningInitialValue() { fatalError() }
    public func resume(with result: Result<Value?, any Error>) { fatalError() }
}

// SharedContinuations.swift: `public struct SharedSubscriber<Value>: Sendable` with
// `yield(_:)`, `yieldLoading(_:)`, `yieldReturningInitialValue()`, `yield(throwing:)`, `yield(with:)`.
public struct SharedSubscriber<Value>: Sendable {
    public init(
        callback: @escaping @Sendable (Result<Value?, any Error>) -> Void,
        onLoading: (@Sendable (Bool) -> Void)? = nil
    ) { fatalError() }
    public func yield(_ value: Value) { fatalError() }
    public func yieldLoading(_ isLoading: Bool = true) { fatalError() }
    public func yieldReturningInitialValue() { fatalError() }
    public func yield(throwing error: any Error) { fatalError() }
    public func yield(with result: Result<Value?, any Error>) { fatalError() }
}

// SharedContinuations.swift: `public struct SharedSubscription: Sendable { public init(_ cancel:
// @escaping @Sendable () -> Void); public func cancel() }`.
public struct SharedSubscription: Sendable {
    public init(_ cancel: @escaping @Sendable () -> Void) { fatalError() }
    public func cancel() { fatalError() }
}

// SharedContinuations.swift: `public struct SaveContinuation: Sendable` with `resume()`,
// `resume(throwing:)`, `resume(with:)`.
public struct SaveContinuation: Sendable {
    public init(
        _ description: @autoclosure @escaping @Sendable () -> String = "",
        callback: @escaping @Sendable (Result<Never?, any Error>) -> Void
    ) { fatalError() }
    public func resume() { fatalError() }
    public func resume(throwing error: any Error) { fatalError() }
    public func resume(with result: Result<Void, any Error>) { fatalError() }
}
