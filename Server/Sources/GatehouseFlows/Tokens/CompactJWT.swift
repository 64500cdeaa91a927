import GatehouseCore
import GatehouseStorage

/// A JWT in compact serialisation cut at its two dots, by bytes: the header, the claims and
/// the signature, each still base64url text. Cutting by `Character`, as `String.split` does,
/// walks grapheme clusters and cost more than the signature check in a profile of `GET /user`.
struct CompactJWT {
    let header: Substring
    let payload: Substring
    let signature: Substring
    /// `header.payload`, the bytes the signature covers.
    let signingInput: Substring

    /// `nil` unless `token` has exactly two dots.
    init?(_ token: String) {
        let utf8 = token.utf8
        guard let first = utf8.firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let afterFirst = utf8.index(after: first)
        guard let second = utf8[afterFirst...].firstIndex(of: UInt8(ascii: ".")) else { return nil }
        let afterSecond = utf8.index(after: second)
        guard !utf8[afterSecond...].contains(UInt8(ascii: ".")) else { return nil }
        header = token[..<first]
        payload = token[afterFirst..<second]
        signature = token[afterSecond...]
        signingInput = token[..<second]
    }

    /// Whether all three segments are canonical base64url (``Base64URL/isCanonical(_:)``).
    var isCanonical: Bool {
        Base64URL.isCanonical(header) && Base64URL.isCanonical(payload) && Base64URL.isCanonical(signature)
    }
}
