import Foundation
public import Gatehouse
import GatehouseGoTrue

/// Everything one `gatehouse` invocation needs: the server, the console, the output mode and
/// an ``AuthService`` whose session was restored from this server's session file.
@MainActor
public final class CLIContext {
    public let location: ServerLocation
    public let console: Console
    public let json: Bool
    public let store: FileSessionStore
    public let auth: AuthService

    /// Creates the context and restores the session (offline-first; no network yet).
    ///
    /// - Parameter allowsInsecureHTTP: Send to an `http://` server URL whose host is not this
    ///   machine (`--allow-insecure-http`); otherwise such a URL is refused
    ///   (``ErrorCode/insecureConnection``) before anything is sent.
    public init(
        location: ServerLocation,
        json: Bool,
        allowsInsecureHTTP: Bool = false,
        console: Console = .standard
    ) async {
        self.location = location
        self.console = console
        self.json = json
        self.store = FileSessionStore(namespace: "gatehouse", name: location.sessionName)
        self.auth = AuthService(
            backend: GoTrueBackend(url: location.url, allowsCleartext: allowsInsecureHTTP),
            store: store,
            // No background work in a short-lived process: commands verify when they need to.
            configuration: .init(
                verifiesRestoredSession: false,
                verificationRetryDelays: [],
                deviceName: Self.deviceName(),
                // A terminal program has no Sign in with Apple entitlement to ask with.
                appleCredentialState: nil,
                // `login --id-token FILE` is a scripted sign-in: an ID token without Apple's
                // authorization code is expected there (the warning is still logged).
                developerAlarm: .silent
            )
        )
        await auth.restoreSession()
    }

    /// The label sign-ins send: `$GATEHOUSE_DEVICE_NAME`, else "gatehouse CLI on <host>".
    static func deviceName(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let name = environment["GATEHOUSE_DEVICE_NAME"], !name.isEmpty { return name }
        return SignInDevice.platformDefault.map { "gatehouse CLI on \($0)" } ?? "gatehouse CLI"
    }

    /// Whether to animate network waits.
    public var showsSpinner: Bool { console.stdoutIsTerminal && !json }

    /// Runs a network call with a spinner when appropriate.
    public func waiting<Result: Sendable>(
        _ message: String,
        _ body: @MainActor () async throws -> Result
    )
        async rethrows -> Result
    {
        try await Spinner.run(message, enabled: showsSpinner, body)
    }

    /// The signed-in user (gate mode): fails with exit status 3 and a hint when there is none,
    /// and with the store's error when the session file could not be read.
    public func requireUser() throws -> User {
        if case .failure(let error) = auth.session { throw CLIError(error) }
        guard let user = auth.currentUser else { throw CLIError.notSignedIn(server: location.url.absoluteString) }
        return user
    }

    /// The status of the session after verifying it with the server (optional mode: works signed out).
    public func status() async -> StatusReport {
        await auth.verifySession()
        let user = auth.currentUser
        return StatusReport(
            server: location.url.absoluteString,
            signedIn: user != nil,
            guest: user?.isAnonymous ?? false,
            userID: user?.id,
            email: user?.email,
            accessTokenExpiresAt: auth.accessTokenExpiresAt,
            verified: auth.isSessionVerified,
            error: auth.session.error?.message,
            account: auth.accountStatus,
            assuranceLevel: auth.assuranceLevel
        )
    }

    /// After a sign-up or guest upgrade that needs confirmation, asks for the e-mailed code
    /// and confirms it.
    public func confirmIfNeeded(_ result: SignUpResult, email: String) async throws {
        guard case .confirmationRequired = result else { return }
        console.err("A confirmation code was sent to \(email).")
        let code = try value(nil, prompt: "Code: ")
        _ = try await waiting("Confirming…") { try await self.auth.confirmSignUp(email: email, code: code) }
    }

    /// Prints a result: `text` normally, `value` as JSON with `--json`.
    public func emit(_ text: String, json value: some Encodable) {
        console.out(json ? JSONOutput.render(value) : text)
    }

    /// Asks for a value unless given; fails as a usage error at end of input.
    public func value(_ given: String?, prompt: String) throws -> String {
        if let given, !given.isEmpty { return given }
        guard let answer = console.prompt(prompt), !answer.isEmpty else {
            throw CLIError.usage("No \(prompt.trimmingCharacters(in: CharacterSet(charactersIn: ": "))) given.")
        }
        return answer
    }

    /// Asks for a secret without echo; fails as a usage error at end of input.
    public func secret(prompt: String) throws -> String {
        guard let answer = console.promptSecret(prompt), !answer.isEmpty else {
            throw CLIError.usage(
                "No \(prompt.trimmingCharacters(in: CharacterSet(charactersIn: ": ")).lowercased()) given."
            )
        }
        return answer
    }
}
