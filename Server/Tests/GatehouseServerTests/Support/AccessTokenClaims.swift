import Foundation

/// The claims of an access token (unverified: the tests read what the server signed).
func accessClaims(_ token: String?) -> [String: Any] {
    guard let token, token.split(separator: ".").count == 3 else { return [:] }
    var part = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
    while part.count % 4 != 0 { part += "=" }
    return (try? JSONSerialization.jsonObject(with: Data(base64Encoded: part) ?? Data())) as? [String: Any] ?? [:]
}

/// The `amr` methods of an access token, newest first.
func amrMethods(_ token: String?) -> [String] {
    (accessClaims(token)["amr"] as? [[String: Any]] ?? []).compactMap { $0["method"] as? String }
}
