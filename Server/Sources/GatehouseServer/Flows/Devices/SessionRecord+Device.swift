import Foundation
import GatehouseCore
import GatehouseStorage

extension SessionRecord {
    /// The authenticator assurance level the session reached: `aal2` once a second factor's code
    /// was verified in it.
    var assuranceLevel: String { aal }

    /// The session as `GET /user/sessions` lists it.
    func deviceWire(current: Bool) -> WireDeviceSession {
        WireDeviceSession(
            id: id,
            device: device,
            createdAt: createdAt,
            refreshedAt: refreshedAt,
            ip: refreshedIP ?? createdIP,
            createdIP: createdIP,
            aal: assuranceLevel,
            amr: amr.map { WireAuthenticationMethod(method: $0.method, timestamp: $0.timestamp) },
            current: current
        )
    }
}
