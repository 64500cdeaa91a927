import Foundation
import GatehouseFlows
import GatehouseStorage

/// `/console`: how many users and active sessions there are, the mail outbox, this instance's
/// rate-limit refusals, and new users, new guests, sign-ins and failed sign-ins per day over the
/// last 30 days as a bar chart the server draws (SVG, no script), with each series' total in
/// the legend.
struct ConsoleOverviewPage: Sendable {
    let storage: any AuthStorage
    let lookup: AdminUserLookup
    let refusals: RateLimitRefusals
    let now: @Sendable () -> Date

    static let days = 30

    /// The series of the chart, each with its colour class.
    enum Series: CaseIterable {
        case signUps
        case guests
        case signIns
        case failed

        /// The audit lines the series counts.
        var action: AuditAction {
            switch self {
            case .signUps: .userSignedUp
            case .guests: .anonymousSignIn
            case .signIns: .login
            case .failed: .loginFailed
            }
        }

        var label: String {
            switch self {
            case .signUps: "New users"
            case .guests: "New guests"
            case .signIns: "Sign-ins"
            case .failed: "Failed sign-ins"
            }
        }
    }

    func render(operator signedIn: ConsoleOperator) async throws -> HTML {
        let now = now()
        let today = Int((now.timeIntervalSince1970 / 86_400).rounded(.down))
        let first = today - Self.days + 1
        let (_, users) = try await lookup.page(AdminPaging(page: 1, perPage: 1))
        let (sessions, outbox, counts) = try await storage.read { reader in
            (
                try await reader.sessionCount(),
                try await reader.mailOutboxDepth(),
                try await reader.dailyCounts(
                    of: Series.allCases.map(\.action),
                    since: Date(timeIntervalSince1970: Double(first) * 86_400)
                )
            )
        }
        var perDay: [Series: [Int]] = [:]
        for series in Series.allCases {
            var values = Array(repeating: 0, count: Self.days)
            for count in counts where count.action == series.action && count.day >= first && count.day <= today {
                values[count.day - first] += count.count
            }
            perDay[series] = values
        }
        let oldest: HTML = outbox.oldest.map { " (the oldest queued \(ConsoleLayout.time($0)))" } ?? .empty
        let figures: HTML = """
            <section><dl>
            <dt>Users</dt><dd>\(users)</dd>
            <dt>Active sessions</dt><dd>\(sessions)</dd>
            <dt>Mail waiting to be sent</dt><dd>\(outbox.count)\(oldest)</dd>
            <dt>Rate-limit refusals</dt><dd>\(Self.refusals(refusals))</dd>
            </dl></section>
            """
        let chart = Self.chart(perDay, first: first)
        return ConsoleLayout.page(
            title: "Overview",
            operator: signedIn,
            content: "\(figures)<section><h2>Per day, last \(Self.days) days (UTC)</h2>\(chart)</section>"
        )
    }

    /// This instance's refusals since it started, busiest bucket first.
    static func refusals(_ refusals: RateLimitRefusals) -> HTML {
        let counts = refusals.byBucket
        let since = ConsoleLayout.time(refusals.since)
        guard !counts.isEmpty else { return "none since this instance started (\(since))" }
        let total = counts.reduce(0) { $0 + $1.count }
        let parts = counts.prefix(6).map { "\($0.bucket) \($0.count)" }
        return "\(total) since this instance started (\(since)): \(parts.joined(separator: ", "))"
    }

    /// Bars for each day, the series side by side, scaled to the busiest day.
    static func chart(_ perDay: [Series: [Int]], first: Int) -> HTML {
        let width = 600
        let height = 160
        let slot = width / days
        let highest = max(1, perDay.values.flatMap(\.self).max() ?? 1)
        var bars: [HTML] = []
        for (index, series) in Series.allCases.enumerated() {
            for (day, value) in (perDay[series] ?? []).enumerated() where value > 0 {
                let barHeight = max(1, value * (height - 20) / highest)
                let x = day * slot + index * (slot / Series.allCases.count)
                bars.append(
                    """
                    <rect class="\(series.action.rawValue)" x="\(x)" y="\(height - barHeight)" width="\(slot / Series.allCases.count - 1)" height="\(barHeight)"><title>\(series.label): \(value)</title></rect>
                    """
                )
            }
        }
        let total = Series.allCases.map { series -> HTML in
            "<li><span class=\"key \(series.action.rawValue)\"></span>\(series.label): \((perDay[series] ?? []).reduce(0, +))</li>"
        }
        let start = ConsoleLayout.day(first)
        let end = ConsoleLayout.day(first + days - 1)
        return """
            <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-label="New users, new guests, sign-ins and failed sign-ins per day">\(bars)</svg>
            <p class="muted">\(start) – \(end)</p><ul class="legend">\(total)</ul>
            """
    }
}
