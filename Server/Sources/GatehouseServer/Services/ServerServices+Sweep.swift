import Foundation
import GatehouseStorage
import Logging

extension ServerServices {
    /// The background service deleting rows that have served their purpose.
    func storageSweep(logger: Logger) -> StorageSweep {
        StorageSweep(
            storage: storage,
            lifetime: sessionLifetime,
            auditRetention: configuration.auditRetention,
            interval: .milliseconds(Int64(configuration.sessionSweepInterval * 1000)),
            logger: logger,
            now: now
        )
    }
}
