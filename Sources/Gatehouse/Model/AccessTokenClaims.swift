import Foundation

/// Reads claims from an access token's payload, as GoTrue's clients do for `aal` (unverified:
/// the server verifies the token on every call; the app only needs to know what it says).
enum AccessTokenClaims {
    /// The token's `aal` claim; `aal1` when it has none or is not a JWT.
    static func assuranceLevel(of token: String) -> AssuranceLevel.Level {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .aal1 }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text),
            let claims = try? JSONDecoder().decode(Claims.self, from: data)
        else { return .aal1 }
        return claims.aal.flatMap(AssuranceLevel.Level.init(rawValue:)) ?? .aal1
    }

    private struct Claims: Decodable {
        var aal: String?
    }
}
