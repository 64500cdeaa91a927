import Foundation
public import Gatehouse

#if canImport(CryptoKit)
import CryptoKit
#else
import Crypto
#endif

/// A software passkey authenticator for tests and previews: ES256 (P-256) keys in memory,
/// discoverable credentials, user presence and verification given (unless told otherwise),
/// attestation `none`, as Apple's and Google's synced passkeys answer. `InMemoryAuthBackend`
/// and a Gatehouse server verify what it signs.
///
/// ```swift
/// let authenticator = SoftwarePasskeyAuthenticator()
/// let request = try await auth.passkeys.registrationRequest()
/// try await auth.passkeys.register(try authenticator.register(request), for: request)
/// let signIn = try await auth.passkeys.signInRequest()
/// try await auth.passkeys.signIn(try authenticator.signIn(signIn), for: signIn)
/// ```
public final class SoftwarePasskeyAuthenticator: @unchecked Sendable {
    /// One stored passkey.
    struct Credential {
        let id: Data
        let relyingPartyID: String
        let userHandle: Data
        let key: P256.Signing.PrivateKey
        var counter: UInt32
    }

    private let lock = NSLock()
    private var credentials: [Credential] = []
    private let origin: String?
    private let countsSignatures: Bool
    private let verifiesUser: Bool

    /// Creates an authenticator.
    ///
    /// - Parameters:
    ///   - origin: The origin put in client data; `nil`: `https://<rp id>`, what Apple's
    ///     platform authenticator reports for an app with the associated domain.
    ///   - countsSignatures: Whether the signature counter grows (a security key) or stays 0
    ///     (a synced passkey, the default).
    ///   - verifiesUser: Whether it reports user verification (Face ID, a PIN); `false` plays a
    ///     device without it, which servers refuse.
    public init(origin: String? = nil, countsSignatures: Bool = false, verifiesUser: Bool = true) {
        self.origin = origin
        self.countsSignatures = countsSignatures
        self.verifiesUser = verifiesUser
    }

    /// How many passkeys it holds.
    public var count: Int { lock.withLock { credentials.count } }

    /// A copy holding the same passkeys, keys and counters, as a cloned authenticator would:
    /// once the original signs, the copy's counter lags behind and a server refuses it.
    public func clone() -> SoftwarePasskeyAuthenticator {
        let copy = SoftwarePasskeyAuthenticator(
            origin: origin,
            countsSignatures: countsSignatures,
            verifiesUser: verifiesUser
        )
        let held = lock.withLock { credentials }
        copy.lock.withLock { copy.credentials = held }
        return copy
    }

    /// The flags byte: UP, BE and BS always, UV when it verifies users, and `extra`.
    private func flags(_ extra: UInt8) -> UInt8 { 0x19 | (verifiesUser ? 0x04 : 0) | extra }

    /// Creates a passkey for the request's RP and user.
    public func register(_ request: PasskeyRegistrationRequest) throws -> PasskeyRegistrationCredential {
        let key = P256.Signing.PrivateKey()
        let id = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let clientData = Self.clientData(
            type: PasskeyClientData.creation,
            challenge: request.challenge,
            origin: origin ?? "https://\(request.relyingPartyID)"
        )
        let point = key.publicKey.x963Representation
        let cose = CBORWriter.encode(
            .map([
                (.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
                (.integer(-2), .bytes(point.subdata(in: 1..<33))), (.integer(-3), .bytes(point.subdata(in: 33..<65))),
            ])
        )
        var authenticatorData = Self.prefix(rpID: request.relyingPartyID, flags: flags(0x40), counter: 0)
        authenticatorData.append(Data(count: 16))
        authenticatorData.append(contentsOf: [UInt8(id.count >> 8), UInt8(id.count & 0xFF)])
        authenticatorData.append(id)
        authenticatorData.append(cose)
        let attestation = CBORWriter.encode(
            .map([
                (.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                (.text("authData"), .bytes(authenticatorData)),
            ])
        )
        lock.withLock {
            credentials.append(
                Credential(
                    id: id,
                    relyingPartyID: request.relyingPartyID,
                    userHandle: request.userID,
                    key: key,
                    counter: 0
                )
            )
        }
        return PasskeyRegistrationCredential(
            credentialID: id,
            clientDataJSON: clientData,
            attestationObject: attestation,
            transports: ["internal", "hybrid"]
        )
    }

    /// Signs in with the newest passkey for the request's RP.
    ///
    /// - Throws: `AuthError` `not_found` when it holds none for that RP.
    public func signIn(_ request: PasskeyAssertionRequest) throws -> PasskeyAssertionCredential {
        let credential: Credential? = lock.withLock {
            guard let index = credentials.lastIndex(where: { $0.relyingPartyID == request.relyingPartyID }) else {
                return nil
            }
            if countsSignatures { credentials[index].counter += 1 }
            return credentials[index]
        }
        guard let credential else {
            throw AuthError(
                code: .notFound,
                message: "This authenticator has no passkey for \(request.relyingPartyID)."
            )
        }
        let clientData = Self.clientData(
            type: PasskeyClientData.assertion,
            challenge: request.challenge,
            origin: origin ?? "https://\(request.relyingPartyID)"
        )
        let authenticatorData = Self.prefix(rpID: request.relyingPartyID, flags: flags(0), counter: credential.counter)
        let signature = try credential.key.signature(for: authenticatorData + Data(SHA256.hash(data: clientData)))
        return PasskeyAssertionCredential(
            credentialID: credential.id,
            clientDataJSON: clientData,
            authenticatorData: authenticatorData,
            signature: signature.derRepresentation,
            userHandle: credential.userHandle
        )
    }

    /// The RP id hash, flags and counter that start authenticator data.
    private static func prefix(rpID: String, flags: UInt8, counter: UInt32) -> Data {
        var data = Data(SHA256.hash(data: Data(rpID.utf8)))
        data.append(flags)
        data.append(contentsOf: [
            UInt8(counter >> 24), UInt8((counter >> 16) & 0xFF), UInt8((counter >> 8) & 0xFF), UInt8(counter & 0xFF),
        ])
        return data
    }

    private static func clientData(type: String, challenge: Data, origin: String) -> Data {
        PasskeyClientData(type: type, challenge: challenge, origin: origin).jsonData
    }
}
