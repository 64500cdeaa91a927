// The CryptoKit API the SDK and its test library use: SHA256, Insecure.SHA1, HMAC, SymmetricKey,
// P256.Signing and Curve25519.Signing. Transcribed from apple/swift-crypto (Sources/Crypto:
// Digests/, Message Authentication Codes/, Keys/, Signatures/ECDSA.swift, Key Agreement/ECDH.swift),
// whose public API is CryptoKit's (its README: "API-compatible with CryptoKit"), with plain `throws`
// where swift-crypto has since moved to `throws(CryptoKitMetaError)`;
// https://developer.apple.com/documentation/cryptokit. Every symbol here is iOS 13/macOS 10.15/
// tvOS 13/watchOS 6 (below the deployment targets). Sendable as swift-crypto declares them; Apple's
// CryptoKit interface was not re-read here for Sendable.
@_exported import Foundation

// Digests/Digest.swift
public protocol Digest: Hashable, Sendable, ContiguousBytes, CustomStringConvertible, Sequence where Element == UInt8 {
    static var byteCount: Int { get }
}

// Digests/HashFunctions.swift
public protocol HashFunction: Sendable {
    static var blockByteCount: Int { get }
    associatedtype Digest: CryptoKit.Digest
    init()
    mutating func update(bufferPointer: UnsafeRawBufferPointer)
    func finalize() -> Self.Digest
}

// Digests/HashFunctions.swift
extension HashFunction {
    public static func hash<D: DataProtocol>(data: D) -> Self.Digest { fatalError() }
    public mutating func update<D: DataProtocol>(data: D) { fatalError() }
}

// Digests/Digests.swift: the digests are structs with a Sequence of their bytes.
public struct SHA256Digest: Digest {
    public static var byteCount: Int { 32 }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError() }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError() }
    public var description: String { fatalError() }
}

// Digests/Digests.swift
public struct Insecure_SHA1Digest: Digest {
    public static var byteCount: Int { 20 }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError() }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError() }
    public var description: String { fatalError() }
}

// Digests/HashFunctions_SHA2.swift
public struct SHA256: HashFunction, Sendable {
    public static var blockByteCount: Int { 64 }
    public typealias Digest = SHA256Digest
    public init() { fatalError() }
    public mutating func update(bufferPointer: UnsafeRawBufferPointer) { fatalError() }
    public func finalize() -> SHA256Digest { fatalError() }
}

// Insecure/Insecure.swift and Insecure/Insecure_HashFunctions.swift
public enum Insecure: Sendable {
    public struct SHA1: HashFunction, Sendable {
        public static var blockByteCount: Int { 64 }
        public typealias Digest = Insecure_SHA1Digest
        public init() { fatalError() }
        public mutating func update(bufferPointer: UnsafeRawBufferPointer) { fatalError() }
        public func finalize() -> Insecure_SHA1Digest { fatalError() }
    }
}

// Keys/Symmetric/SymmetricKeys.swift
public struct SymmetricKey: ContiguousBytes, Sendable {
    public init<D: ContiguousBytes>(data: D) { fatalError() }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError() }
}

// Message Authentication Codes/MessageAuthenticationCode.swift
public protocol MessageAuthenticationCode: Hashable, ContiguousBytes, Sendable, CustomStringConvertible, Sequence
where Element == UInt8 {}

// Message Authentication Codes/HMAC/HMAC.swift
public struct HashedAuthenticationCode<H: HashFunction>: MessageAuthenticationCode, Sendable {
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError() }
    public func makeIterator() -> Array<UInt8>.Iterator { fatalError() }
    public var description: String { fatalError() }
}

// Message Authentication Codes/HMAC/HMAC.swift
public struct HMAC<H: HashFunction>: Sendable {
    public typealias MAC = HashedAuthenticationCode<H>
    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC { fatalError() }
}

// Keys/EC/NISTCurvesKeys.swift
public enum P256: Sendable {}

// Key Agreement/ECDH.swift (keys) and Signatures/ECDSA.swift (signatures)
extension P256 {
    public enum Signing: Sendable {
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation: D) throws { fatalError() }
            public init<Bytes: ContiguousBytes>(x963Representation: Bytes) throws { fatalError() }
            public var rawRepresentation: Data { fatalError() }
            public var x963Representation: Data { fatalError() }
            public func isValidSignature<D: DataProtocol>(_ signature: P256.Signing.ECDSASignature, for data: D) -> Bool
            {
                fatalError()
            }
        }

        public struct PrivateKey: Sendable {
            public init(compactRepresentable: Bool = true) { fatalError() }
            public init<Bytes: ContiguousBytes>(rawRepresentation: Bytes) throws { fatalError() }
            public var publicKey: P256.Signing.PublicKey { fatalError() }
            public var rawRepresentation: Data { fatalError() }
            public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature { fatalError() }
        }

        public struct ECDSASignature: ContiguousBytes, Sendable {
            public var rawRepresentation: Data {
                get { fatalError() }
                set { fatalError() }
            }
            public init<D: DataProtocol>(rawRepresentation: D) throws { fatalError() }
            public init<D: DataProtocol>(derRepresentation: D) throws { fatalError() }
            public var derRepresentation: Data { fatalError() }
            public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { fatalError() }
        }
    }
}

// Keys/EC/Curve25519.swift and Keys/EC/Ed25519Keys.swift
public enum Curve25519: Sendable {
    public enum Signing: Sendable {
        public struct PublicKey: Sendable {
            public init<D: ContiguousBytes>(rawRepresentation: D) throws { fatalError() }
            public var rawRepresentation: Data { fatalError() }
            public func isValidSignature<S: DataProtocol, D: DataProtocol>(_ signature: S, for data: D) -> Bool {
                fatalError()
            }
        }
    }
}
