import Foundation
import GatehouseCore
import GatehouseStorage

extension SessionRecord {
    /// The session as `GET /user/sessions` lists it.
    func deviceWire(current: Bool) -> WireDeviceSession {
        WireDeviceSession(
            id: id,
            device: device,
            createdAt: createdAt,
            refreshedAt: refreshedAt,
            ip: refreshedIP ?? createdIP,
            createdIP: createdIP,
            aal: aal.rawValue,
            amr: amr.map { WireAuthenticationMethod(method: $0.method.rawValue, timestamp: $0.timestamp) },
            current: current
        )
    }
}
