import Foundation
import GatehouseCore
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes

/// The most bytes `user_metadata` (the `data` of sign-up, `/otp` and `PUT /user`) and
/// `app_metadata` may take serialised, checked on every route that sets them and after a merge,
/// so that neither a request nor a series of them grows access tokens and rows without bound
/// (`GATEHOUSE_MAX_METADATA_BYTES`, default 16 KiB).
struct MetadataLimit: Sendable {
    /// The limit in bytes of serialised JSON.
    let bytes: Int

    init(bytes: Int) {
        self.bytes = bytes
    }

    init(_ configuration: ServerConfiguration) {
        self.init(bytes: configuration.maxMetadataBytes)
    }

    /// 422 `validation_failed` when `metadata`, serialised, takes more than ``bytes``.
    func check(_ metadata: [String: JSONValue]?, field: String = "user_metadata") throws {
        guard let metadata, !metadata.isEmpty else { return }
        let size = (try? JSONEncoder().encode(metadata).count) ?? Int.max
        guard size <= bytes else {
            throw APIError(
                .unprocessableContent,
                .validationFailed,
                "\(field) must not be larger than \(bytes) bytes (it is \(size))"
            )
        }
    }

    /// Checks both metadata fields of a user, as they will be stored.
    func check(_ user: UserRecord) throws {
        try check(user.userMetadata, field: "user_metadata")
        try check(user.appMetadata, field: "app_metadata")
    }
}
