// The SwiftUI the SDK uses, transcribed from https://developer.apple.com/documentation/swiftui (2026)
// and the SwiftUI.swiftinterface shapes of the iOS 18 / 26 SDKs: View is `@MainActor @preconcurrency`,
// its modifiers and the built-in views' initialisers are `nonisolated`, Button actions are
// `@MainActor`, `.task`'s action is `sending @isolated(any)` and inherits the caller's actor.
// The 2026 documentation spells the builder parameters `@ContentBuilder` (newer SDKs); they are
// `@ViewBuilder` here, as in the SDKs the package targets. Every view type is iOS 13/macOS 10.15/
// tvOS 13/watchOS 6 unless marked; later introductions above the deployment targets are kept.
// SwiftUI is the stand-in most simplified: only the generic shapes the SDK's views need are
// declared (README, "what this check does not prove").
@_exported import Foundation
// `import SwiftUI` makes Observation's `@Observable` available as on Apple platforms.
@_exported import Observation

// NOT VERIFIED against SwiftUI.swiftinterface: that `import SwiftUI` also brings UIKit (AppKit on
// macOS) into scope is assumed from common practice (`UIApplication.shared` in SwiftUI-only files).
#if canImport(UIKit) && !os(watchOS)
@_exported import UIKit
#elseif canImport(AppKit)
@_exported import AppKit
#endif

// MARK: - View and its builder

// https://developer.apple.com/documentation/swiftui/view: "@MainActor @preconcurrency protocol View"
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// SwiftUI.swiftinterface: extension Never : View
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> {
        fatalError()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/emptyview
@frozen
public struct EmptyView: View {
    nonisolated public init() {}
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/tupleview
@frozen
public struct TupleView<T>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// SwiftUI.swiftinterface: _ConditionalContent, what `if`/`else` and `switch` build
@frozen
public struct _ConditionalContent<TrueContent, FalseContent>: View where TrueContent: View, FalseContent: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// SwiftUI.swiftinterface: extension Optional : View where Wrapped : View
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

// MARK: - State and Binding

// https://developer.apple.com/documentation/swiftui/state
@frozen @propertyWrapper
public struct State<Value>: DynamicProperty {
    public init(wrappedValue value: Value) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/binding
@frozen @propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) { fatalError() }
    public var wrappedValue: Value {
        get { fatalError() }
        nonmutating set { fatalError() }
    }
    public var projectedValue: Binding<Value> { fatalError() }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        fatalError()
    }
}
extension Binding: @unchecked Sendable where Value: Sendable {}

// MARK: - Values

// https://developer.apple.com/documentation/swiftui/localizedstringkey
@frozen
public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation, Sendable {
    public init(_ value: String) { fatalError() }
    public init(stringLiteral value: String) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/font
@frozen
public struct Font: Hashable, Sendable {
    public static let headline = Font()
    public static let footnote = Font()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/visibility
@frozen
public enum Visibility: Hashable, CaseIterable, Sendable {
    case automatic
    case visible
    case hidden
}

// https://developer.apple.com/documentation/swiftui/buttonrole (iOS 15)
public struct ButtonRole: Equatable, Sendable {
    public static let destructive = ButtonRole()
    public static let cancel = ButtonRole()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/horizontalalignment
@frozen
public struct HorizontalAlignment: Equatable, Sendable {
    public static let center = HorizontalAlignment()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/edge
@frozen
public enum Edge: Int8, CaseIterable, Sendable {
    case top, leading, bottom, trailing
    @frozen
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let all = Set(rawValue: 15)
    }
}

// MARK: - Views

// https://developer.apple.com/documentation/swiftui/text
@frozen
public struct Text: Equatable, Sendable, View {
    nonisolated public init<S: StringProtocol>(_ content: S) { fatalError() }
    nonisolated public init(verbatim content: String) { fatalError() }
    nonisolated public init(
        _ key: LocalizedStringKey,
        tableName: String? = nil,
        bundle: Bundle? = nil,
        comment: StaticString? = nil
    ) {
        fatalError()
    }
    nonisolated public func font(_ font: Font?) -> Text { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
    nonisolated public static func == (lhs: Text, rhs: Text) -> Bool { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/image
@frozen
public struct Image: Equatable, Sendable, View {
    nonisolated public init(systemName: String) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
    nonisolated public static func == (lhs: Image, rhs: Image) -> Bool { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/label
public struct Label<Title: View, Icon: View>: View {
    nonisolated public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension Label where Title == Text, Icon == Image {
    nonisolated public init<S: StringProtocol>(_ title: S, systemImage name: String) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/labeledcontent (iOS 16, macOS 13)
public struct LabeledContent<Label, Content> {}
extension LabeledContent: View where Label: View, Content: View {
    nonisolated public init(@ViewBuilder content: () -> Content, @ViewBuilder label: () -> Label) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/group
@frozen
public struct Group<Content> {}
extension Group: View where Content: View {
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/vstack
@frozen
public struct VStack<Content: View>: View {
    nonisolated public init(
        alignment: HorizontalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        fatalError()
    }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/progressview
public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    nonisolated public init() { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/foreach
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}
extension ForEach: View where Content: View {
    nonisolated public init(
        _ data: Data,
        id: KeyPath<Data.Element, ID>,
        @ViewBuilder content: @escaping (Data.Element) -> Content
    ) {
        fatalError()
    }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/button: the action is `@MainActor`.
public struct Button<Label: View>: View {
    nonisolated public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension Button where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) { fatalError() }
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) { fatalError() }
    nonisolated public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void)
    {
        fatalError()
    }
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {
        fatalError()
    }
}

// MARK: - Modifiers (View extension methods, `nonisolated`)

extension View {
    // https://developer.apple.com/documentation/swiftui/view/font(_:)
    nonisolated public func font(_ font: Font?) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/padding(_:_:)
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/environment(_:) (iOS 17, macOS 14,
    // tvOS 17, watchOS 10, visionOS 1): an Observable object put in the environment.
    nonisolated public func environment<T: AnyObject & Observable>(_ object: T?) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:):
    // "nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file:
    // String = #fileID, line: Int = #line, _ action: sending @escaping @isolated(any) () async ->
    // Void) -> some View"; the action inherits the caller's actor (`@_inheritActorContext`, an
    // attribute the documentation does not print).
    nonisolated public func task(
        name: String? = nil,
        priority: TaskPriority = .userInitiated,
        file: String = #fileID,
        line: Int = #line,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/confirmationdialog(_:ispresented:titlevisibility:actions:message:)
    // (the StringProtocol title overload; iOS 15, macOS 12)
    nonisolated public func confirmationDialog<S: StringProtocol, A: View, M: View>(
        _ title: S,
        isPresented: Binding<Bool>,
        titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View { EmptyView() }
}

// MARK: - Previews

// DeveloperToolsSupport (re-exported by SwiftUI): https://developer.apple.com/documentation/swiftui/preview(_:body:)
// "@freestanding(declaration) macro Preview(_ name: String? = nil, body: @escaping @MainActor () -> any View)".
// Apple's implementation ships with Xcode; AppleCheck/Plugins/PreviewsMacros stands in for it and
// expands the body into a function, so that it is type checked (README, compromises).
@freestanding(declaration)
public macro Preview(_ name: String? = nil, @ViewBuilder body: @escaping @MainActor () -> any View) =
    #externalMacro(module: "PreviewsMacros", type: "SwiftUIView")

// MARK: - App and Scene (the entry point of an app module: the sample app)

// https://developer.apple.com/documentation/swiftui/app: "@MainActor @preconcurrency protocol App"
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

// https://developer.apple.com/documentation/swiftui/app/main()
extension App {
    @MainActor @preconcurrency public static func main() { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/scene: "@MainActor @preconcurrency protocol Scene"
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// SwiftUI.swiftinterface: extension Never : Scene
extension Never: Scene {}

// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    public static func buildExpression<Content: Scene>(_ content: Content) -> Content { content }
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

// https://developer.apple.com/documentation/swiftui/windowgroup
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}
