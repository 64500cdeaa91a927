// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("ImmutableWeakCaptures"),
]

/// What the server's tests and the CLI's end-to-end tests both need to drive processes: one
/// home instead of a copy in each package (issue 33). Tests only; no product of the SDK, the
/// server or the CLI depends on it, and it depends on nothing but Foundation.
let package = Package(
    name: "GatehouseTestSupport",
    // The lowest of its users' (the CLI declares macOS 14, the server macOS 15).
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "GatehouseProcessTesting", targets: ["GatehouseProcessTesting"])
    ],
    targets: [
        // A child process with bounded waits (posix_spawn), a `gatehouse-server` on a free
        // loopback port, free ports, blocking calls off the cooperative pool, deadlines.
        .target(name: "GatehouseProcessTesting")
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
