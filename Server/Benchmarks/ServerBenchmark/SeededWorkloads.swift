import NIOCore
import NIOHTTP1

/// The figures of the table again, for users picked at random among the seeded ones (across the
/// whole id space, so each lookup walks the indexes to a random leaf, not to the newest rows).
/// Each virtual user of refresh and `GET /user` signs in as its own random seeded user first.
enum SeededWorkloads {
    static func plan(users: Int) -> [Workload] {
        [
            Workloads.health, passwordSignIn(users: users), refresh(users: users), getUser(users: users),
            Workloads.anonymousSignUp,
        ]
    }

    /// `POST /token?grant_type=password` for a random seeded user each request.
    static func passwordSignIn(users: Int) -> Workload {
        Workload(
            name: Workloads.passwordSignIn.name,
            prepare: { _ in "" },
            request: { _ in
                LoadRequest(method: "POST", path: "/token?grant_type=password", json: signIn(users: users))
            },
            next: { state, status, _ in status == 200 ? state : nil }
        )
    }

    static func refresh(users: Int) -> Workload {
        Workload(
            name: Workloads.refresh.name,
            prepare: { try await session($0, users: users, field: "refresh_token") },
            request: Workloads.refresh.request,
            next: Workloads.refresh.next
        )
    }

    static func getUser(users: Int) -> Workload {
        Workload(
            name: Workloads.getUser.name,
            prepare: { try await session($0, users: users, field: "access_token") },
            request: Workloads.getUser.request,
            next: Workloads.getUser.next
        )
    }

    static func signIn(users: Int) -> String {
        let index = SeedLayout.randomPasswordUser(below: users)
        return #"{"email":"\#(SeedLayout.email(index))","password":"\#(Workloads.password)"}"#
    }

    /// Signs in as a random seeded user and returns `field` of the session.
    static func session(_ connection: HTTPConnection, users: Int, field: String) async throws -> String {
        let answer = try await connection.send(.POST, "/token?grant_type=password", json: signIn(users: users))
        guard let value = answer.field(field) else { throw LoadError.unexpected(answer.body) }
        return value
    }
}
