import Foundation
import Testing

/// Where most MFA tests start: a live server on which a confirmed user has enrolled an
/// authenticator app, with the session, its access token and the app.
struct FactorScene {
    let client: Client
    let clock: TestClock
    /// The user's session: at AAL1 after ``Harness/withEnrolledFactor(email:_:)``, at
    /// AAL2 after ``Harness/withVerifiedFactor(email:_:)``.
    let session: Reply
    /// The session's access token.
    let token: String
    let factor: Client.Enrolled
}

extension Harness {
    /// Runs `body` live where `email` signed up, confirmed the address and enrolled a factor
    /// that is not verified yet (the session is at AAL1); then removes the harness's files.
    func withEnrolledFactor(
        email: String = "ada@example.com",
        _ body: @escaping @Sendable (FactorScene) async throws -> Void
    ) async throws {
        try await withFactor(email: email, verified: false, body)
    }

    /// Runs `body` live where `email` has a verified factor and a session raised to AAL2 by its
    /// first code; then removes the harness's files.
    func withVerifiedFactor(
        email: String = "ada@example.com",
        _ body: @escaping @Sendable (FactorScene) async throws -> Void
    ) async throws {
        try await withFactor(email: email, verified: true, body)
    }

    private func withFactor(
        email: String,
        verified: Bool,
        _ body: @escaping @Sendable (FactorScene) async throws -> Void
    ) async throws {
        defer { removeFiles() }
        let clock = clock
        try await live { client in
            let session: Reply
            let factor: Client.Enrolled
            if verified {
                (session, factor) = try await client.userWithFactor(email, clock: clock)
            } else {
                session = try await client.confirmedSession(email: email)
                factor = try await client.enroll(session.string("access_token"))
            }
            let token = try #require(session.string("access_token"))
            try await body(FactorScene(client: client, clock: clock, session: session, token: token, factor: factor))
        }
    }
}
