// IssueReporting (pointfreeco/xctest-dynamic-overlay 1.13.1), the part GatehouseSharing uses:
// Sources/IssueReporting/ReportIssue.swift.
// https://github.com/pointfreeco/xctest-dynamic-overlay/blob/1.13.1/Sources/IssueReporting/ReportIssue.swift

// ReportIssue.swift: `public func reportIssue(_ message: @autoclosure () -> String? = nil,
// fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
// column: UInt = #column)`; nonisolated, synchronous.
public func reportIssue(
    _ message: @autoclosure () -> String? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) { fatalError() }
