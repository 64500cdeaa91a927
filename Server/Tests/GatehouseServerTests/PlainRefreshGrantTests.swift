import Foundation
import GatehouseCore
import Testing

@testable import GatehouseServer

/// The refresh grant's body read without the JSON decoder (`PlainRefreshGrant`): the shapes
/// clients send are read, anything else goes to the decoder, and whatever is read is what the
/// decoder reads.
@Suite("The refresh grant's plain body")
struct PlainRefreshGrantTests {
    private static let decoder = WireCoding.makeDecoder()

    @Test(arguments: [
        #"{"refresh_token":"gh1_AbC-_09"}"#,  // JSON.stringify, JSONEncoder
        #"{"refresh_token": "gh1_AbC-_09"}"#,  // Python's json.dumps
        "{\n  \"refresh_token\" : \"gh1_AbC-_09\"\n}\n",  // pretty-printed
        " \t{\"refresh_token\":\"gh1_AbC-_09\"}\r\n",
    ])
    func theShapesClientsSendAreRead(body: String) {
        #expect(PlainRefreshGrant.token(in: Data(body.utf8)) == "gh1_AbC-_09")
    }

    @Test(arguments: [
        #"{"refresh_token":"a","other":1}"#,  // another member
        #"{"other":1,"refresh_token":"a"}"#,
        #"{"refresh_token":"a","refresh_token":"b"}"#,  // a repeated key
        #"{"refresh_token":"a\"b"}"#,  // an escape
        #"{"refresh_token":"a\u0062"}"#,
        #"{"refresh\u005ftoken":"a"}"#,  // an escaped key
        #"{"refresh_token":"é"}"#,  // not ASCII
        #"{"refresh_token":1}"#,  // not a string
        #"{"refresh_token":null}"#,
        #"{"refresh_token":"a",}"#,  // a trailing comma
        #"{"refresh_token":"a"}x"#,  // trailing bytes
        #"{"refresh_token":"a""#,  // cut short
        #"["refresh_token","a"]"#,
        #"{}"#,
        "",
    ])
    func anythingElseGoesToTheDecoder(body: String) {
        #expect(PlainRefreshGrant.token(in: Data(body.utf8)) == nil)
    }

    /// Twenty thousand mutations of client bodies (bytes inserted, removed or replaced, drawn
    /// from JSON's own punctuation, white space, escapes and letters): whenever the plain reader
    /// reads a token, the decoder reads the same one.
    @Test func whateverIsReadIsWhatTheDecoderReads() {
        let seeds = [
            #"{"refresh_token":"gh1_AbC-_09"}"#, #"{"refresh_token": "x"}"#, "{ \"refresh_token\" : \"\" }",
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]":,\ u0aZ-_é"#.utf8) + [0x09, 0x0A, 0x0D, 0x00, 0x7F, 0xFF]
        var random = SplitMix(seed: 35)
        var read = 0
        for _ in 0..<20_000 {
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 3) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0: bytes.insert(byte, at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = byte }
                }
            }
            guard let token = PlainRefreshGrant.token(in: Data(bytes)) else { continue }
            read += 1
            let decoded = try? Self.decoder.decode(RefreshTokenGrantRequest.self, from: Data(bytes))
            #expect(decoded?.refreshToken == token, "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(read > 1_000, "the mutations left enough bodies the plain reader reads")
    }
}
