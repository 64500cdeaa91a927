import Foundation
import GatehouseCore
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
            let body = try await JSONBody.decode(OTPRequest.self, from: request, context: context)
            try await magicCode(body, ip: context.clientKey)
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
            }
        }
        router.get("verify") { request, context in try await verifyLink(request, context) }
        router.post("recover") { request, context in
            let body = try await JSONBody.decode(RecoverRequest.self, from: request, context: context)
            try await recovery(body, ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
        router.post("resend") { request, context in
            let body = try await JSONBody.decode(ResendRequest.self, from: request, context: context)
            try await resend(body, ip: context.clientKey)
            return try JSONBody.empty(request: request)
        }
    }

    /// `GET /verify?token=&type=&redirect_to=`: a 303 to the site with the session in the fragment.
    func verifyLink(_ request: Request, _ context: AppRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        let target = redirects.target(query.get("redirect_to"))
        var fragment: String
        do {
            guard let token = query.get("token"), let type = query.get("type") else {
                throw APIError.validation("Verify requires a token and a type")
            }
            let answer = try await verification(
                VerifyRequest(
                    type: VerificationType(rawValue: type),
                    tokenHash: token,
                    device: DeviceLabel.resolve(field: nil, headers: request.headers)
                ),
                ip: context.clientKey
            )
            guard case .session(let session) = answer else {
                let message = Self.otherSidePendingMessage.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
                var headers = HTTPFields()
                headers[.location] = "\(target)#message=\(message ?? "")&sb="
                return Response(status: .seeOther, headers: headers)
            }
            fragment = [
                "access_token=\(session.accessToken)", "expires_at=\(session.expiresAt)",
                "expires_in=\(session.expiresIn)",
                "refresh_token=\(session.refreshToken)", "token_type=bearer", "type=\(type)", "sb=",
            ].joined(separator: "&")
        } catch let error as APIError {
            let oauth =
                error.status == .forbidden
                ? "access_denied" : error.status.code >= 500 ? "server_error" : "invalid_request"
            let message = error.message.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            fragment = "error=\(oauth)&error_code=\(error.code.rawValue)&error_description=\(message)&sb="
        }
        var headers = HTTPFields()
        headers[.location] = "\(target)#\(fragment)"
        return Response(status: .seeOther, headers: headers)
    }

    /// GoTrue's answer when one side of a secure e-mail change is confirmed (supabase-swift
    /// decodes it as `emailChangeConfirmationPending`).
    static let otherSidePendingMessage =
        "Confirmation link accepted. Please proceed to confirm link sent to the other email"
}
