import GatehouseFlows

/// The ban periods the console offers, each a ``BanDuration`` the admin API accepts.
enum ConsoleBanPeriod: String, Sendable, CaseIterable {
    case hour = "1h"
    case day = "24h"
    case week = "168h"
    case year = "8760h"

    var label: String {
        switch self {
        case .hour: "1 hour"
        case .day: "24 hours"
        case .week: "7 days"
        case .year: "1 year"
        }
    }
}
