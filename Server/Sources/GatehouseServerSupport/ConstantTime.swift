/// Comparison of secrets (MACs, code hashes) without early exit, so the time taken does not
/// tell how many leading bytes matched.
package enum ConstantTime {
    /// Whether `lhs` and `rhs` are equal; only their lengths may be learnt from the timing.
    package static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    /// Whether two strings have equal UTF-8 bytes, compared without early exit too.
    package static func equal(_ lhs: String, _ rhs: String) -> Bool {
        equal(Array(lhs.utf8), Array(rhs.utf8))
    }
}
