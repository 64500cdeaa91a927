import Foundation
import GatehouseStorage
package import Logging

extension ServerServices {
    /// The background service deleting rows that have served their purpose.
    package func storageSweep(logger: Logger) -> StorageSweep {
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
