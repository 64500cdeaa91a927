import Foundation
public import Gatehouse

/// Second factors: GoTrue's `/factors` routes (`protocol.md` §4.4).
extension GoTrueBackend {
    public func enrollTOTP(friendlyName: String?, for session: Session) async throws -> TOTPEnrollment {
        try await enrollTOTP(friendlyName: friendlyName, nonce: nil, for: session)
    }

    /// `POST /factors` with `nonce` beside the factor's fields when a reauthentication code is given.
    public func enrollTOTP(friendlyName: String?, nonce: String?, for session: Session) async throws -> TOTPEnrollment {
        let wire: WireFactorEnrollment = try await client.send(
            .post,
            "factors",
            body: EnrollFactorRequest(friendlyName: friendlyName, nonce: nonce),
            bearer: session.accessToken
        )
        return TOTPEnrollment(wire: wire)
    }

    public func challengeFactor(_ factorID: String, for session: Session) async throws -> FactorChallenge {
        let wire: WireFactorChallenge = try await client.send(
            .post,
            "factors/\(try Self.pathComponent(factorID))/challenge",
            body: [String: String](),
            bearer: session.accessToken
        )
        return FactorChallenge(
            id: wire.id,
            factorID: factorID,
            expiresAt: Date(timeIntervalSince1970: TimeInterval(wire.expiresAt))
        )
    }

    public func verifyFactor(
        _ factorID: String,
        challengeID: String,
        code: String,
        for session: Session
    ) async throws -> Session {
        let wire: WireSession = try await client.send(
            .post,
            "factors/\(try Self.pathComponent(factorID))/verify",
            body: VerifyFactorRequest(challengeID: challengeID, code: code),
            bearer: session.accessToken
        )
        return Session(wire: wire, receivedAt: configuration.now())
    }

    public func unenrollFactor(_ factorID: String, for session: Session) async throws {
        try await unenrollFactor(factorID, nonce: nil, for: session)
    }

    /// `DELETE /factors/{id}`, with `{"nonce": …}` when a reauthentication code is given.
    public func unenrollFactor(_ factorID: String, nonce: String?, for session: Session) async throws {
        let _: FactorRemoved = try await client.send(
            .delete,
            "factors/\(try Self.pathComponent(factorID))",
            body: Self.proof(nonce),
            bearer: session.accessToken
        )
    }

    /// A factor id as a path segment: a UUID only, so that no id can reach another route.
    private static func pathComponent(_ id: String) throws -> String {
        guard let uuid = UUID(uuidString: id) else {
            throw AuthError(
                code: .mfaFactorNotFound,
                message: "Factor not found.",
                recoverySuggestion: "List the account's factors again.",
                httpStatus: 404
            )
        }
        return uuid.uuidString.lowercased()
    }

    private struct FactorRemoved: Decodable {
        var id: String
    }
}
