import Foundation
import GatehouseServerSupport
import GatehouseStorage

/// Seals a provider's access and refresh tokens into a flow until the app exchanges its code
/// (``PKCEExchange``), under the server secret (``SigningKeyVault``: AES-256-GCM), with the flow's
/// id as authenticated data, so that the database alone reads no one's provider account.
struct ProviderTokenSealing: Sendable {
    let vault: SigningKeyVault

    /// The stored form of the tokens for the flow `id`; `nil` when there are none.
    func seal(access: String?, refresh: String?, flowID id: UUID) throws -> String? {
        guard access != nil || refresh != nil else { return nil }
        let object = ["access": access, "refresh": refresh].compactMapValues { $0 }
        let text = String(
            decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys),
            as: UTF8.self
        )
        return try vault.seal(text, kid: Self.label(id))
    }

    /// The tokens of a stored value; nothing when it does not open.
    func open(_ stored: String?, flowID id: UUID) -> (access: String?, refresh: String?) {
        guard let stored, let text = try? vault.open(stored, kid: Self.label(id)),
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: String]
        else { return (nil, nil) }
        return (object["access"], object["refresh"])
    }

    private static func label(_ id: UUID) -> String { "flow-provider-tokens:\(id.key)" }
}
