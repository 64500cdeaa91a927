import Foundation
import GatehouseCore
import Testing

/// Issue 33: the WebAuthn JSON of passkey ceremonies has one typed home, read and written by
/// the server, the SDK and its test backend. The samples are the server's output byte for byte
/// (captured from `gatehouse-server` before the types existed) and credentials as the SDK and
/// browsers send them; a malformed value is refused with the field and the problem.
@Suite("Passkey JSON")
struct PasskeyJSONTests {
    /// `options` of `POST /passkeys/registration/options` for a guest, as the server wrote it.
    static let creationSample = """
        {"attestation":"none","authenticatorSelection":{"requireResidentKey":true,"residentKey":"required",\
        "userVerification":"required"},"challenge":"2AqFySy9k-5bwZVGUgMuug6My6rRld2kbkPj9R9BSI0",\
        "excludeCredentials":[],"pubKeyCredParams":[{"alg":-7,"type":"public-key"},{"alg":-8,"type":"public-key"},\
        {"alg":-257,"type":"public-key"}],"rp":{"id":"example.com","name":"Gatehouse"},"timeout":300000,\
        "user":{"displayName":"deccf1bd-a6dc-4f1a-b597-29fdaca465eb",\
        "id":"ZGVjY2YxYmQtYTZkYy00ZjFhLWI1OTctMjlmZGFjYTQ2NWVi","name":"deccf1bd-a6dc-4f1a-b597-29fdaca465eb"}}
        """

    /// `options` of `POST /passkeys/authentication/options`, as the server wrote it.
    static let requestSample = """
        {"challenge":"-_Upxd5QBSSqW8akUMSfOjb3NsB27uGKWHaxdTQwiag","rpId":"example.com","timeout":300000,\
        "userVerification":"required"}
        """

    static let registrationSample = """
        {"id":"AQIDBA","rawId":"AQIDBA","response":{"attestationObject":"o2NmbXRkbm9uZQ","clientDataJSON":"e30",\
        "transports":["internal","hybrid"]},"type":"public-key"}
        """

    static let assertionSample = """
        {"id":"AQIDBA","rawId":"AQIDBA","response":{"authenticatorData":"SZYN5Q","clientDataJSON":"e30",\
        "signature":"MEUCIQ","userHandle":"YWJj"},"type":"public-key"}
        """

    static let clientDataSample = """
        {"challenge":"AAECAwQF-_8","crossOrigin":false,"origin":"https://example.com","type":"webauthn.get"}
        """

    /// `value` written as the server and the SDK write it.
    static func text(_ value: some PasskeyJSON) -> String {
        String(decoding: value.jsonData, as: UTF8.self)
    }

    @Test func creationOptionsReadAndWriteTheServersJSON() throws {
        let options = try PasskeyCreationOptions(jsonData: Data(Self.creationSample.utf8))
        #expect(options.relyingParty == .init(id: "example.com", name: "Gatehouse"))
        #expect(options.user.id == Data("deccf1bd-a6dc-4f1a-b597-29fdaca465eb".utf8))
        #expect(options.user.name == "deccf1bd-a6dc-4f1a-b597-29fdaca465eb")
        #expect(options.challenge == Base64URL.data("2AqFySy9k-5bwZVGUgMuug6My6rRld2kbkPj9R9BSI0"))
        #expect(options.parameters.map(\.algorithm) == [-7, -8, -257])
        #expect(options.parameters.allSatisfy { $0.type == "public-key" })
        #expect(options.timeout == 300_000)
        #expect(options.excludeCredentials == [])
        #expect(options.authenticatorSelection?.residentKey == .required)
        #expect(options.authenticatorSelection?.requireResidentKey == true)
        #expect(options.authenticatorSelection?.userVerification == .required)
        #expect(options.attestation == "none")
        #expect(Self.text(options) == Self.creationSample)
        // Through parsed JSON (an options answer's `options`), the same value.
        #expect(try PasskeyCreationOptions(json: options.json) == options)
    }

    @Test func requestOptionsReadAndWriteTheServersJSON() throws {
        let options = try PasskeyRequestOptions(jsonData: Data(Self.requestSample.utf8))
        #expect(options.relyingPartyID == "example.com")
        #expect(options.challenge.count == 32)
        #expect(options.timeout == 300_000)
        #expect(options.userVerification == .required)
        #expect(options.allowCredentials == nil)
        #expect(Self.text(options) == Self.requestSample)
        #expect(try PasskeyRequestOptions(json: options.json) == options)
    }

    @Test func credentialsReadAndWriteTheirToJSONForm() throws {
        let registration = try PasskeyRegistrationCredential(jsonData: Data(Self.registrationSample.utf8))
        #expect(registration.credentialID == Data([1, 2, 3, 4]))
        #expect(registration.clientDataJSON == Data("{}".utf8))
        #expect(registration.transports == ["internal", "hybrid"])
        #expect(Self.text(registration) == Self.registrationSample)

        let assertion = try PasskeyAssertionCredential(jsonData: Data(Self.assertionSample.utf8))
        #expect(assertion.credentialID == Data([1, 2, 3, 4]))
        #expect(assertion.userHandle == Data("abc".utf8))
        #expect(Self.text(assertion) == Self.assertionSample)
        #expect(try PasskeyAssertionCredential(json: assertion.json) == assertion)

        // No transports reported: none written.
        var platform = registration
        platform.transports = []
        #expect(platform.json.objectValue?["response"]?.objectValue?["transports"] == nil)
    }

    @Test func aBrowsersCredentialReadsWithoutRawIDAndWithMembersGatehouseIgnores() throws {
        let json: JSONValue = [
            "id": "AQIDBA", "type": "public-key", "authenticatorAttachment": "platform",
            "clientExtensionResults": [:],
            "response": ["clientDataJSON": "e30", "attestationObject": "o2NmbXRkbm9uZQ", "publicKeyAlgorithm": -7],
        ]
        let credential = try PasskeyRegistrationCredential(json: json)
        #expect(credential.credentialID == Data([1, 2, 3, 4]) && credential.transports.isEmpty)
    }

    @Test func clientDataReadsAndWritesAsTheSoftwareAuthenticatorSignsIt() throws {
        let clientData = try PasskeyClientData(jsonData: Data(Self.clientDataSample.utf8))
        #expect(clientData.type == PasskeyClientData.assertion)
        #expect(clientData.challenge == Data([0, 1, 2, 3, 4, 5, 0xFB, 0xFF]))
        #expect(clientData.origin == "https://example.com" && !clientData.crossOrigin)
        #expect(Self.text(clientData) == Self.clientDataSample)
        let browser = #"{"type":"webauthn.create","challenge":"AAECAwQF-_8","origin":"https://example.com"}"#
        #expect(try PasskeyClientData(jsonData: Data(browser.utf8)).crossOrigin == false)
    }

    @Test func optionsAcceptPaddedBase64URLButCredentialsOnlyTheCanonicalSpelling() throws {
        let padded: JSONValue = ["challenge": "AAECAw==", "rpId": "example.com"]
        #expect(try PasskeyRequestOptions(json: padded).challenge == Data([0, 1, 2, 3]))
        let credential = Self.registrationSample.replacingOccurrences(of: "AQIDBA", with: "AQIDBA==")
        #expect(throws: PasskeyJSONError(reason: "credential.id is not base64url")) {
            try PasskeyRegistrationCredential(jsonData: Data(credential.utf8))
        }
    }

    /// Malformed values and the reason each is refused with.
    static let malformed: [(json: String, reason: String)] = [
        (#"[]"#, "credential must be an object"),
        (#"{"id":"AQ","response":{"clientDataJSON":"e30"}}"#, "credential.type is missing"),
        (#"{"type":"password","id":"AQ","response":{}}"#, "credential.type must be public-key"),
        (#"{"type":"public-key","id":"A+/=","response":{}}"#, "credential.id is not base64url"),
        (#"{"type":"public-key","id":"AQ","rawId":"Ag","response":{}}"#, "credential.rawId differs from id"),
        (#"{"type":"public-key","id":"AQ"}"#, "credential.response is missing"),
        (#"{"type":"public-key","id":"AQ","response":[]}"#, "credential.response must be an object"),
        (
            #"{"type":"public-key","id":"AQ","response":{"clientDataJSON":5}}"#,
            "credential.response.clientDataJSON must be a string"
        ),
        (
            #"{"type":"public-key","id":"AQ","response":{"clientDataJSON":"e30"}}"#,
            "credential.response.attestationObject is missing"
        ),
        (
            #"{"type":"public-key","id":"AQ","response":{"clientDataJSON":"e30","attestationObject":"!!"}}"#,
            "credential.response.attestationObject is not base64url"
        ),
        (
            #"{"type":"public-key","id":"AQ","response":{"clientDataJSON":"e30","attestationObject":"AA","transports":"usb"}}"#,
            "credential.response.transports must be an array"
        ),
        (#"{"type":"public-key","id":"AQ","#, "credential is not JSON"),
    ]

    @Test(arguments: malformed)
    func aMalformedRegistrationCredentialIsRefusedWithItsReason(json: String, reason: String) {
        #expect(throws: PasskeyJSONError(reason: reason)) {
            try PasskeyRegistrationCredential(jsonData: Data(json.utf8))
        }
    }

    @Test func otherMalformedValuesAreRefusedWithTheirReasons() {
        let assertion: JSONValue = [
            "type": "public-key", "id": "AQ",
            "response": ["clientDataJSON": "e30", "authenticatorData": "AA", "signature": "AA", "userHandle": nil],
        ]
        #expect(throws: PasskeyJSONError(reason: "credential.response.userHandle must not be null")) {
            try PasskeyAssertionCredential(json: assertion)
        }
        var options = try? JSONDecoder().decode(JSONValue.self, from: Data(Self.creationSample.utf8))
        if case .object(var members) = options {
            members["pubKeyCredParams"] = [["type": "public-key", "alg": -7], ["type": "public-key", "alg": "ES256"]]
            options = .object(members)
        }
        #expect(throws: PasskeyJSONError(reason: "options.pubKeyCredParams[1].alg must be a number")) {
            try PasskeyCreationOptions(json: options ?? .null)
        }
        #expect(throws: PasskeyJSONError(reason: "options.rp.name is missing")) {
            try PasskeyCreationOptions(json: ["rp": ["id": "example.com"], "challenge": "AA"])
        }
        #expect(throws: PasskeyJSONError(reason: "options.challenge is not base64url")) {
            try PasskeyRequestOptions(json: ["challenge": "!!", "rpId": "example.com"])
        }
        let crossOrigin = #"{"type":"webauthn.get","challenge":"AA","origin":"https://example.com","crossOrigin":null}"#
        #expect(throws: PasskeyJSONError(reason: "clientDataJSON.crossOrigin must be a boolean")) {
            try PasskeyClientData(jsonData: Data(crossOrigin.utf8))
        }
        #expect(throws: PasskeyJSONError(reason: "clientDataJSON.crossOrigin must be a boolean")) {
            try PasskeyClientData(jsonData: Data(crossOrigin.replacingOccurrences(of: "null", with: "1").utf8))
        }
    }

    @Test func theAssuranceLevelIsOneVocabulary() throws {
        #expect(AuthenticatorAssuranceLevel.allCases.map(\.rawValue) == ["aal1", "aal2"])
        #expect(AuthenticatorAssuranceLevel.aal1 < .aal2 && !(AuthenticatorAssuranceLevel.aal2 < .aal1))
        let decoded = try JSONDecoder().decode([AuthenticatorAssuranceLevel].self, from: Data(#"["aal2"]"#.utf8))
        #expect(decoded == [.aal2])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([AuthenticatorAssuranceLevel].self, from: Data(#"["aal3"]"#.utf8))
        }
    }
}
