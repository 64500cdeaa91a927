// swift-tools-version: 6.2
import PackageDescription

#if os(Linux)
import Glibc
#endif

let swiftSettings: [SwiftSetting] = [
    // Each function in a section of its own, so that lld can lay out the code a start runs in
    // one place (`Linking/startup.order`, see `serverLinkerSettings`).
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("ImmutableWeakCaptures"),
]

/// How `gatehouse-server` is linked. On Linux with glibc 2.36 or later (Debian 12, Ubuntu 24.04),
/// it is linked by the toolchain's lld with its relative relocations packed (`DT_RELR`): the
/// dynamic loader then reads a bitmap of about 14 KiB at start instead of a 1.2 MiB table of
/// 52,000 `R_X86_64_RELATIVE` entries, which stayed resident for the life of the process (issue 20,
/// idle memory). Older glibc cannot load such a binary, so there the default linker is kept.
///
/// lld also lays out the code a start runs in one place (`Linking/startup.order`, written by
/// `scripts/link-order` from the pages a traced start ran): the kernel maps a binary's code in
/// 64 KiB blocks around each page it runs, so code run at start and scattered through 19 MiB kept
/// 11.8 MiB of it resident at idle; gathered, 9.3 MiB (issue 35). Symbols the order names and the
/// binary no longer has are skipped without a warning, so a stale order still links.
let serverLinkerSettings: [LinkerSetting] = {
    #if os(Linux)
    // "glibc 2.36"
    var text = [CChar](repeating: 0, count: 64)
    let written = confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count)
    let answer = written > 0 ? text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) } : []
    let version =
        String(decoding: answer, as: UTF8.self).split(separator: " ").last?
        .split(separator: ".").compactMap { Int($0) } ?? []
    let loadsPackedRelocations = version.count >= 2 && (version[0], version[1]) >= (2, 36)
    let path = getenv("PATH").map { String(cString: $0) } ?? ""
    let hasLLD = path.split(separator: ":").contains { access("\($0)/ld.lld", X_OK) == 0 }
    if loadsPackedRelocations && hasLLD {
        var flags = ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
        let order = Context.packageDirectory + "/Linking/startup.order"
        if access(order, R_OK) == 0 {
            flags += ["-Xlinker", "--symbol-ordering-file=\(order)", "-Xlinker", "--no-warn-symbol-ordering"]
        }
        return [.unsafeFlags(flags)]
    }
    #endif
    return []
}()

let package = Package(
    name: "GatehouseServer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "gatehouse-server", targets: ["gatehouse-server"]),
        .library(name: "GatehouseServer", targets: ["GatehouseServer"]),
    ],
    dependencies: [
        // The shared wire contract at the repository root; the explicit name keeps the identity
        // independent of the clone's folder name.
        .package(name: "Gatehouse", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        // SQLite itself: the library sqlite-nio bundles, driven through its C API (Storage/SQLite).
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // NIOHTTPTypes (already in the graph through Hummingbird): the request parts a
        // connection's read deadline watches.
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // HTTPResponse.Status in APIError (already in the graph through Hummingbird).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Metrics (GATEHOUSE_METRICS_PORT): swift-metrics' API, exported in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // Tests only: the child process, the server launcher and the deadlines the CLI's
        // end-to-end tests use too (TestSupport/, at the repository root).
        .package(path: "../TestSupport"),
    ],
    targets: [
        // The HTTP edge: routes, controllers, middleware, request contexts and the console's
        // pages. It reaches the flows through GatehouseFlows and nothing below reaches it.
        .target(
            name: "GatehouseServer",
            dependencies: [
                "GatehouseFlows",
                "GatehouseServerSupport",
                "GatehouseStorage",
                .product(name: "GatehouseCore", package: "Gatehouse"),
                .product(name: "GatehouseQR", package: "Gatehouse"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            resources: [.copy("Resources/openapi.yaml")]
        ),
        // The flows: sign-in, sign-up, codes, tokens, identities, MFA, passkeys, imports, mail and
        // the services that compose them, with the configuration they read. No HTTP server: a
        // flow takes values and returns values, and the edge (GatehouseServer) turns them into
        // responses. An import of Hummingbird here does not compile.
        .target(
            name: "GatehouseFlows",
            dependencies: [
                "GatehouseServerSupport",
                "GatehouseStorage",
                "GatehouseWebAuthn",
                .product(name: "GatehouseCore", package: "Gatehouse"),
                .product(name: "GatehouseQR", package: "Gatehouse"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // A provider's key set is fetched with NIO's HTTP/1.1 codec (Identity/OutboundHTTP.swift).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            resources: [.copy("Resources/common-passwords.txt")]
        ),
        // The server's layers, lowest first; an arrow that points the wrong way does not compile.
        // Plain helpers and network addresses (no HTTP server, storage or flow): constant-time
        // comparison, random bytes, JSON writing, UUID text, client addresses, redirect rules.
        .target(
            name: "GatehouseServerSupport",
            dependencies: [
                .product(name: "GatehouseCore", package: "Gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The records and their two databases (SQLite, PostgreSQL), and the rate-limit counters
        // they keep: no HTTP, no flows; the server composes them (Storage/ServerDatabase.swift).
        .target(
            name: "GatehouseStorage",
            dependencies: [
                "GatehouseServerSupport",
                "GatehouseSQLiteSupport",
                .product(name: "GatehouseCore", package: "Gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // WebAuthn verification (registrations and assertions, COSE keys, attestation), pure: it
        // knows neither HTTP, storage nor the server's configuration.
        .target(
            name: "GatehouseWebAuthn",
            dependencies: [
                "GatehouseServerSupport",
                .product(name: "GatehouseCore", package: "Gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA (RS256 passkeys); the rest of WebAuthn is Crypto's P-256 and Ed25519.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // One C call Swift cannot make (a variadic SQLite function); see its header.
        .target(name: "GatehouseSQLiteSupport"),
        .executableTarget(
            name: "gatehouse-server",
            dependencies: [
                "GatehouseServer",
                "GatehouseFlows",
                "GatehouseServerSupport",
                "GatehouseStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            linkerSettings: serverLinkerSettings
        ),
        .executableTarget(
            name: "gatehouse-server-benchmark",
            dependencies: [
                "GatehouseServer",
                "GatehouseFlows",
                "GatehouseStorage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
            ],
            path: "Benchmarks/ServerBenchmark"
        ),
        .testTarget(
            name: "GatehouseServerTests",
            dependencies: [
                "GatehouseServer",
                "GatehouseFlows",
                "GatehouseServerSupport",
                "GatehouseStorage",
                "GatehouseWebAuthn",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                // bcrypt hashes of the import fixtures, written as Supabase and Auth0 export them.
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "GatehouseProcessTesting", package: "TestSupport"),
                // A software passkey authenticator: the console's passkey sign-in, over HTTP.
                .product(name: "GatehouseTesting", package: "Gatehouse"),
                // The benchmark's seeder, whose databases the benchmark's figures stand on.
                "gatehouse-server-benchmark",
            ]
        ),
    ]
)

for target in package.targets where target.name != "GatehouseSQLiteSupport" {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
