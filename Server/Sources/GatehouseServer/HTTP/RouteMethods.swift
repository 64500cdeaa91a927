import GatehouseFlows
import GatehouseServerSupport
import GatehouseStorage
import HTTPTypes
import Hummingbird
import Synchronization

/// The methods each registered path answers, so that a request with another method gets 405
/// `method_not_allowed` with an `Allow` header instead of 404 (``ErrorMiddleware``). Filled
/// once every route is registered (middleware comes first in Hummingbird, routes after).
final class RouteMethods: Sendable {
    private struct Route: Sendable {
        /// Path components; a capture (`{name}`, or `:name`) matches any one component.
        var components: [String]
        var methods: Set<String>
    }

    private let routes = Mutex<[Route]>([])

    /// Records the router's routes.
    func record(_ descriptions: [Router<AppRequestContext>.RouteDescription]) {
        var byPath: [[String]: Set<String>] = [:]
        for description in descriptions {
            let components = "\(description.path)".split(separator: "/").map(String.init)
            byPath[components, default: []].insert(description.method.rawValue)
        }
        routes.withLock { $0 = byPath.map { Route(components: $0.key, methods: $0.value) } }
    }

    /// The methods a path answers (empty when no route has it), sorted, for `Allow`. Where a
    /// literal component and a capture both match (`/user/identities/authorize` and
    /// `/user/identities/{identity_id}`), only the routes the router picks count: it prefers the
    /// literal, component by component from the left.
    func methods(for path: String) -> [String] {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        let methods = routes.withLock { routes in
            let matches = routes.compactMap { route -> (literals: [Bool], methods: Set<String>)? in
                guard route.components.count == components.count else { return nil }
                var literals: [Bool] = []
                for (pattern, component) in zip(route.components, components) {
                    let isCapture = pattern.hasPrefix("{") || pattern.hasPrefix(":")
                    guard isCapture || pattern == component else { return nil }
                    literals.append(!isCapture)
                }
                return (literals, route.methods)
            }
            let specific = matches.map(\.literals).max { $0.lexicographicallyPrecedes($1) { !$0 && $1 } }
            return matches.filter { $0.literals == specific }.reduce(into: Set<String>()) { $0.formUnion($1.methods) }
        }
        return methods.sorted()
    }
}
