/// The status of the current or last auth operation.
public enum OperationStatus: String, Sendable, Equatable, CaseIterable {
    /// No operation in progress or attempted.
    case idle
    /// An operation is currently in progress.
    case pending
    /// The last operation completed successfully.
    case success
    /// The last operation failed.
    case error
}
