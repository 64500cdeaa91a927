import Foundation
import HTTPTypes

/// Factor requests and token claims for the MFA tests.
extension Client {
    /// An enrolled factor: its id and an app that scanned its secret.
    struct Enrolled {
        var id: String
        var app: ReferenceTOTP
        var reply: Reply
    }

    func enroll(_ bearer: String?, name: String = "phone") async throws -> Enrolled {
        let reply = try await post("/factors", #"{"factor_type":"totp","friendly_name":"\#(name)"}"#, bearer: bearer)
        let totp = reply["totp"] as? [String: Any] ?? [:]
        return Enrolled(
            id: reply.string("id") ?? "",
            app: ReferenceTOTP(base32: totp["secret"] as? String ?? ""),
            reply: reply
        )
    }

    func challenge(_ factorID: String, bearer: String?, headers: [String: String] = [:]) async throws -> Reply {
        try await post("/factors/\(factorID)/challenge", "{}", bearer: bearer, headers: headers)
    }

    func verify(
        _ factorID: String,
        challenge: String,
        code: String,
        bearer: String?,
        headers: [String: String] = [:]
    ) async throws -> Reply {
        try await post(
            "/factors/\(factorID)/verify",
            #"{"challenge_id":"\#(challenge)","code":"\#(code)"}"#,
            bearer: bearer,
            headers: headers
        )
    }

    /// Challenge and verify in one go.
    func challengeAndVerify(_ factorID: String, code: String, bearer: String?) async throws -> Reply {
        let challenge = try await challenge(factorID, bearer: bearer)
        return try await verify(factorID, challenge: challenge.string("id") ?? "", code: code, bearer: bearer)
    }

    /// A confirmed user with a verified factor, signed in at AAL2.
    func userWithFactor(_ email: String, clock: TestClock) async throws -> (session: Reply, factor: Enrolled) {
        let session = try await confirmedSession(email: email)
        let factor = try await enroll(session.string("access_token"))
        let verified = try await challengeAndVerify(
            factor.id,
            code: factor.app.code(at: clock.now()),
            bearer: session.string("access_token")
        )
        return (verified, factor)
    }
}
