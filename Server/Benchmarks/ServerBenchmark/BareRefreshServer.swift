import Crypto
import Foundation
import GatehouseStorage
import Hummingbird
import Logging
import PostgresNIO

/// Issue 35: the stack's own bound for the refresh on PostgreSQL. This benchmark, run as a child
/// with ``argument``, serves `POST /token` with what a refresh cannot do without and nothing of
/// Gatehouse's: Hummingbird's HTTP/1 server, the grant's JSON body decoded with Foundation, the
/// refresh's two statements (``RefreshStatements``, as pgbench runs them) through PostgresNIO's
/// pool of the server's size, prepared, and the one primitive a refresh's answer needs: an ES256
/// signature (swift-crypto) over as many bytes as the server's access token signs. Then a fixed
/// answer, with that signature, as long as the real one. No token is parsed or built, no claim
/// encoded, no decision taken, no middleware, log line or metric.
///
/// pgbench bounds what PostgreSQL can do with the statements from a C client; this bounds what
/// a Swift server on Hummingbird, PostgresNIO and swift-crypto can do with them, on the same
/// cores, in the same run. The refresh's "token" here is its session's id, and the answer returns it; a
/// session that is not found or not rotated (its counter moved) is answered 400 or 409, which the
/// load generator counts as a failure (``BareRefreshBound`` fails the run on any).
enum BareRefreshServer {
    /// The benchmark's first argument that runs it instead of the benchmark.
    static let argument = "--bare-refresh-server"
    /// The environment variable holding the answer's length in bytes.
    static let answerLengthVariable = "GATEHOUSE_BARE_ANSWER_BYTES"
    /// The environment variable holding how many bytes each answer's signature covers (the
    /// server's access token up to its signature: header and claims, base64url).
    static let signedLengthVariable = "GATEHOUSE_BARE_SIGNED_BYTES"

    /// The grant's body.
    struct Grant: Decodable {
        var refresh_token: String
    }

    /// The read of the session with its user; only what the rotation binds is decoded.
    struct SessionRead: PostgresPreparedStatement {
        static let name = "bare_refresh_read"
        static let sql = PostgresStatement.numberedPlaceholders(RefreshStatements.postgresRead)
        typealias Row = (counter: Int64, userID: String)

        var session: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(session)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {
            let columns = row.makeRandomAccess()
            return (try columns["s_counter"].decode(Int64.self), try columns["s_user_id"].decode(String.self))
        }
    }

    /// The rotation with its audit line, bound as the storage binds it.
    struct Rotation: PostgresPreparedStatement {
        static let name = "bare_refresh_rotation"
        static let sql = PostgresStatement.numberedPlaceholders(RefreshStatements.postgresRotation)
        typealias Row = Int64

        var session: String
        var counter: Int64
        var userID: String
        var now: Double

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 12)
            bindings.append(now)
            bindings.append(now)
            bindings.append("127.0.0.1")
            bindings.append((now / 86_400).rounded(.down) * 86_400)
            bindings.append(session)
            bindings.append(counter)
            bindings.append(now)
            bindings.append("token_refreshed")
            bindings.append(userID)
            bindings.append("127.0.0.1")
            bindings.appendNull()
            bindings.appendNull()
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Int64 {
            try row.decode(Int64.self)
        }
    }

    /// Serves until SIGTERM on `GATEHOUSE_PORT`, against `GATEHOUSE_DATABASE_URL`.
    static func run(environment: [String: String]) async throws {
        guard let port = environment["GATEHOUSE_PORT"].flatMap(Int.init),
            let url = environment["GATEHOUSE_DATABASE_URL"]
        else { throw LoadError.unexpected("\(argument) needs GATEHOUSE_PORT and GATEHOUSE_DATABASE_URL") }
        var configuration = BenchDatabase.configuration(try PostgresSettings(url: url))
        configuration.options.maximumConnections = PgbenchBound.serverConnections
        configuration.options.keepAliveBehavior = nil
        let logger = {
            var logger = Logger(label: "bare-refresh-server")
            logger.logLevel = .error
            return logger
        }()
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let length = environment[answerLengthVariable].flatMap(Int.init) ?? 0
        let key = P256.Signing.PrivateKey()
        let signed = Data(repeating: UInt8(ascii: "x"), count: environment[signedLengthVariable].flatMap(Int.init) ?? 0)
        let router = Router()
        router.get("/health") { _, _ in HTTPResponse.Status.ok }
        router.post("/token") { request, context -> Response in
            let grant = try await request.decode(as: Grant.self, context: context)
            let answer = try await client.withConnection { connection in
                var read: SessionRead.Row?
                for try await row in try await connection.execute(
                    SessionRead(session: grant.refresh_token),
                    logger: logger
                ) {
                    read = row
                }
                guard let read else { throw HTTPError(.badRequest) }
                let rotation = Rotation(
                    session: grant.refresh_token,
                    counter: read.counter,
                    userID: read.userID,
                    now: Date().timeIntervalSince1970
                )
                var rotated = false
                for try await _ in try await connection.execute(rotation, logger: logger) { rotated = true }
                guard rotated else { throw HTTPError(.conflict) }
                let signature = try key.signature(for: signed).rawRepresentation.base64EncodedString()
                return Self.answer(session: grant.refresh_token, signature: signature, length: length)
            }
            return Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: answer)
            )
        }
        let application = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            services: [client],
            logger: logger
        )
        try await application.runService()
    }

    /// `{"refresh_token":"<session>","signature":"<signature>","padding":"…"}`, padded to
    /// `length` bytes, written into one buffer. Built as strings, its padding by
    /// `String(repeating:count:)`, it cost this bound about a tenth of its CPU (a profile at 64
    /// connections: 50 of 536 µs a refresh), which no part of the server pays: a bound must
    /// not be slower than what it bounds.
    static func answer(session: String, signature: String, length: Int) -> ByteBuffer {
        let head = #"{"refresh_token":""#
        let middle = #"","signature":""#
        let tail = #"","padding":""#
        let written =
            head.utf8.count + session.utf8.count + middle.utf8.count + signature.utf8.count
            + tail.utf8.count + 2
        var buffer = ByteBufferAllocator().buffer(capacity: max(length, written))
        buffer.writeString(head)
        buffer.writeString(session)
        buffer.writeString(middle)
        buffer.writeString(signature)
        buffer.writeString(tail)
        buffer.writeRepeatingByte(UInt8(ascii: "x"), count: max(0, length - written))
        buffer.writeString(#""}"#)
        return buffer
    }
}
