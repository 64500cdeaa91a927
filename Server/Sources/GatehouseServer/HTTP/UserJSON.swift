import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage

/// The JSON of a ``WireUser`` (the body of `GET /user`, the response a signed-in client asks
/// for most) and of the ``WireSession`` that carries one (every grant of `/token`, a refresh
/// above all), written directly: byte for byte what ``JSONBody``'s encoder writes (sorted keys,
/// slashes unescaped, ISO-8601 timestamps with milliseconds), without its per-call setup,
/// boxing of every field and date-formatting callback.
///
/// Written here: keys, booleans, ids, strings of printable ASCII without quotes or
/// backslashes, timestamps from 1970 to 9999, identities, and metadata (by ``JSONBytes``, which
/// spells text as the encoder does and hands it every number). Any other string or timestamp,
/// the factor list and the weak-password note go through the encoder itself, so the output
/// never differs (tested against the encoder).
struct UserJSON {
    let encoder: JSONEncoder
    private var bytes: [UInt8] = []
    private var first = true

    /// `{`, the members `write` adds, `}`.
    private static func object(
        capacity: Int,
        encoder: JSONEncoder,
        _ write: (inout UserJSON) throws -> Void
    ) rethrows -> [UInt8] {
        var json = UserJSON(encoder: encoder)
        json.bytes.reserveCapacity(capacity)
        json.bytes.append(UInt8(ascii: "{"))
        try write(&json)
        json.bytes.append(UInt8(ascii: "}"))
        return json.bytes
    }

    /// The user's JSON, as `encoder` would write it.
    static func encode(_ user: WireUser, encoder: JSONEncoder) throws -> [UInt8] {
        try object(capacity: 640, encoder: encoder) { json in
            try json.object("app_metadata", user.appMetadata)
            json.string("aud", user.aud)
            json.date("banned_until", user.bannedUntil)
            json.date("confirmation_sent_at", user.confirmationSentAt)
            json.date("confirmed_at", user.confirmedAt)
            json.date("created_at", user.createdAt)
            json.date("deleted_at", user.deletedAt)
            json.string("email", user.email)
            json.date("email_change_sent_at", user.emailChangeSentAt)
            json.date("email_confirmed_at", user.emailConfirmedAt)
            if let factors = user.factors, !factors.isEmpty { try json.value("factors", factors) }
            json.key("id")
            json.uuid(user.id)
            if let identities = user.identities {
                json.key("identities")
                json.bytes.append(UInt8(ascii: "["))
                for (index, identity) in identities.enumerated() {
                    if index > 0 { json.bytes.append(UInt8(ascii: ",")) }
                    json.bytes.append(contentsOf: try encode(identity, encoder: encoder))
                }
                json.bytes.append(UInt8(ascii: "]"))
            }
            json.date("invited_at", user.invitedAt)
            json.key("is_anonymous")
            json.bytes.append(contentsOf: (user.isAnonymous ? "true" : "false").utf8)
            json.date("last_sign_in_at", user.lastSignInAt)
            json.string("new_email", user.newEmail)
            json.string("phone", user.phone)
            json.date("phone_confirmed_at", user.phoneConfirmedAt)
            json.date("reauthentication_sent_at", user.reauthenticationSentAt)
            json.date("recovery_sent_at", user.recoverySentAt)
            json.string("role", user.role)
            json.date("updated_at", user.updatedAt)
            try json.object("user_metadata", user.userMetadata)
        }
    }

    /// The session's JSON, as `encoder` would write it.
    static func encode(_ session: WireSession, encoder: JSONEncoder) throws -> [UInt8] {
        try object(capacity: 1_280, encoder: encoder) { json in
            json.string("access_token", session.accessToken)
            json.integer("expires_at", session.expiresAt)
            json.integer("expires_in", session.expiresIn)
            if let token = session.providerRefreshToken { json.string("provider_refresh_token", token) }
            if let token = session.providerToken { json.string("provider_token", token) }
            json.string("refresh_token", session.refreshToken)
            json.string("token_type", session.tokenType)
            json.key("user")
            json.bytes.append(contentsOf: try encode(session.user, encoder: encoder))
            if let weakPassword = session.weakPassword { try json.value("weak_password", weakPassword) }
        }
    }

    /// An identity's JSON, as `encoder` would write it.
    static func encode(_ identity: WireIdentity, encoder: JSONEncoder) throws -> [UInt8] {
        try object(capacity: 384, encoder: encoder) { json in
            json.date("created_at", identity.createdAt)
            json.string("email", identity.email)
            json.string("id", identity.id)
            try json.object("identity_data", identity.identityData)
            json.key("identity_id")
            json.uuid(identity.identityID)
            json.date("last_sign_in_at", identity.lastSignInAt)
            json.string("provider", identity.provider)
            json.date("updated_at", identity.updatedAt)
            json.key("user_id")
            json.uuid(identity.userID)
        }
    }

    private init(encoder: JSONEncoder) {
        self.encoder = encoder
    }

    /// `"name":`, after a comma unless it is the first key.
    private mutating func key(_ name: StaticString) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
    }

    private mutating func string(_ name: StaticString, _ text: String?) {
        guard var text else { return }
        key(name)
        // Scanned and copied in memory: a refresh's answer holds its access token, some 700 bytes.
        let plain = text.withUTF8 { utf8 in
            guard utf8.allSatisfy(\.isPlainJSONStringByte) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { fragment(text) }
    }

    private mutating func integer(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    private mutating func date(_ name: StaticString, _ date: Date?) {
        guard let date else { return }
        key(name)
        if let text = Self.timestamp(date) {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: text)
            bytes.append(UInt8(ascii: "\""))
        } else {
            fragment(date)
        }
    }

    /// Metadata, written by ``JSONBytes`` with the encoder's options (sorted keys, slashes
    /// unescaped; numbers through the encoder).
    private mutating func object(_ name: StaticString, _ metadata: [String: JSONValue]) throws {
        key(name)
        guard !metadata.isEmpty else { return bytes.append(contentsOf: [UInt8(ascii: "{"), UInt8(ascii: "}")]) }
        var json = JSONBytes(capacity: 128, sortsKeys: true, escapesSlashes: false)
        try json.object(metadata)
        bytes.append(contentsOf: json.bytes)
    }

    private mutating func value(_ name: StaticString, _ value: some Encodable) throws {
        key(name)
        bytes.append(contentsOf: try encoder.encode(value))
    }

    /// A value the encoder writes (it cannot fail for a string or a date).
    private mutating func fragment(_ value: some Encodable) {
        bytes.append(contentsOf: (try? encoder.encode(value)) ?? Data("null".utf8))
    }

    private mutating func uuid(_ id: UUID) {
        let hex = Hex.digits
        bytes.append(UInt8(ascii: "\""))
        withUnsafeBytes(of: id.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { bytes.append(UInt8(ascii: "-")) }
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` as ``WireCoding/formatTimestamp(_:)`` writes it (milliseconds
    /// truncated from the time since 2001, as Foundation's Gregorian calendar takes them), or
    /// `nil` outside 1970–9999.
    static func timestamp(_ date: Date) -> [UInt8]? {
        let sinceReference = date.timeIntervalSinceReferenceDate
        guard sinceReference.isFinite else { return nil }
        let whole = sinceReference.rounded(.down)
        guard whole < 300_000_000_000 else { return nil }
        let milliseconds = Int((sinceReference - whole) * 1_000_000_000) / 1_000_000
        let seconds = Int(whole) + 978_307_200
        guard seconds >= 0 else { return nil }
        let (year, month, day) = civil(days: seconds / 86_400)
        guard year <= 9999 else { return nil }
        let time = seconds % 86_400
        var text: [UInt8] = []
        text.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                text.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        text.append(UInt8(ascii: "-"))
        digits(month, 2)
        text.append(UInt8(ascii: "-"))
        digits(day, 2)
        text.append(UInt8(ascii: "T"))
        digits(time / 3600, 2)
        text.append(UInt8(ascii: ":"))
        digits(time % 3600 / 60, 2)
        text.append(UInt8(ascii: ":"))
        digits(time % 60, 2)
        text.append(UInt8(ascii: "."))
        digits(milliseconds, 3)
        text.append(UInt8(ascii: "Z"))
        return text
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
