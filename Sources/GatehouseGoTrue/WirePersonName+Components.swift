import Foundation
import GatehouseCore

extension WirePersonName {
    /// The given and family names of `components`; `nil` when it has neither.
    init?(_ components: PersonNameComponents) {
        guard components.givenName != nil || components.familyName != nil else { return nil }
        self.init(givenName: components.givenName, familyName: components.familyName)
    }
}
