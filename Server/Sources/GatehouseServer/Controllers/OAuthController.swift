import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The sign-in through a provider's page: `GET /authorize` (``OAuthAuthorization``), the
/// provider's `GET /callback` and `POST /callback` (``OAuthCallback``), and, behind
/// ``CallerRequestContext``, `GET /user/identities/authorize` (linking a provider to the caller).
struct OAuthController {
    let authorization: OAuthAuthorization
    let callback: OAuthCallback

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.get("authorize") { request, context in
            let url = try await authorization(
                OAuthAuthorization.Request(query: FormFields.query(of: request)),
                ip: context.clientKey
            )
            return Self.redirect(to: url.absoluteString, status: .found)
        }
        router.get("callback") { request, context in try await finish(FormFields.query(of: request), request, context) }
        router.post("callback") { request, context in
            try await finish(try await FormFields.formAndQuery(of: request, context: context), request, context)
        }
    }

    /// `GET /user/identities/authorize?provider=…&redirect_to=…&skip_http_redirect=true`: 200
    /// `{"url": …}` with `skip_http_redirect` (what the Supabase clients ask for), else a 302.
    func registerLinking(on router: some RouterMethods<CallerRequestContext>) {
        router.get("user/identities/authorize") { request, context in
            let query = FormFields.query(of: request)
            let url = try await authorization(
                OAuthAuthorization.Request(query: query),
                linking: context.caller,
                reauthenticationNonce: query.first { $0.0 == "reauthentication_nonce" }?.1,
                ip: context.clientKey
            )
            if query.contains(where: { $0.0 == "skip_http_redirect" && $0.1 == "true" }) {
                return try JSONBody.response(["url": url.absoluteString], request: request)
            }
            return Self.redirect(to: url.absoluteString, status: .found)
        }
    }

    private func finish(
        _ fields: [(String, String)],
        _ request: Request,
        _ context: AppRequestContext
    ) async throws -> Response {
        let target = await callback(
            OAuthCallback.Parameters(fields),
            device: DeviceLabel.resolve(field: nil, headers: request.headers),
            ip: context.clientKey
        )
        // A form post (Apple's) is answered with 303, so the browser follows with a GET.
        return Self.redirect(to: target, status: request.method == .post ? .seeOther : .found)
    }

    static func redirect(to target: String, status: HTTPResponse.Status) -> Response {
        var headers = HTTPFields()
        headers[.location] = target
        // The target's query may hold a code: no page it leads to passes it on.
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return Response(status: status, headers: headers)
    }
}
