public import Foundation
public import Gatehouse

/// The user's sessions, as the server lists and ends them: newest first, the caller's own
/// marked; listing needs AAL2 from a user with a verified factor, and ending another session is a
/// sensitive action (``authorizeSensitive(_:_:nonce:needsRecentSignIn:aalStatus:)``); an id that
/// is not one of the user's sessions is `not_found`, whoever's it is.
extension InMemoryAuthBackend {
    public func sessions(for session: Session) async throws -> [DeviceSession] {
        try await enter(.sessions)
        let access = try authenticate(session)
        try authorizeSensitive("list the account's sessions", access, needsRecentSignIn: false)
        return sessions.values
            .filter { $0.userID == access.userID }
            .sorted { ($0.createdAt, $0.sequence) > ($1.createdAt, $1.sequence) }
            .map { record in
                DeviceSession(
                    id: UUID(uuidString: record.id)!,
                    device: record.device,
                    createdAt: record.createdAt,
                    refreshedAt: record.refreshedAt,
                    ip: nil,
                    aal: record.aal.rawValue,
                    methods: record.methods,
                    isCurrent: record.id == access.sessionID
                )
            }
    }

    public func endSession(id: UUID, nonce: String?, for session: Session) async throws -> EndedSession {
        try await enter(.endSession)
        let access = try authenticate(session)
        let key = id.uuidString.lowercased()
        let isCurrent = key == access.sessionID
        if !isCurrent { try authorizeSensitive("end another session", access, nonce: nonce) }
        guard let record = sessions[key], record.userID == access.userID else {
            throw AuthError(
                code: .notFound,
                message: "No session with this id.",
                recoverySuggestion: "List the sessions again.",
                httpStatus: 404
            )
        }
        endSessions { $0.id == record.id }
        return isCurrent ? .current : .other
    }
}
