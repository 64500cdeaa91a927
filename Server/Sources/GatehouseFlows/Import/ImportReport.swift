import GatehouseStorage

/// What an import did (or, dry, would do).
public struct ImportReport: Sendable, Equatable {
    /// Users written (dry run: that would be written).
    public var imported = 0
    /// Users found here already from an earlier run of the same export: left as they are.
    public var alreadyPresent = 0
    /// Records skipped, with the reason, in the export's order.
    public var refusals: [ImportRefusal] = []
    /// Users written with a password hash (dry run: that would be).
    public var withPassword = 0
    /// Provider identities written with them.
    public var identities = 0
    /// Verified TOTP factors written with them (Supabase), secrets sealed.
    public var factors = 0
    /// Factors of the users written that were left out, with the reason (unverified, other
    /// kinds); the users themselves are imported.
    public var skippedFactors: [ImportRefusal] = []

    /// Records read.
    public var total: Int { imported + alreadyPresent + refusals.count }
}
