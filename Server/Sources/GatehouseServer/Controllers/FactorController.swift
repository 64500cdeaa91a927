import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird

/// The caller's second factors: `POST /factors`, `POST /factors/{id}/challenge`,
/// `POST /factors/{id}/verify`, `DELETE /factors/{id}`. Registered on the signed-in routes (``CallerRequestContext``).
struct FactorController {
    let enrollment: FactorEnrollment
    let challenge: FactorChallengeCreation
    let verification: FactorVerification
    let unenrollment: FactorUnenrollment

    /// The answer of `DELETE /factors/{id}`.
    struct Removed: Encodable {
        var id: String
    }

    func register(on router: some RouterMethods<CallerRequestContext>) {
        router.post("factors") { request, context in
            let (body, proof) = try await JSONBody.decode(
                EnrollFactorRequest.self,
                ReauthenticationProof.self,
                from: request,
                context: context
            )
            let enrolled = try await enrollment(
                body,
                caller: context.caller,
                nonce: proof.nonce,
                ip: context.clientKey
            )
            return try JSONBody.response(enrolled, request: request)
        }
        router.post("factors/:factor_id/challenge") { request, context in
            let id = try MFAAccess.id(context.parameters.get("factor_id"))
            let created = try await challenge(factorID: id, caller: context.caller, ip: context.clientKey)
            return try JSONBody.response(created, request: request)
        }
        router.post("factors/:factor_id/verify") { request, context in
            let id = try MFAAccess.id(context.parameters.get("factor_id"))
            let body = try await JSONBody.decode(VerifyFactorRequest.self, from: request, context: context)
            let session = try await verification(
                factorID: id,
                body,
                caller: context.caller,
                ip: context.clientKey
            )
            return try JSONBody.response(session, request: request)
        }
        router.delete("factors/:factor_id") { request, context in
            let id = try MFAAccess.id(context.parameters.get("factor_id"))
            let proof = try await JSONBody.decode(ReauthenticationProof.self, from: request, context: context)
            let removed = try await unenrollment(
                factorID: id,
                caller: context.caller,
                nonce: proof.nonce,
                ip: context.clientKey
            )
            return try JSONBody.response(Removed(id: removed.id.key), request: request)
        }
    }
}
