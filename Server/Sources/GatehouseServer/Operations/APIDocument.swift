import Foundation
import GatehouseFlows

/// The OpenAPI document `Server/openapi.yaml` (a link to `Resources/openapi.yaml`, bundled with
/// the server), served at `GET /openapi.yaml`.
enum APIDocument {
    /// The document's bytes; empty only if the bundle lost it (a test checks it does not).
    static let yaml: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { return Data() }
        return (try? Data(contentsOf: url)) ?? Data()
    }()
}
