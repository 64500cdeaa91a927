import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// `POST /invite` and `POST /admin/generate_link` for `service_role` tokens. Registered behind
/// ``AdminRequestContext``.
struct AdminLinkController {
    let invitation: Invitation
    let links: LinkGeneration

    func register(on router: some RouterMethods<AdminRequestContext>) {
        router.post("invite") { request, context in
            let body = try await JSONBody.decode(Invitation.Request.self, from: request, context: context)
            let invited = try await invitation(body, ip: context.clientKey)
            return try JSONBody.response(invited, request: request)
        }
        router.post("admin/generate_link") { request, context in
            let body = try await JSONBody.decode(LinkGeneration.Request.self, from: request, context: context)
            let link = try await links(body, ip: context.clientKey)
            var fields = try WireCoding.makeDecoder().decode(
                [String: JSONValue].self,
                from: WireCoding.makeEncoder().encode(link.user.wire)
            )
            fields["action_link"] = .string(link.actionLink)
            fields["email_otp"] = .string(link.issued.code)
            fields["hashed_token"] = .string(link.issued.linkToken)
            fields["verification_type"] = .string(link.verificationType)
            fields["redirect_to"] = .string(link.redirectTo)
            return try JSONBody.response(fields, request: request)
        }
    }
}
