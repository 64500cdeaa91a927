import Foundation
import GatehouseCore
import Testing

/// The one home of Gatehouse's byte codecs: base64url, base32 and hex, used by the server, the
/// SDK, its test backend and the CLI.
@Suite("Base64url, base32 and hex")
struct CodecTests {
    /// Bytes of every length up to `limit`, each byte different from its neighbours.
    private func samples(upTo limit: Int) -> [[UInt8]] {
        (0..<limit).map { count in (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ count &* 11) } }
    }

    @Test func hexIsLowercaseTwoDigitsPerByte() {
        #expect(Hex.encode([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
        #expect(Hex.encode([]) == "")
        for bytes in samples(upTo: 20) {
            #expect(Hex.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        }
    }

    @Test func base64URLRoundTripsWithoutPaddingAndRefusesOtherAlphabets() {
        for bytes in samples(upTo: 40) {
            let text = Base64URL.encode(bytes)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            #expect(Base64URL.decode(text) == bytes)
            // The same text Foundation's base64 gives, in the URL alphabet without padding.
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(text == foundation)
            #expect(Base64URL.string(Data(bytes)) == text)
        }
        // One spelling only: stray bits in the last character, or a length no encoding has.
        #expect(Base64URL.decode("AA") == [0] && Base64URL.decode("AB") == nil && Base64URL.decode("A") == nil)
        #expect(Base64URL.decode("ab+c") == nil)
        #expect(Base64URL.decode("abc=") == nil)
        #expect(Base64URL.decode("äbc") == nil)
    }

    @Test func base64URLDataTakesTextWithOrWithoutItsPaddingOnly() {
        for bytes in samples(upTo: 12) {
            let text = Base64URL.encode(bytes)
            let padded = text + String(repeating: "=", count: (4 - text.utf8.count % 4) % 4)
            #expect(Base64URL.data(text) == Data(bytes))
            #expect(Base64URL.data(padded) == Data(bytes), "\(padded)")
        }
        #expect(Base64URL.data(nil) == nil)
        // Padding where no encoder writes it, too much of it, or the standard alphabet.
        for bad in ["AA=", "AA===", "A===", "=AAA", "AA=A", "ab+c", "ab/c", "AB=="] {
            #expect(Base64URL.data(bad) == nil, "\(bad)")
        }
    }

    @Test func base32RoundTripsAndReadsWhatAuthenticatorAppsShow() {
        for bytes in samples(upTo: 30) {
            let text = Base32.encode(bytes)
            #expect(!text.contains("="))
            #expect(Base32.decode(text) == bytes)
            #expect(Base32.decode(text.lowercased()) == bytes)
        }
        // RFC 4648 section 10's vectors, padded as the RFC writes them.
        let vectors = ["": "", "f": "MY======", "fo": "MZXQ====", "foo": "MZXW6===", "foob": "MZXW6YQ=",
                       "fooba": "MZXW6YTB", "foobar": "MZXW6YTBOI======"]
        for (plain, encoded) in vectors {
            #expect(Base32.decode(encoded) == Array(plain.utf8))
            #expect(Base32.encode(Array(plain.utf8)) == encoded.replacingOccurrences(of: "=", with: ""))
        }
        #expect(Base32.decode("MY1") == nil)
        #expect(Base32.decode("MZ") == nil, "leftover bits that are not zero")
        #expect(Base32.decode("MY=A") == nil, "text after padding")
    }
}
