public import Foundation
public import Gatehouse

/// What `gatehouse sessions` prints: a table of the user's sessions, or JSON for scripts.
public struct SessionTable: Sendable, Equatable, Encodable {
    /// One row, in the server's field names.
    public struct Row: Sendable, Equatable, Encodable {
        public var id: String
        public var device: String?
        public var createdAt: Date
        public var refreshedAt: Date
        public var ip: String?
        public var aal: String
        public var amr: [String]
        public var current: Bool

        enum CodingKeys: String, CodingKey {
            case id, device, ip, aal, amr, current
            case createdAt = "created_at"
            case refreshedAt = "refreshed_at"
        }
    }

    public var sessions: [Row]

    /// Creates the table of `sessions` (newest first, as the server lists them).
    public init(_ sessions: [DeviceSession]) {
        self.sessions = sessions.map { session in
            Row(
                id: session.id.uuidString.lowercased(),
                device: session.device,
                createdAt: session.createdAt,
                refreshedAt: session.refreshedAt,
                ip: session.ip,
                aal: session.aal,
                amr: session.methods,
                current: session.isCurrent
            )
        }
    }

    /// The table as text: one line a session, this one marked with `*`.
    public func text(now: Date = Date()) -> String {
        guard !sessions.isEmpty else { return "No sessions." }
        let header = ["", "ID", "DEVICE", "SIGNED IN", "LAST ACTIVE", "ADDRESS"]
        let rows = sessions.map { row in
            [
                row.current ? "*" : "",
                row.id,
                Self.printable(row.device ?? "unknown device"),
                Self.ago(row.createdAt, now: now),
                Self.ago(row.refreshedAt, now: now),
                row.ip ?? "-",
            ]
        }
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let lines = all.map { cells in
            cells.enumerated()
                .map { index, cell in
                    index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                }
                .joined(separator: "  ")
        }
        return (lines + ["", "* this device. End one with `gatehouse sessions end ID`."]).joined(separator: "\n")
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) days ago"
        }
    }

    /// The label without terminal control characters (the server cleans it; a terminal should
    /// not trust any server).
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.filter { !$0.properties.generalCategory.isInvisible }.prefix(64).map(Character.init))
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isInvisible: Bool {
        switch self {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }
}
