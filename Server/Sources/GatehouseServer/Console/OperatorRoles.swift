public import Foundation
import GatehouseFlows
public import GatehouseStorage

/// The operator role, managed by `gatehouse-server operator grant|revoke|list`: an operator
/// signs in to the console (`/console`); the console stays off until one exists.
public enum OperatorRoles {
    /// Why a grant or revoke was refused: an operator's input.
    public struct RoleError: Error, CustomStringConvertible, Equatable {
        /// What is wrong.
        public enum Reason: Sendable, Equatable {
            /// No user has this address.
            case unknownUser
            /// The user holds the role already (grant) or does not (revoke).
            case unchanged
        }

        /// The address the operator named.
        public var email: String
        /// What is wrong with it.
        public var reason: Reason

        /// The message for the command line.
        public var description: String {
            switch reason {
            case .unknownUser: "no user has the address \(email)"
            case .unchanged: "\(email) is unchanged"
            }
        }
    }

    /// Grants the role to the user with `email`, recorded in the audit log.
    public static func grant(email: String, storage: any AuthStorage, now: Date = Date()) async throws {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        try await storage.transaction { tx in
            guard let user = try await tx.user(email: address) else {
                throw RoleError(email: address, reason: .unknownUser)
            }
            guard try await tx.insertOperator(userID: user.id, at: now) else {
                throw RoleError(email: address, reason: .unchanged)
            }
            try await tx.appendAudit(
                AuditEntry(at: now, action: .operatorGranted, subjectID: user.id)
            )
        }
    }

    /// Revokes the role of the user with `email`: their console sessions and the session rows
    /// behind them end at once. Recorded in the audit log.
    public static func revoke(email: String, storage: any AuthStorage, now: Date = Date()) async throws {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        try await storage.transaction { tx in
            guard let user = try await tx.user(email: address) else {
                throw RoleError(email: address, reason: .unknownUser)
            }
            let (held, sessions) = try await tx.deleteOperator(userID: user.id)
            guard held else { throw RoleError(email: address, reason: .unchanged) }
            for session in sessions { try await tx.deleteSession(id: session) }
            try await tx.appendAudit(
                AuditEntry(at: now, action: .operatorRevoked, subjectID: user.id)
            )
        }
    }

    /// Every operator, oldest grant first.
    public static func list(storage: any AuthStorage) async throws -> [OperatorRecord] {
        try await storage.read { try await $0.operators() }
    }
}
