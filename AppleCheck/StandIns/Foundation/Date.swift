// Date, TimeInterval and Date.ISO8601FormatStyle, as the Foundation of Apple's SDKs declares them:
// swift-foundation Sources/FoundationEssentials/Date.swift and
// Sources/FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift (Foundation on iOS 18,
// macOS 15 and later is built from these); https://developer.apple.com/documentation/foundation/date.
// Introductions at or below the package's deployment targets (iOS 17, macOS 14, tvOS 17,
// watchOS 10, visionOS 1) are left out: they cannot fail.

// FoundationEssentials/Date.swift
public typealias TimeInterval = Double

// FoundationEssentials/Date.swift
public struct Date: Comparable, Hashable, Equatable, Sendable {
    public init() { fatalError() }
    public init(timeIntervalSinceNow: TimeInterval) { fatalError() }
    public init(timeIntervalSince1970: TimeInterval) { fatalError() }
    public func timeIntervalSince(_ date: Date) -> TimeInterval { fatalError() }
    public var timeIntervalSince1970: TimeInterval { fatalError() }
    public func addingTimeInterval(_ timeInterval: TimeInterval) -> Date { fatalError() }
    public mutating func addTimeInterval(_ timeInterval: TimeInterval) { fatalError() }
    public static var distantPast: Date { fatalError() }
    public static var now: Date { fatalError() }
    public static func < (lhs: Date, rhs: Date) -> Bool { fatalError() }
    public static func + (lhs: Date, rhs: TimeInterval) -> Date { fatalError() }
    public static func - (lhs: Date, rhs: TimeInterval) -> Date { fatalError() }
    public static func += (lhs: inout Date, rhs: TimeInterval) { fatalError() }
    public static func -= (lhs: inout Date, rhs: TimeInterval) { fatalError() }
}

// FoundationEssentials/Date.swift
extension Date: CustomDebugStringConvertible, CustomStringConvertible {
    public var description: String { fatalError() }
    public var debugDescription: String { fatalError() }
}

// FoundationEssentials/Date.swift
extension Date: Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
}

// FoundationEssentials/Date.swift (Strideable, `Date ... Date` ranges)
extension Date: Strideable {
    public func distance(to other: Date) -> TimeInterval { fatalError() }
    public func advanced(by n: TimeInterval) -> Date { fatalError() }
}

// FoundationEssentials/Calendar/Date+FormatStyle.swift
extension Date {
    public func formatted<F: FormatStyle>(_ format: F) -> F.FormatOutput where F.FormatInput == Date { fatalError() }
}

// FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift
extension Date {
    public struct ISO8601FormatStyle: Sendable {
        public enum TimeZoneSeparator: String, Codable, Sendable {
            case colon = ":"
            case omitted = ""
        }
        public enum DateSeparator: String, Codable, Sendable {
            case dash = "-"
            case omitted = ""
        }
        public enum TimeSeparator: String, Codable, Sendable {
            case colon = ":"
            case omitted = ""
        }
        public enum DateTimeSeparator: String, Codable, Sendable {
            case space = " "
            case standard = "'T'"
        }
        public var timeZone: TimeZone {
            get { fatalError() }
            set { fatalError() }
        }
        public init(
            dateSeparator: DateSeparator = .dash,
            dateTimeSeparator: DateTimeSeparator = .standard,
            timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
        ) { fatalError() }
        public init(
            dateSeparator: DateSeparator = .dash,
            dateTimeSeparator: DateTimeSeparator = .standard,
            timeSeparator: TimeSeparator = .colon,
            timeZoneSeparator: TimeZoneSeparator = .omitted,
            includingFractionalSeconds: Bool = false,
            timeZone: TimeZone = TimeZone(secondsFromGMT: 0)!
        ) { fatalError() }
    }
}

// FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift
extension Date.ISO8601FormatStyle: Hashable, Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
    public func hash(into hasher: inout Hasher) { fatalError() }
    public static func == (lhs: Self, rhs: Self) -> Bool { fatalError() }
}

// FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift
extension Date.ISO8601FormatStyle: FormatStyle {
    public func format(_ value: Date) -> String { fatalError() }
}

// FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift
extension Date.ISO8601FormatStyle: ParseStrategy {
    public func parse(_ value: String) throws -> Date { fatalError() }
}

// FoundationEssentials/Formatting/Date+ISO8601FormatStyle.swift
extension Date.ISO8601FormatStyle: ParseableFormatStyle {
    public var parseStrategy: Self { fatalError() }
}

// FoundationEssentials/Formatting/FormatStyle.swift
public protocol FormatStyle<FormatInput, FormatOutput>: Codable, Hashable {
    associatedtype FormatInput
    associatedtype FormatOutput
    func format(_ value: FormatInput) -> FormatOutput
}

// FoundationEssentials/Formatting/ParseStrategy.swift
public protocol ParseStrategy: Codable, Hashable {
    associatedtype ParseInput
    associatedtype ParseOutput
    func parse(_ value: ParseInput) throws -> ParseOutput
}

// FoundationEssentials/Formatting/ParseableFormatStyle.swift
public protocol ParseableFormatStyle: FormatStyle {
    associatedtype Strategy: ParseStrategy
    where Strategy.ParseInput == FormatOutput, Strategy.ParseOutput == FormatInput
    var parseStrategy: Strategy { get }
}
