import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `POST /token?grant_type=password|refresh_token|id_token|pkce`: one flow per grant.
///
/// Registered behind ``RateLimitMiddleware`` (every grant counts) and ``BearerMiddleware``
/// (an ID token may link to the caller).
struct TokenController {
    let password: PasswordSignIn
    let refresh: RefreshRotation
    let idToken: IDTokenSignIn
    let pkce: PKCEExchange

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.post("token") { request, context in try await token(request, context) }
    }

    func token(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        switch request.uri.queryParameters.get("grant_type") {
        case "password":
            var body = try await JSONBody.decode(PasswordGrantRequest.self, from: request, context: context)
            body.device = DeviceLabel.resolve(field: body.device, headers: request.headers)
            let session = try await Self.counted(.password) { try await password(body, ip: context.clientKey) }
            return try JSONBody.response(session, request: request)
        case "refresh_token":
            let body = try await JSONBody.decode(RefreshTokenGrantRequest.self, from: request, context: context)
            return try JSONBody.response(try await refresh(body.refreshToken, ip: context.clientKey), request: request)
        case "id_token":
            let (decoded, proof) = try await JSONBody.decode(
                IDTokenGrantRequest.self,
                ReauthenticationProof.self,
                from: request,
                context: context
            )
            var body = decoded
            body.device = DeviceLabel.resolve(field: body.device, headers: request.headers)
            let session = try await Self.counted(.idToken) {
                try await idToken(
                    body,
                    bearer: context.bearer,
                    reauthenticationNonce: proof.reauthenticationNonce,
                    ip: context.clientKey
                )
            }
            return try JSONBody.response(session, request: request)
        case "pkce":
            let body = try await JSONBody.decode(PKCEGrantRequest.self, from: request, context: context)
            let device = DeviceLabel.resolve(field: nil, headers: request.headers)
            let session = try await Self.counted(.pkce) { try await pkce(body, device: device, ip: context.clientKey) }
            return try JSONBody.response(session, request: request)
        default:
            throw APIError(.badRequest, .invalidCredentials, "Unsupported grant type")
        }
    }

    /// Runs a sign-in and counts its outcome (``AuthMetrics/signIn(_:error:)``).
    private static func counted(
        _ method: AuthMetrics.SignInMethod,
        _ signIn: () async throws -> WireSession
    ) async throws -> WireSession {
        do {
            let session = try await signIn()
            AuthMetrics.signIn(method, error: nil)
            return session
        } catch {
            AuthMetrics.signIn(method, error: error)
            throw error
        }
    }
}
