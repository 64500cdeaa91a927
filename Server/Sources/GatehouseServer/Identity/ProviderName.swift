import Foundation
import GatehouseCore

/// The user's name sent beside an ID token. Apple gives it on the very first authorization
/// only and never puts it in the ID token, so the client forwards it (`given_name` /
/// `family_name`, a `full_name` object, or supabase-style `data`). It is the client's claim:
/// trimmed, refused when it holds control or invisible characters or is too long, and only
/// ever fills empty `user_metadata` fields (``fill(_:)``), never overwriting what the user set.
struct ProviderName: Equatable, Sendable {
    /// The longest part kept, in characters.
    static let maximumCharacters = 100
    /// The longest part kept, in UTF-8 bytes.
    static let maximumBytes = 400

    var givenName: String?
    var familyName: String?
    var fullName: String?

    /// The name in `request`, `nil` when it has none; a malformed name is 400 `validation_failed`.
    static func from(_ request: IDTokenGrantRequest) throws -> ProviderName? {
        let data = request.data ?? [:]
        let name = ProviderName(
            givenName: try part(
                request.givenName ?? request.fullName?.givenName ?? text(data["given_name"]),
                "given_name"
            ),
            familyName: try part(
                request.familyName ?? request.fullName?.familyName ?? text(data["family_name"]),
                "family_name"
            ),
            fullName: try part(text(data["full_name"]) ?? text(data["name"]), "full_name")
        )
        var complete = name
        if complete.fullName == nil {
            let joined = [name.givenName, name.familyName].compactMap(\.self).joined(separator: " ")
            complete.fullName = joined.isEmpty ? nil : joined
        }
        return complete == ProviderName() ? nil : complete
    }

    /// The name in Apple's `user` field of a web sign-in (`{"name": {"firstName", "lastName"}, …}`,
    /// posted beside the code on the first authorization only), `nil` when it has none. Like the
    /// name beside an ID token, it is the browser's claim, not Apple's signed word; a malformed
    /// name is 400 `validation_failed`.
    static func fromAppleUser(_ json: String?) throws -> ProviderName? {
        guard let json, json.utf8.count <= 4096,
            let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let name = object["name"] as? [String: Any]
        else { return nil }
        let given = try part(name["firstName"] as? String, "given_name")
        let family = try part(name["lastName"] as? String, "family_name")
        let joined = [given, family].compactMap(\.self).joined(separator: " ")
        let parsed = ProviderName(givenName: given, familyName: family, fullName: joined.isEmpty ? nil : joined)
        return parsed == ProviderName() ? nil : parsed
    }

    /// Sets each part in `metadata` that is missing or empty; returns whether anything changed.
    func fill(_ metadata: inout [String: JSONValue]) -> Bool {
        var changed = false
        for (key, value) in [("full_name", fullName), ("given_name", givenName), ("family_name", familyName)] {
            guard let value else { continue }
            if let existing = metadata[key], existing != .null, existing != .string("") { continue }
            metadata[key] = .string(value)
            changed = true
        }
        return changed
    }

    private static func part(_ raw: String?, _ field: String) throws -> String? {
        guard let raw else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.count <= maximumCharacters, trimmed.utf8.count <= maximumBytes else {
            throw APIError.validation("The name's \(field) is too long: at most \(maximumCharacters) characters.")
        }
        guard !trimmed.unicodeScalars.contains(where: \.isInvisibleInText) else {
            throw APIError.validation("The name's \(field) contains control or invisible characters.")
        }
        return trimmed
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text) = value { text } else { nil }
    }
}
