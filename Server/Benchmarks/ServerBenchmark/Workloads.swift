import NIOHTTP1

/// The server figures of issue 7.
enum Workloads {
    static let email = "bench@example.com"
    static let password = "benchmark password 1"

    /// `POST /token?grant_type=password` for one existing user (one bcrypt per request).
    static let passwordSignIn = Workload(
        name: "password sign-in",
        prepare: { _ in "" },
        step: { connection, _ in
            let answer = try await connection.send(
                .POST,
                "/token?grant_type=password",
                json: #"{"email":"\#(email)","password":"\#(password)"}"#
            )
            return answer.status == 200 ? "" : nil
        }
    )

    /// `POST /token?grant_type=refresh_token`, each user chaining its own rotating token.
    static let refresh = Workload(
        name: "refresh grant",
        prepare: { connection in
            let guest = try await connection.send(.POST, "/signup", json: "{}")
            guard let token = guest.field("refresh_token") else { throw LoadError.unexpected(guest.body) }
            return token
        },
        step: { connection, token in
            let answer = try await connection.send(
                .POST,
                "/token?grant_type=refresh_token",
                json: #"{"refresh_token":"\#(token)"}"#
            )
            return answer.status == 200 ? answer.field("refresh_token") : nil
        }
    )

    /// `GET /user` with a valid access token (a signature check and a session lookup).
    static let getUser = Workload(
        name: "GET /user",
        prepare: { connection in
            let guest = try await connection.send(.POST, "/signup", json: "{}")
            guard let token = guest.field("access_token") else { throw LoadError.unexpected(guest.body) }
            return token
        },
        step: { connection, token in
            let answer = try await connection.send(.GET, "/user", bearer: token)
            return answer.status == 200 ? token : nil
        }
    )

    /// `POST /signup` with no credentials: a new guest and its session.
    static let anonymousSignUp = Workload(
        name: "anonymous sign-up",
        prepare: { _ in "" },
        step: { connection, _ in
            let answer = try await connection.send(.POST, "/signup", json: "{}")
            return answer.status == 200 ? "" : nil
        }
    )
}
