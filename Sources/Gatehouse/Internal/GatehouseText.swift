import Foundation

/// The SDK's user-facing strings. Each has an English default and a key an app can translate in
/// a `Gatehouse.strings` (or `.xcstrings`) table of its main bundle.
@usableFromInline
enum GatehouseText {
    @usableFromInline
    static func localized(_ key: String, _ english: String) -> String {
        NSLocalizedString(key, tableName: "Gatehouse", bundle: .main, value: english, comment: "")
    }
}
