import Gatehouse
import Testing

@Suite("Sign-in nonces")
struct SignInNonceTests {
    @Test func hashIsTheSHA256HexOfTheRawValue() {
        // SHA-256("abc"), from FIPS 180-2.
        #expect(SignInNonce(raw: "abc").sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func newNoncesAreLongAndDistinct() {
        let nonces = (0..<100).map { _ in SignInNonce() }
        #expect(Set(nonces.map(\.raw)).count == 100)
        #expect(nonces.allSatisfy { $0.raw.count == 64 && $0.sha256.count == 64 && $0.raw != $0.sha256 })
    }
}
