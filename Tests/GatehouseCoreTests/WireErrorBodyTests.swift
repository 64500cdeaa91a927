import Foundation
import GatehouseCore
import Testing

@Suite("Wire error bodies")
struct WireErrorBodyTests {
    func decode(_ json: String) throws -> WireErrorBody {
        try WireCoding.makeDecoder().decode(WireErrorBody.self, from: Data(json.utf8))
    }

    @Test func decodesTheLegacyEnvelope() throws {
        let body = try decode(
            #"{"code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"}"#
        )
        #expect(body.code == .invalidCredentials)
        #expect(body.message == "Invalid login credentials")
        #expect(body.envelope == .legacy(status: 400))
    }

    @Test func decodesThe20240101Envelope() throws {
        let body = try decode(#"{"code": "session_not_found", "message": "Session not found"}"#)
        #expect(body.code == .sessionNotFound)
        #expect(body.code?.endsSession == true)
        #expect(body.envelope == .v20240101)
    }

    @Test func decodesTheOAuthEnvelope() throws {
        let body = try decode(#"{"error": "invalid_grant", "error_description": "Bad token"}"#)
        #expect(body.code == ErrorCode("invalid_grant"))
        #expect(body.message == "Bad token")
    }

    @Test func decodesWeakPasswordReasons() throws {
        let body = try decode(
            #"{"code": "weak_password", "message": "weak", "weak_password": {"reasons": ["length", "pwned"]}}"#
        )
        #expect(body.weakPassword?.reasons == ["length", "pwned"])
    }

    @Test func refusesSomethingThatIsNotAnError() {
        #expect(throws: DecodingError.self) { try decode(#"{"hello": "world"}"#) }
    }

    @Test func unknownCodesStillDecode() throws {
        #expect(try decode(#"{"code": "brand_new_code", "message": "m"}"#).code?.rawValue == "brand_new_code")
    }

    @Test func encodesBothEnvelopes() throws {
        let encoder = WireCoding.makeEncoder()
        let legacy = WireErrorBody(code: .badJWT, message: "bad", envelope: .legacy(status: 403))
        #expect(
            String(decoding: try encoder.encode(legacy), as: UTF8.self)
                == #"{"code":403,"error_code":"bad_jwt","msg":"bad"}"#
        )
        let modern = WireErrorBody(code: .badJWT, message: "bad", envelope: .v20240101)
        #expect(String(decoding: try encoder.encode(modern), as: UTF8.self) == #"{"code":"bad_jwt","message":"bad"}"#)
    }
}
