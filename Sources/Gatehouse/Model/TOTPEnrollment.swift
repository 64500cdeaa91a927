public import Foundation

/// A factor just enrolled: what an authenticator app needs to add it. Show the QR code (or the
/// secret, for typing) once, then ask for the app's first code
/// (``MultiFactorAuth/challengeAndVerify(factorID:code:)``); unverified, it lapses after 5
/// minutes.
public struct TOTPEnrollment: Sendable, Hashable {
    /// The new factor's id.
    public var factorID: String
    /// The name given at enrolment.
    public var friendlyName: String
    /// The shared secret in base32, for typing into an app. Never log it.
    public var secret: String
    /// The `otpauth://totp/…` URI the QR code holds. Never log it.
    public var uri: String
    /// An SVG document of the QR code of ``uri``.
    public var qrCodeSVG: String

    /// Creates a value.
    public init(factorID: String, friendlyName: String, secret: String, uri: String, qrCodeSVG: String) {
        self.factorID = factorID
        self.friendlyName = friendlyName
        self.secret = secret
        self.uri = uri
        self.qrCodeSVG = qrCodeSVG
    }

    /// Creates a value from the wire representation.
    public init(wire: WireFactorEnrollment) {
        self.init(
            factorID: wire.id,
            friendlyName: wire.friendlyName,
            secret: wire.totp.secret,
            uri: wire.totp.uri,
            qrCodeSVG: wire.totp.qrCode
        )
    }
}

/// A challenge of a factor: the code that answers it must come within its lifetime.
public struct FactorChallenge: Sendable, Hashable {
    /// The challenge's id, for ``MultiFactorAuth/verify(factorID:challengeID:code:)``.
    public var id: String
    /// The factor it challenges.
    public var factorID: String
    /// When it stops accepting codes (5 minutes after it was made).
    public var expiresAt: Date

    /// Creates a value.
    public init(id: String, factorID: String, expiresAt: Date) {
        self.id = id
        self.factorID = factorID
        self.expiresAt = expiresAt
    }
}
