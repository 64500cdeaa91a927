import Foundation
import GatehouseCore
import GatehouseFlows
import GatehouseStorage
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// `GET /ready` (the database answers and its schema is complete) and `GET /openapi.yaml` (the
/// API document, ``APIDocument``). `GET /health` stays in ``MetadataController``: it never
/// touches the database.
struct OperationsController {
    let storage: any AuthStorage
    /// How long `/ready` waits for the database before answering 503.
    let readinessTimeout: Duration

    /// The body of `/ready`.
    struct Readiness: Encodable, Sendable {
        var status: String
    }

    func register(on router: some RouterMethods<AppRequestContext>) {
        router.get("ready") { request, _ in
            let status = await readiness()
            return try JSONBody.response(
                Readiness(status: status),
                status: status == "ready" ? .ok : .serviceUnavailable,
                request: request
            )
        }
        router.get("openapi.yaml") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "application/yaml; charset=utf-8"
            headers[.cacheControl] = "public, max-age=3600"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: APIDocument.yaml)))
        }
    }

    /// `ready`, `migrations_pending` or `database_unavailable` (also when the database takes longer than
    /// ``readinessTimeout``: a database that hangs must not hang the probe).
    func readiness() async -> String {
        let storage = storage
        let timeout = readinessTimeout
        let answer = FirstAnswer()
        @Sendable func finish(_ status: String) { answer.resume(status) }
        // Two unstructured tasks race, and the first answer wins: a read that hangs (the
        // database gone, its lease waiting) must not hold the probe, and a task group would
        // wait for it. Neither task changes anything; each ends by itself (the timer after
        // ``readinessTimeout``, the read when the database answers or the pool gives up).
        return await withCheckedContinuation { continuation in
            answer.set(continuation)
            Task {
                do {
                    finish(try await storage.read { try await $0.migrationsPending() } ? "migrations_pending" : "ready")
                } catch {
                    finish("database_unavailable")
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                finish("database_unavailable")
            }
        }
    }
}

/// The continuation of a race that the first finisher resumes; later ones are ignored.
private final class FirstAnswer: Sendable {
    private let continuation = Mutex<CheckedContinuation<String, Never>?>(nil)

    func set(_ value: CheckedContinuation<String, Never>) {
        continuation.withLock { $0 = value }
    }

    func resume(_ status: String) {
        continuation.withLock { value in
            value?.resume(returning: status)
            value = nil
        }
    }
}
