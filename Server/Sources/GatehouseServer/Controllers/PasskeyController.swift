import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The passkey routes (Supabase Auth's shapes): sign-in ceremonies in public, registration and
/// management for a signed-in caller (``CallerRequestContext``), the admin listing and removal for an admin (``AdminRequestContext``);
/// the ceremonies behind their own rate limit (`GATEHOUSE_RATE_LIMIT_PASSKEY`).
struct PasskeyController {
    let registration: PasskeyRegistration
    let signIn: PasskeySignIn
    let management: PasskeyManagement

    /// `POST /passkeys/authentication/options|verify`.
    func registerSignIn(on router: some RouterMethods<AppRequestContext>) {
        router.post("passkeys/authentication/options") { request, _ in
            try JSONBody.response(try await signIn.options(), request: request)
        }
        router.post("passkeys/authentication/verify") { request, context in
            let body = try await JSONBody.decode(PasskeyVerifyRequest.self, from: request, context: context)
            let device = DeviceLabel.resolve(field: nil, headers: request.headers)
            return try JSONBody.response(
                try await signIn.verify(body, device: device, ip: context.clientKey),
                request: request
            )
        }
    }

    /// `POST /passkeys/registration/options|verify`, for a signed-in caller.
    func registerRegistration(on router: some RouterMethods<CallerRequestContext>) {
        router.post("passkeys/registration/options") { request, context in
            let body = try await JSONBody.decode(
                PasskeyRegistrationOptionsRequest.self,
                from: request,
                context: context
            )
            let caller = context.caller
            return try JSONBody.response(
                try await registration.options(caller, nonce: body.nonce, ip: context.clientKey),
                request: request
            )
        }
        router.post("passkeys/registration/verify") { request, context in
            let body = try await JSONBody.decode(PasskeyVerifyRequest.self, from: request, context: context)
            let (passkey, _) = try await registration.verify(
                context.caller,
                body: body,
                ip: context.clientKey
            )
            return try JSONBody.response(passkey, request: request)
        }
    }

    /// The caller's passkeys: listing, renaming, removal.
    func registerManagement(on router: some RouterMethods<CallerRequestContext>) {
        router.get("passkeys") { request, context in
            try JSONBody.response(
                try await management.list(userID: context.caller.user.id),
                request: request
            )
        }
        router.patch("passkeys/:passkey_id") { request, context in
            let (body, proof) = try await JSONBody.decode(
                PasskeyRenameRequest.self,
                ReauthenticationProof.self,
                from: request,
                context: context
            )
            let renamed = try await management.rename(
                context.caller,
                passkeyID: Self.id("passkey_id", context),
                body: body,
                nonce: proof.nonce,
                ip: context.clientKey
            )
            return try JSONBody.response(renamed, request: request)
        }
        router.delete("passkeys/:passkey_id") { request, context in
            let proof = try await JSONBody.decode(ReauthenticationProof.self, from: request, context: context)
            try await management.remove(
                context.caller,
                passkeyID: Self.id("passkey_id", context),
                nonce: proof.nonce,
                ip: context.clientKey
            )
            return Response(status: .noContent)
        }
    }

    /// `GET /admin/users/{id}/passkeys`, `DELETE /admin/users/{id}/passkeys/{passkey_id}`.
    func registerAdmin(on router: some RouterMethods<AdminRequestContext>, lookup: AdminUserLookup) {
        router.get("admin/users/:id/passkeys") { request, context in
            let user = try await lookup.user(Self.id("id", context))
            return try JSONBody.response(try await management.list(userID: user.id), request: request)
        }
        router.delete("admin/users/:id/passkeys/:passkey_id") { _, context in
            let user = try await lookup.user(Self.id("id", context))
            try await management.adminRemove(
                userID: user.id,
                passkeyID: Self.id("passkey_id", context),
                ip: context.clientKey
            )
            return Response(status: .noContent)
        }
    }

    private static func id(_ name: String, _ context: some RequestContext) -> UUID? {
        context.parameters.get(name).flatMap(UUID.init(uuidString:))
    }
}
