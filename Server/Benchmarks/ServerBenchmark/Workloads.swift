import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// The server figures of issue 7.
enum Workloads {
    static let email = "bench@example.com"
    static let password = "benchmark password 1"

    /// `POST /token?grant_type=password` (one bcrypt per request), each virtual user signing in to
    /// an account of its own: tries on one account from one network count against its
    /// failed-password tiers before bcrypt (5 in flight at most), as a guesser's would.
    static let passwordSignIn = Workload(
        name: "password sign-in",
        prepare: { connection in
            let address = "bench-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let signup = try await connection.send(
                .POST,
                "/signup",
                json: #"{"email":"\#(address)","password":"\#(password)"}"#
            )
            guard signup.status == 200 else { throw LoadError.unexpected(signup.body) }
            return address
        },
        request: { address in
            LoadRequest(
                method: "POST",
                path: "/token?grant_type=password",
                json: #"{"email":"\#(address)","password":"\#(password)"}"#
            )
        },
        next: { state, status, _ in status == 200 ? state : nil }
    )

    /// `POST /token?grant_type=refresh_token`, each user chaining its own rotating token.
    static let refresh = Workload(
        name: "refresh grant",
        prepare: { connection in
            let guest = try await connection.send(.POST, "/signup", json: "{}")
            guard let token = guest.field("refresh_token") else { throw LoadError.unexpected(guest.body) }
            return token
        },
        request: { token in
            LoadRequest(
                method: "POST",
                path: "/token?grant_type=refresh_token",
                json: #"{"refresh_token":"\#(token)"}"#
            )
        },
        next: { _, status, body in
            status == 200
                ? jsonStringField("refresh_token", in: String(buffer: body)) : nil
        }
    )

    static let bareRefreshName = "refresh grant, HTTP, its statements and its signature alone"

    /// The refresh against ``BareRefreshServer``: each user's "token" is a session of its own
    /// (one of `sessions`, in turn), which every answer returns.
    static func bareRefresh(sessions: [String]) -> Workload {
        let handedOut = Mutex(0)
        return Workload(
            name: bareRefreshName,
            prepare: { _ in
                let index = handedOut.withLock { count in
                    defer { count += 1 }
                    return count
                }
                return sessions[index % sessions.count]
            },
            request: refresh.request,
            next: refresh.next
        )
    }

    /// `GET /user` with a valid access token (a signature check and a session lookup).
    static let getUser = Workload(
        name: "GET /user",
        prepare: { connection in
            let guest = try await connection.send(.POST, "/signup", json: "{}")
            guard let token = guest.field("access_token") else { throw LoadError.unexpected(guest.body) }
            return token
        },
        request: { token in LoadRequest(method: "GET", path: "/user", bearer: token) },
        next: { state, status, _ in status == 200 ? state : nil }
    )

    /// `POST /signup` with no credentials: a new guest and its session.
    static let anonymousSignUp = Workload(
        name: "anonymous sign-up",
        prepare: { _ in "" },
        request: { _ in LoadRequest(method: "POST", path: "/signup", json: "{}") },
        next: { state, status, _ in status == 200 ? state : nil }
    )

    /// `GET /health`: no token, no database; the cost of one HTTP round trip through the server
    /// and this load generator, the floor under every other figure.
    static let health = Workload(
        name: "GET /health",
        prepare: { _ in "" },
        request: { _ in LoadRequest(method: "GET", path: "/health") },
        next: { state, status, _ in status == 200 ? state : nil }
    )
}
