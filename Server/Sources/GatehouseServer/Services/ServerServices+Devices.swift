import Foundation
import GatehouseStorage

/// The flows of device sessions, built with only the services they need.
extension ServerServices {
    var sessionLifetime: SessionLifetime { SessionLifetime(configuration) }

    var sessionListing: SessionListing {
        SessionListing(storage: storage, lifetime: sessionLifetime, sensitive: sensitiveActions, now: now)
    }

    var sessionEnding: SessionEnding { SessionEnding(storage: storage, sensitive: sensitiveActions, audit: audit) }

    var adminSessionEnding: AdminSessionEnding { AdminSessionEnding(storage: storage, audit: audit) }

}
