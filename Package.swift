// swift-tools-version: 6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
    .enableUpcomingFeature("ImmutableWeakCaptures"),
]

let package = Package(
    name: "Gatehouse",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "GatehouseCore", targets: ["GatehouseCore"]),
        .library(name: "Gatehouse", targets: ["Gatehouse"]),
        .library(name: "GatehouseGoTrue", targets: ["GatehouseGoTrue"]),
        .library(name: "GatehouseTesting", targets: ["GatehouseTesting"]),
        .library(name: "GatehouseQR", targets: ["GatehouseQR"]),
    ],
    dependencies: [
        // Apple's swift-crypto, for SHA-256 on Linux only (CryptoKit on Apple platforms): nonces and the test backend.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0")
    ],
    targets: [
        .target(name: "GatehouseCore"),
        // A QR Code encoder (byte mode, level M) for authenticator-app enrolment: the server's
        // SVG and the CLI's terminal rendering. No dependencies.
        .target(name: "GatehouseQR"),
        .target(
            name: "Gatehouse",
            dependencies: [
                "GatehouseCore",
                .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux, .android, .windows])),
            ]
        ),
        .target(name: "GatehouseGoTrue", dependencies: ["Gatehouse"]),
        .target(
            name: "GatehouseTesting",
            dependencies: [
                "Gatehouse",
                .product(
                    name: "Crypto",
                    package: "swift-crypto",
                    condition: .when(platforms: [.linux, .android, .windows])
                ),
            ]
        ),
        .executableTarget(
            name: "gatehouse-sdk-benchmark",
            dependencies: ["Gatehouse", "GatehouseGoTrue", "GatehouseTesting"],
            path: "Benchmarks/SDKBenchmark"
        ),
        .testTarget(name: "GatehouseCoreTests", dependencies: ["GatehouseCore"]),
        .testTarget(name: "GatehouseQRTests", dependencies: ["GatehouseQR"]),
        .testTarget(name: "GatehouseTests", dependencies: ["Gatehouse", "GatehouseTesting"]),
        .testTarget(name: "GatehouseGoTrueTests", dependencies: ["GatehouseGoTrue", "GatehouseTesting"]),
        // Reads the repository's Markdown and the server's sources as text: the configuration
        // reference against the variables the server reads, and the links between the docs.
        .testTarget(name: "DocumentationTests"),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
