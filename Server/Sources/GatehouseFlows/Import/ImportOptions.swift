public import Foundation
import GatehouseStorage

/// How an import reads its export and writes its users.
public struct ImportOptions: Sendable {
    /// Report what would be imported and refused; write nothing.
    public var dryRun = false
    /// Users per transaction.
    public var batchSize = 1000
    /// Treat addresses the source did not mark verified as confirmed (Firebase does not require
    /// a verified address to sign in with a password; the server does).
    public var trustsUnverifiedAddresses = false
    /// The time of records that carry none.
    public var now = Date()

    public init() {}
}

/// An export that cannot be read at all (as opposed to a record refused).
public struct ImportFileError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
