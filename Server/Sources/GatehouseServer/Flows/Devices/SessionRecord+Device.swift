import Foundation
import GatehouseCore

extension SessionRecord {
    /// The authenticator assurance level the session reached: `aal1` until a second factor
    /// exists on the session.
    var assuranceLevel: String { "aal1" }

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
