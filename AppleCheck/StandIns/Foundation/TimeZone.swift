// TimeZone, as the Foundation of Apple's SDKs declares it: swift-foundation
// Sources/FoundationEssentials/TimeZone/TimeZone.swift;
// https://developer.apple.com/documentation/foundation/timezone.

// FoundationEssentials/TimeZone/TimeZone.swift
public struct TimeZone: Hashable, Equatable, Sendable {
    public init?(identifier: __shared String) { fatalError() }
    public init?(secondsFromGMT seconds: Int) { fatalError() }
    public var identifier: String { fatalError() }
}
