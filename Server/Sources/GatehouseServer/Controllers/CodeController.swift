import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `POST /otp`, `POST /verify`, `GET /verify`, `POST /recover`, `POST /resend`.
struct CodeController {
    let verification: CodeVerification
    let magicCode: MagicCodeRequest
    let recovery: PasswordRecovery
    let resend: CodeResend
    /// Where `GET /verify` may redirect (`GATEHOUSE_SITE_URL`, `GATEHOUSE_URI_ALLOW_LIST`).
    let redirects: RedirectPolicy

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.post("otp") { request, context in
            let (body, fields) = try await JSONBody.decode(
                OTPRequest.self,
                PKCEFields.self,
                from: request,
                context: context
            )
            try await magicCode(body, pkce: try pkce(fields, request), ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
        router.post("verify") { request, context in
            var body = try await JSONBody.decode(VerifyRequest.self, from: request, context: context)
            body.device = DeviceLabel.resolve(field: body.device, headers: request.headers)
            switch try await verification(body, ip: context.clientKey) {
            case .session(let session):
                return try JSONBody.response(session, request: request)
            case .otherSidePending:
                return try JSONBody.response(
                    ["msg": Self.otherSidePendingMessage, "code": "200"],
                    request: request
                )
            case .authorizationCode:
                // Only a followed link (`GET /verify`) answers with a code.
                throw APIError.unexpected
            }
        }
        router.get("verify") { request, context in try await verifyLink(request, context) }
        router.post("recover") { request, context in
            let (body, fields) = try await JSONBody.decode(
                RecoverRequest.self,
                PKCEFields.self,
                from: request,
                context: context
            )
            try await recovery(body, pkce: try pkce(fields, request), ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
        router.post("resend") { request, context in
            let (body, fields) = try await JSONBody.decode(
                ResendRequest.self,
                PKCEFields.self,
                from: request,
                context: context
            )
            try await resend(body, pkce: try pkce(fields, request), ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
    }

    /// `GET /verify?token=&type=&redirect_to=`: a 303 to the site with the session in the fragment,
    /// or with the error. A link mailed with a PKCE challenge (`pkce_…`) goes to its flow's target
    /// with `?code=` instead, for the verifier's holder to exchange, and its answers carry errors
    /// and messages in the query too (GoTrue's PKCE form). As in GoTrue, a link without a token or
    /// a type is refused with JSON instead (400 `validation_failed`): there is nothing to verify.
    func verifyLink(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let type = query.get("type"), !type.isEmpty else {
            throw APIError.validation("Verify requires a verification type")
        }
        guard let token = query.get("token"), !token.isEmpty else {
            throw APIError.validation("Verify requires a token or a token hash")
        }
        let flow = await verification.pkceFlow(linkToken: token)
        let target = flow?.redirectTo ?? redirects.target(query.get("redirect_to"))
        let location: String
        do {
            let answer = try await verification(
                VerifyRequest(
                    type: VerificationType(rawValue: type),
                    tokenHash: token,
                    device: DeviceLabel.resolve(field: nil, headers: request.headers)
                ),
                followsLink: true,
                ip: context.clientKey
            )
            switch answer {
            case .session(let session):
                location = OAuthRedirect.tokens(session, type: type, to: target)
            case .authorizationCode(let code, let redirectTo):
                location = OAuthRedirect.code(code, to: redirectTo)
            case .otherSidePending:
                let message = [("message", Self.otherSidePendingMessage)]
                location = OAuthRedirect.adding(
                    query: flow == nil ? [] : message,
                    fragment: message + [("sb", "")],
                    to: target
                )
            }
        } catch let error as APIError {
            if flow != nil {
                location = OAuthRedirect.error(error, to: target)
            } else {
                let fields = [
                    ("error", OAuthRedirect.oauthError(for: error)), ("error_code", error.code.rawValue),
                    ("error_description", error.message), ("sb", ""),
                ]
                location = OAuthRedirect.adding(query: [], fragment: fields, to: target)
            }
        }
        var headers = HTTPFields()
        headers[.location] = location
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: .seeOther, headers: headers)
    }

    /// The PKCE binding of a request that sent `fields` (and `redirect_to` in its query).
    private func pkce(_ fields: PKCEFields, _ request: Request) throws -> EmailPKCE? {
        try EmailPKCE.from(fields, redirectTo: request.uri.queryParameters.get("redirect_to"), policy: redirects)
    }

    /// GoTrue's answer when one side of a secure e-mail change is confirmed (supabase-swift
    /// decodes it as `emailChangeConfirmationPending`).
    static let otherSidePendingMessage =
        "Confirmation link accepted. Please proceed to confirm link sent to the other email"
}
