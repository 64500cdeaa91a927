import GatehouseStorage

/// The progress `gatehouse-server import` shows on standard error: one line, rewritten after
/// each batch (a carriage return, no other control character), ended by a line feed. Shown on
/// a terminal only, unless asked for (`--progress`) or refused (`--no-progress`), so that a
/// log or a pipe gets the report's lines and nothing else.
public enum ImportProgress {
    /// Whether to show progress: the choice given, else whether standard error is a terminal.
    public static func isShown(requested: Bool?, standardErrorIsTerminal: Bool) -> Bool {
        requested ?? standardErrorIsTerminal
    }

    /// The line for `done` of `total` records: `\rimporting [#####...............]  2500/10000  25%`.
    /// Counts are right-aligned to the total's width, so the line never shrinks (a shorter line
    /// would leave the longer one's tail on the terminal).
    public static func line(done: Int, total: Int, barWidth: Int = 20) -> String {
        let total = max(0, total)
        let done = min(max(0, done), total)
        let fraction = total == 0 ? 1 : Double(done) / Double(total)
        let filled = min(barWidth, Int((fraction * Double(barWidth)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        let count = String(done)
        let width = String(total).count
        let percent = String(Int((fraction * 100).rounded(.down)))
        return "\rimporting [\(bar)] " + String(repeating: " ", count: width - count.count) + count + "/\(total) "
            + String(repeating: " ", count: 3 - percent.count) + percent + "%"
    }

    /// What ends the progress line once the import is done (before the report's lines).
    public static let end = "\n"
}
