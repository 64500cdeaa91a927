import Foundation
import GatehouseStorage

/// The flows of device sessions, built with only the services they need.
extension ServerServices {
    package var sessionLifetime: SessionLifetime { SessionLifetime(configuration) }

    package var sessionListing: SessionListing {
        SessionListing(storage: storage, lifetime: sessionLifetime, sensitive: sensitiveActions, now: now)
    }

    package var sessionEnding: SessionEnding {
        SessionEnding(storage: storage, sensitive: sensitiveActions, audit: audit)
    }

    package var adminSessionEnding: AdminSessionEnding { AdminSessionEnding(storage: storage, audit: audit) }

}
