extension Unicode.Scalar {
    /// Whether the scalar has no business in a label a person reads (a device label, a name):
    /// control (Cc), format (Cf: bidirectional overrides, zero-width joiners), line and
    /// paragraph separators, and unassigned, private-use or surrogate scalars.
    package var isInvisibleInText: Bool {
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: true
        default: false
        }
    }
}
