// PersonNameComponents: Foundation/NSPersonNameComponents.h and the overlay's struct;
// https://developer.apple.com/documentation/foundation/personnamecomponents (Sendable as
// swift-corelibs-foundation Sources/Foundation/PersonNameComponents.swift declares it, mirroring the
// overlay). The memberwise initialiser is iOS 15/macOS 12 (below the deployment targets).

// Foundation.swiftinterface
public struct PersonNameComponents: Hashable, Equatable, Sendable {
    public init() { fatalError() }
    public init(
        namePrefix: String? = nil,
        givenName: String? = nil,
        middleName: String? = nil,
        familyName: String? = nil,
        nameSuffix: String? = nil,
        nickname: String? = nil,
        phoneticRepresentation: PersonNameComponents? = nil
    ) { fatalError() }
    public var namePrefix: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var givenName: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var middleName: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var familyName: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var nameSuffix: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var nickname: String? {
        get { fatalError() }
        set { fatalError() }
    }
    public var phoneticRepresentation: PersonNameComponents? {
        get { fatalError() }
        set { fatalError() }
    }
}

// Foundation.swiftinterface
extension PersonNameComponents: Codable {
    public init(from decoder: any Decoder) throws { fatalError() }
    public func encode(to encoder: any Encoder) throws { fatalError() }
}
