// SwiftUI's environment as the sample app reads it: `@Environment(\.authorizationController)` (a key
// path of EnvironmentValues) and `@Environment(AuthService.self)` (an Observable object).
// https://developer.apple.com/documentation/swiftui/environment and …/environmentvalues (2026).

// https://developer.apple.com/documentation/swiftui/environmentvalues: "struct EnvironmentValues";
// https://developer.apple.com/documentation/swiftui/environmentvalues/init(): "init()".
public struct EnvironmentValues: CustomStringConvertible {
    public init() { fatalError() }
    public var description: String { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/environment: "@frozen @propertyWrapper struct
// Environment<Value>", conforming to DynamicProperty and Sendable (the documentation lists Sendable
// without a condition on Value: declared `@unchecked` here).
@frozen @propertyWrapper
public struct Environment<Value>: DynamicProperty, @unchecked Sendable {
    // https://developer.apple.com/documentation/swiftui/environment/init(_:):
    // "init(_ keyPath: KeyPath<EnvironmentValues, Value>)"
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { fatalError() }
    // https://developer.apple.com/documentation/swiftui/environment/wrappedvalue: "var wrappedValue: Value { get }"
    public var wrappedValue: Value { fatalError() }
}

extension Environment {
    // The non-optional form, `@Environment(Library.self) private var library` in the overview of
    // https://developer.apple.com/documentation/swiftui/environment ("returns a non-optional object
    // when using the object type as the key … SwiftUI throws an exception" when it is missing);
    // iOS 17, macOS 14, tvOS 17, watchOS 10, visionOS 1 like the optional form below. NOT VERIFIED:
    // this overload's own page was not found; its signature is the optional one's with Value == T.
    public init(_ objectType: Value.Type) where Value: AnyObject & Observable { fatalError() }

    // https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf (iOS 17, macOS 14,
    // tvOS 17, watchOS 10, visionOS 1): "init<T>(_ objectType: T.Type) where Value == T?, T :
    // AnyObject, T : Observable" — `nil` when no such object is in the environment.
    public init<T>(_ objectType: T.Type) where Value == T?, T: AnyObject & Observable { fatalError() }
}
