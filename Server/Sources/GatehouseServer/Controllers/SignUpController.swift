import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `POST /signup`: e-mail and password (``SignUp``), or anonymous with no credentials
/// (``AnonymousSignUp``).
struct SignUpController {
    let signUp: SignUp
    let anonymous: AnonymousSignUp
    /// Where a PKCE sign-up's link may land (`redirect_to`).
    let redirects: RedirectPolicy

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.post("signup") { request, context in try await signUp(request, context) }
    }

    func signUp(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let (decoded, fields) = try await JSONBody.decode(
            SignUpRequest.self,
            PKCEFields.self,
            from: request,
            context: context
        )
        var body = decoded
        body.device = DeviceLabel.resolve(field: body.device, headers: request.headers)
        guard body.email != nil || body.password != nil else {
            let session = try await anonymous(body, ip: context.clientKey)
            return try JSONBody.response(session, request: request)
        }
        let pkce = try EmailPKCE.from(
            fields,
            redirectTo: request.uri.queryParameters.get("redirect_to"),
            policy: redirects
        )
        let answer = try await signUp(body, pkce: pkce, ip: context.clientKey)
        switch answer {
        case .session(let session): return try JSONBody.response(session, request: request)
        case .user(let user): return try JSONBody.response(user, request: request)
        }
    }
}
