import GatehouseCore

extension AuthenticatorAssuranceLevel {
    /// The level a session row stores in `column` (`sessions.aal`).
    ///
    /// A level this build does not know is an error (``StoredValueError``), never read as
    /// `aal1` or `aal2`: either guess would be a silent downgrade or upgrade of the session.
    ///
    /// - Throws: ``StoredValueError`` when `text` is `NULL` or not `aal1` or `aal2`.
    package init(stored text: String?, column: String) throws {
        self = try StoredValueError.decode(text, as: Self.self, column: column)
    }
}
