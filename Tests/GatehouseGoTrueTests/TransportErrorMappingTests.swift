import Foundation
import Gatehouse
import GatehouseGoTrue
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 30: a transport failure says what happened (offline, unreachable, a timeout, an ATS
/// block, an untrusted certificate) instead of "network unavailable" for everything, and only
/// what may pass is retryable.
@Suite("Transport errors, by URLError code")
struct TransportErrorMappingTests {
    func mapped(_ code: URLError.Code) -> AuthError {
        TransportErrorMapping.authError(for: URLError(code))
    }

    @Test func anATSBlockSaysHowToAllowALocalServer() {
        let error = mapped(.appTransportSecurityRequiresSecureConnection)
        #expect(error.code == .insecureConnectionBlocked)
        #expect(!error.isRetryable)
        #expect(error.recoverySuggestion?.contains("NSAllowsLocalNetworking") == true)
        #expect(error.recovery == .retry, "not an offline indicator")
    }

    @Test(arguments: [
        URLError.Code.serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid,
    ])
    func anUntrustedCertificateIsATLSFailureThatDoesNotPassByRetrying(_ code: URLError.Code) {
        let error = mapped(code)
        #expect(error.code == .secureConnectionFailed)
        #expect(!error.isRetryable)
        #expect(error.message.contains("certificate"))
    }

    @Test func aFailedHandshakeIsATLSFailureThatMayPass() {
        let error = mapped(.secureConnectionFailed)
        #expect(error.code == .secureConnectionFailed)
        #expect(error.isRetryable)
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .networkConnectionLost, .dataNotAllowed])
    func offlineIsOffline(_ code: URLError.Code) {
        let error = mapped(code)
        #expect(error.code == .networkUnavailable)
        #expect(error.message == "You are offline.")
        #expect(error.recovery == .offline)
    }

    @Test(arguments: [URLError.Code.cannotFindHost, .cannotConnectToHost, .dnsLookupFailed])
    func anUnreachableServerIsNotCalledOffline(_ code: URLError.Code) {
        let error = mapped(code)
        #expect(error.code == .networkUnavailable)
        #expect(error.message == "The server could not be reached.")
        #expect(error.isRetryable)
    }

    @Test func aTimeoutIsATimeoutAndCancellationIsCancellation() {
        #expect(mapped(.timedOut).code == .requestTimeout)
        #expect(mapped(.timedOut).recovery == .offline)
        #expect(mapped(.cancelled).code == .cancelled)
    }

    @Test func aBadURLAndABadResponseAreNeitherOffline() {
        #expect(mapped(.badURL).code == .validationFailed)
        #expect(mapped(.unsupportedURL).code == .validationFailed)
        #expect(mapped(.badServerResponse).code == .invalidResponse)
        #expect(mapped(.cannotParseResponse).code == .invalidResponse)
    }

    @Test func anIdempotentRequestIsRetriedOnceAfterATimeoutButNeverAfterATLSFailure() async throws {
        let session = Session(accessToken: "a", refreshToken: "r", expiresAt: Date(), user: User(id: "u"))
        let timedOut = RecordingTransport([.failure(URLError(.timedOut)), .http(200, Fixtures.userJSON)])
        _ = try await backend(timedOut).user(for: session)
        #expect(timedOut.requests.count == 2)

        let untrusted = RecordingTransport([.failure(URLError(.serverCertificateUntrusted))])
        let error = await #expect(throws: AuthError.self) { try await backend(untrusted).user(for: session) }
        #expect(error?.code == .secureConnectionFailed)
        #expect(untrusted.requests.count == 1)
    }

    func backend(_ transport: RecordingTransport) -> GoTrueBackend {
        GoTrueBackend(configuration: .init(url: URL(string: "https://auth.example.com")!), transport: transport.transport)
    }
}
