import Crypto
import Foundation
package import GatehouseCore

extension Hex {
    /// The SHA-256 of `text`'s UTF-8, as lowercase hex.
    package static func sha256(_ text: String) -> String {
        encode(Array(SHA256.hash(data: Data(text.utf8))))
    }
}
