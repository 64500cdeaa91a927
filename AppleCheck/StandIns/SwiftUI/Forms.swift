// The containers, controls and modifiers of the sample app's screens (Examples/GatehouseExample),
// transcribed from https://developer.apple.com/documentation/swiftui (2026): the views' initialisers
// and the View modifiers are `nonisolated`, as the documentation prints them. The 2026 pages spell
// the builder parameters `@ContentBuilder` (newer SDKs); they are `@ViewBuilder` here, as in
// SwiftUI.swift. Introductions at or below the deployment targets (NavigationStack: iOS 16,
// macOS 13; Section(_:content:): iOS 15, macOS 12; …) are left out. NOT VERIFIED: the Sendable
// conformance of the small value types VerticalAlignment, Alignment and TextInputAutocapitalization
// (their pages print none; SwiftUI's other value types are Sendable) — it matters to no code here.
// ShapeStyle's `: Sendable` is printed by an SDK 27 reference (onestack.dev/ios-reference/SwiftUICore/ShapeStyle).

// https://developer.apple.com/documentation/swiftui/navigationpath: "struct NavigationPath"
public struct NavigationPath {
    public init() { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/navigationstack: "nonisolated struct
// NavigationStack<Data, Root> where Root : View"; …/init(root:): "nonisolated init(@ContentBuilder
// root: () -> Root) where Data == NavigationPath".
public struct NavigationStack<Data, Root: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension NavigationStack where Data == NavigationPath {
    nonisolated public init(@ViewBuilder root: () -> Root) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/form: "struct Form<Content> where Content : View";
// …/init(content:): "init(@ContentBuilder content: () -> Content)".
public struct Form<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/section: "struct Section<Parent, Content, Footer>",
// a View where its three parts are views; …/init(_:content:) (iOS 15, macOS 12): "init(_ titleKey:
// LocalizedStringKey, @ContentBuilder content: () -> Content)" and its StringProtocol overload
// (where Parent == Text, Footer == EmptyView); …/init(content:): "init(@ContentBuilder content: () ->
// Content)" (where Parent == EmptyView, Footer == EmptyView).
public struct Section<Parent, Content, Footer> {}
extension Section: View where Parent: View, Content: View, Footer: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension Section where Parent == Text, Content: View, Footer == EmptyView {
    nonisolated public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) { fatalError() }
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) { fatalError() }
}
extension Section where Parent == EmptyView, Content: View, Footer == EmptyView {
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/textfield: "struct TextField<Label> where Label :
// View"; …/init(_:text:): "nonisolated init(_ titleKey: LocalizedStringKey, text: Binding<String>)"
// and the StringProtocol overload (where Label == Text).
public struct TextField<Label: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension TextField where Label == Text {
    nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) { fatalError() }
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S, text: Binding<String>) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/verticalalignment
@frozen
public struct VerticalAlignment: Equatable, Sendable {
    public static let center = VerticalAlignment()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/alignment
@frozen
public struct Alignment: Equatable, Sendable {
    public static let center = Alignment()
    private init() {}
}

// https://developer.apple.com/documentation/swiftui/hstack: "@frozen struct HStack<Content> where
// Content : View"; …/init(alignment:spacing:content:): "nonisolated init(alignment: VerticalAlignment =
// .center, spacing: CGFloat? = nil, @ContentBuilder content: () -> Content)".
@frozen
public struct HStack<Content: View>: View {
    nonisolated public init(
        alignment: VerticalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        fatalError()
    }
    public typealias Body = Never
    public var body: Never { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/progressview/init(_:)-…: "init(_ titleKey:
// LocalizedStringKey) where Label == Text, CurrentValueLabel == EmptyView" and its StringProtocol overload.
extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    nonisolated public init(_ titleKey: LocalizedStringKey) { fatalError() }
    @_disfavoredOverload
    nonisolated public init<S: StringProtocol>(_ title: S) { fatalError() }
}

// https://developer.apple.com/documentation/swiftui/shapestyle: "protocol ShapeStyle : Sendable"
public protocol ShapeStyle: Sendable {}

// https://developer.apple.com/documentation/swiftui/color: "@frozen struct Color", a View and a
// ShapeStyle; https://developer.apple.com/documentation/swiftui/shapestyle/red: "static var red: Color
// { get }" on `ShapeStyle where Self == Color`.
@frozen
public struct Color: Hashable, Sendable, ShapeStyle, View {
    public typealias Body = Never
    public var body: Never { fatalError() }
    nonisolated public static func == (lhs: Color, rhs: Color) -> Bool { fatalError() }
    nonisolated public func hash(into hasher: inout Hasher) { fatalError() }
}
extension ShapeStyle where Self == Color {
    public static var red: Color { fatalError() }
}

// TextInputAutocapitalization (iOS 15, Mac Catalyst 15, tvOS 15, visionOS 1, watchOS 8; not macOS):
// https://developer.apple.com/documentation/swiftui/textinputautocapitalization, …/never
// ("static var never: TextInputAutocapitalization { get }").
@available(macOS, unavailable)
public struct TextInputAutocapitalization: Sendable {
    public static var never: TextInputAutocapitalization { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/disabled(_:): "nonisolated func
    // disabled(_ disabled: Bool) -> some View"
    nonisolated public func disabled(_ disabled: Bool) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:):
    // "nonisolated func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment =
    // .center) -> some View"
    nonisolated public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center)
        -> some View
    { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:) (iOS 15, macOS 12):
    // "nonisolated func foregroundStyle<S>(_ style: S) -> some View where S : ShapeStyle"
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:) (the
    // LocalizedStringKey, StringProtocol and Text overloads; iOS 14, macOS 11)
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { EmptyView() }
    @_disfavoredOverload
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { EmptyView() }
    nonisolated public func navigationTitle(_ title: Text) -> some View { EmptyView() }

    // https://developer.apple.com/documentation/swiftui/view/textinputautocapitalization(_:):
    // "nonisolated func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?)
    // -> some View" (iOS 15, Mac Catalyst 15, tvOS 15, visionOS 1, watchOS 8; not macOS)
    @available(macOS, unavailable)
    nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?)
        -> some View
    { EmptyView() }
}

#if canImport(UIKit) && !os(watchOS)
extension View {
    // https://developer.apple.com/documentation/swiftui/view/textcontenttype(_:)-ufdv (iOS 13, Mac
    // Catalyst 13, tvOS 13, visionOS 1): "nonisolated func textContentType(_ textContentType:
    // UITextContentType?) -> some View". macOS has an NSTextContentType overload and watchOS a
    // WKTextContentType one, not declared here (the sample app sets a content type on iOS only).
    nonisolated public func textContentType(_ textContentType: UITextContentType?) -> some View { EmptyView() }
}
#endif

// https://developer.apple.com/documentation/swiftui/tabview: "nonisolated struct TabView<SelectionValue,
// Content> where SelectionValue : Hashable, Content : View"; …/init(content:): "nonisolated
// init(@ContentBuilder content: () -> Content)" (where SelectionValue == Int; iOS 13, macOS 10.15,
// tvOS 13, visionOS 1, watchOS 7).
public struct TabView<SelectionValue: Hashable, Content: View>: View {
    public typealias Body = Never
    public var body: Never { fatalError() }
}
extension TabView where SelectionValue == Int {
    nonisolated public init(@ViewBuilder content: () -> Content) { fatalError() }
}

extension View {
    // https://developer.apple.com/documentation/swiftui/view/tabitem(_:): "nonisolated func
    // tabItem<V>(@ContentBuilder _ label: () -> V) -> some View where V : View"; iOS 13–27, macOS
    // 10.15–27, tvOS 13–27, watchOS 7–27 (deprecated in the 27 SDKs, in favour of `Tab`, iOS 18),
    // visionOS 1 (not deprecated). A deprecation later than the deployment target draws no warning.
    @available(iOS, introduced: 13.0, deprecated: 27.0)
    @available(macCatalyst, introduced: 13.0, deprecated: 27.0)
    @available(macOS, introduced: 10.15, deprecated: 27.0)
    @available(tvOS, introduced: 13.0, deprecated: 27.0)
    @available(watchOS, introduced: 7.0, deprecated: 27.0)
    nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { EmptyView() }
}
