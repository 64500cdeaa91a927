import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import JWTKit

/// One of Apple's server-to-server notifications (`POST /apple/notifications`), verified: a JWT
/// signed by Apple (its published keys, as ID tokens), issued by `https://appleid.apple.com`
/// for one of the server's Apple client ids, issued at most ``maximumAge`` ago and not in the
/// future. Its `events` claim (a JSON string) names what happened to which Apple account.
struct AppleNotification: Sendable, Equatable {
    /// What happened.
    enum Kind: String, Sendable {
        /// The user turned e-mail forwarding to their private relay address off.
        case emailDisabled = "email-disabled"
        /// The user turned e-mail forwarding to their private relay address on again.
        case emailEnabled = "email-enabled"
        /// The user stopped using Sign in with Apple with the app.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple account.
        case accountDelete = "account-delete"
    }

    /// How old a notification may be: Apple sends them as events happen.
    static let maximumAge: TimeInterval = 3600

    var kind: Kind
    /// The Apple account (`sub` of its ID tokens).
    var subject: String
    /// When the event happened at Apple (seconds), if it says.
    var eventTime: Double?
    /// What names this notification among replays: the SHA-256 (hex) of its `jti`, or of the
    /// whole payload when it has none.
    var replayID: String
    /// Until when a replay could still be accepted (its `exp`, or its `iat` plus
    /// ``maximumAge``, whichever is later, plus the leeway): how long ``replayID`` is kept.
    var acceptedUntil: Date

    /// The domain of Apple's private relay addresses, which forward only while the Apple account lives.
    static let privateRelayDomain = "privaterelay.appleid.com"

    /// The namespace of notification ids among the used nonces (``StorageTransaction/consumeNonce(provider:hash:expiresAt:now:)``).
    static let replayScope = AuthProvider(rawValue: "\(IdentityProvider.apple.rawValue)-notification")

    /// Verifies `payload` with `keys` against `settings`.
    static func verify(
        _ payload: String,
        keys: ProviderKeySet,
        clientIDs: [String],
        leeway: TimeInterval,
        now: Date
    ) async throws -> AppleNotification {
        let header: [String: Any]
        do {
            header = try IDTokenVerifier.header(of: payload)
        } catch {
            throw invalid("The notification's payload is not a signed JWT.")
        }
        guard let kid = header["kid"] as? String, let alg = header["alg"] as? String else {
            throw invalid("The notification's payload names no key (kid) or algorithm (alg).")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(payload, as: Claims.self, kid: kid, alg: alg, now: now)
        } catch ProviderKeySet.Failure.unavailable {
            throw APIError(
                .serviceUnavailable,
                .providerUnavailable,
                "Apple's signing keys could not be fetched. Try again in a minute.",
                retryAfter: 60
            )
        } catch {
            throw invalid("The notification is not signed by Apple.")
        }
        guard claims.issuer.map({ IdentityProvider.apple.issuers.contains($0) }) == true else {
            throw invalid("The notification was not issued by Apple (iss).")
        }
        let audiences = claims.audience?.value ?? []
        guard !audiences.isEmpty, audiences.allSatisfy(clientIDs.contains) else {
            throw invalid("The notification is for another app (aud is not one of this server's client ids).")
        }
        let seconds = now.timeIntervalSince1970
        guard let issuedAt = claims.issuedAt else { throw invalid("The notification has no issue time (iat).") }
        guard issuedAt <= seconds + leeway else { throw invalid("The notification was issued in the future (iat).") }
        guard issuedAt >= seconds - maximumAge else { throw invalid("The notification is too old (iat).") }
        guard let events = claims.events?.event else { throw invalid("The notification has no readable events.") }
        guard let kind = Kind(rawValue: events.type) else {
            throw invalid("The notification's event type is not one Apple sends.")
        }
        guard !events.sub.isEmpty, events.sub.utf8.count <= 255 else {
            throw invalid("The notification names no Apple account (sub).")
        }
        let acceptedUntil = max(claims.expiresAt ?? issuedAt, issuedAt + maximumAge) + leeway
        return AppleNotification(
            kind: kind,
            subject: events.sub,
            eventTime: events.eventTime?.seconds,
            replayID: Hex.sha256(claims.id.map { "jti|\($0)" } ?? "payload|\(payload)"),
            acceptedUntil: Date(timeIntervalSince1970: acceptedUntil)
        )
    }

    private static func invalid(_ message: String) -> APIError {
        APIError(.badRequest, .notificationInvalid, message)
    }

    /// The notification's claims; `events` is a JSON string (Apple's form) or an object.
    struct Claims: JWTPayload {
        var issuer: String?
        var audience: AudienceClaim?
        var issuedAt: Double?
        var expiresAt: Double?
        var id: String?
        var events: Events?

        enum CodingKeys: String, CodingKey {
            case issuer = "iss"
            case audience = "aud"
            case issuedAt = "iat"
            case expiresAt = "exp"
            case id = "jti"
            case events
        }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The `events` claim, decoded from its string form when it is one; `nil` when unreadable.
    struct Events: Codable, Sendable {
        var event: Event?

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                event = try? JSONDecoder().decode(Event.self, from: Data(text.utf8))
            } else {
                event = try? container.decode(Event.self)
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(event)
        }
    }

    /// One event.
    struct Event: Codable, Sendable {
        var type: String
        var sub: String
        /// Milliseconds (Apple's examples) or seconds since 1970, a number or a string.
        var eventTime: EventTime?

        enum CodingKeys: String, CodingKey {
            case type, sub
            case eventTime = "event_time"
        }
    }

    /// Apple's `event_time`: a number or numeric string; values past the year 5000 in seconds
    /// are taken as milliseconds.
    struct EventTime: Codable, Sendable {
        var seconds: Double

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let raw: Double
            if let number = try? container.decode(Double.self) {
                raw = number
            } else {
                raw = Double(try container.decode(String.self)) ?? 0
            }
            seconds = raw > 100_000_000_000 ? raw / 1000 : raw
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(seconds)
        }
    }
}
