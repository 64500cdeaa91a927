public import Foundation
public import Gatehouse

/// `GET /user/sessions` and `DELETE /user/sessions/{id}`.
extension GoTrueBackend {
    public func sessions(for session: Session) async throws -> [DeviceSession] {
        let list: WireDeviceSessionList = try await client.send(
            .get,
            "user/sessions",
            bearer: session.accessToken,
            idempotent: true
        )
        return list.sessions.map(DeviceSession.init(wire:))
    }

    public func endSession(id: UUID, nonce: String?, for session: Session) async throws -> EndedSession {
        let _: EmptyReply = try await client.send(
            .delete,
            "user/sessions/\(id.uuidString.lowercased())",
            body: EndSessionRequest(nonce: nonce),
            bearer: session.accessToken
        )
        return AccessTokenClaims.sessionID(of: session.accessToken) == id ? .current : .other
    }
}

/// The one claim of a GoTrue access token the SDK reads without verifying it: `session_id`,
/// to tell whether an ended session was this device's own. (The server verifies every token;
/// the client only compares an id it chose.)
enum AccessTokenClaims {
    /// The `session_id` claim of a JWT, or `nil` when it is not one.
    static func sessionID(of token: String) -> UUID? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        guard let data = Base64URL.data(String(parts[1])),
            let claims = try? JSONDecoder().decode(SessionClaim.self, from: data)
        else { return nil }
        return claims.sessionID.flatMap(UUID.init(uuidString:))
    }

    private struct SessionClaim: Decodable {
        var sessionID: String?

        enum CodingKeys: String, CodingKey {
            case sessionID = "session_id"
        }
    }
}
