import Foundation
import GatehouseCore
import GatehouseStorage

/// The user's name sent beside an ID token. Apple gives it on the very first authorization
/// only and never puts it in the ID token, so the client forwards it (`given_name` /
/// `family_name`, a `full_name` object, or supabase-style `data`). It is the client's claim:
/// every name field sent is a ``ChosenName`` (trimmed, refused when it holds control or invisible
/// characters or is too long), the first one of each part that is not blank is kept, and it only
/// ever fills empty `user_metadata` fields (``fill(_:)``), never overwriting what the user set.
struct ProviderName: Equatable, Sendable {
    /// The longest part kept, in Unicode scalars.
    static let maximumCharacters = 100

    var givenName: String?
    var familyName: String?
    var fullName: String?

    /// The name in `request`, `nil` when it has none; a malformed name is 400 `validation_failed`.
    static func from(_ request: IDTokenGrantRequest) throws -> ProviderName? {
        let data = request.data ?? [:]
        let name = ProviderName(
            givenName: try first(
                [request.givenName, request.fullName?.givenName, text(data["given_name"])],
                "given_name"
            ),
            familyName: try first(
                [request.familyName, request.fullName?.familyName, text(data["family_name"])],
                "family_name"
            ),
            fullName: try first([text(data["full_name"]), text(data["name"])], "full_name")
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
        let given = try first([name["firstName"] as? String], "given_name")
        let family = try first([name["lastName"] as? String], "family_name")
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

    /// The first of `candidates` that is not blank, after checking every one that was sent (so
    /// that the rule for each field does not depend on the others).
    private static func first(_ candidates: [String?], _ field: String) throws -> String? {
        let parts = try candidates.compactMap(\.self).map {
            try ChosenName.validated($0, field: field, maximumCharacters: maximumCharacters)
        }
        return parts.first { !$0.isEmpty }
    }

    private static func text(_ value: JSONValue?) -> String? {
        if case .string(let text) = value { text } else { nil }
    }
}
