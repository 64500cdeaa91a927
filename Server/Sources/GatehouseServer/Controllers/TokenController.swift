import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `POST /token?grant_type=password|refresh_token|id_token|pkce`: one flow per grant.
///
/// Registered behind ``RateLimitMiddleware`` (every grant counts). The bearer token is read
/// here, unverified: an ID token may link to its caller, and clients send an API key on every
/// call, so it is verified only when the grant asks for it.
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
            let session = try await password(body, ip: context.clientKey)
            return try JSONBody.response(session, request: request)
        case "refresh_token":
            let body = try await JSONBody.refreshGrant(from: request, context: context)
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
            let session = try await idToken(
                body,
                bearer: BearerToken.find(in: request),
                reauthenticationNonce: proof.reauthenticationNonce,
                ip: context.clientKey
            )
            return try JSONBody.response(session, request: request)
        case "pkce":
            let body = try await JSONBody.decode(PKCEGrantRequest.self, from: request, context: context)
            let device = DeviceLabel.resolve(field: nil, headers: request.headers)
            let session = try await pkce(body, device: device, ip: context.clientKey)
            return try JSONBody.response(session, request: request)
        default:
            throw APIError(.badRequest, .invalidCredentials, "Unsupported grant type")
        }
    }
}
