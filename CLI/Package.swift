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
    name: "GatehouseCLI",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "gatehouse", targets: ["gatehouse"])
    ],
    dependencies: [
        // The SDK at the repository root. The explicit name keeps the identity independent of the clone's folder.
        .package(name: "Gatehouse", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Tests only: signing fake Apple ID tokens (the SDK already depends on it on Linux).
        .package(url: "https://github.com/apple/swift-crypto.git", "4.1.0"..<"6.0.0"),
        // Tests only: the child process and the server launcher the server's tests use too
        // (TestSupport/, at the repository root).
        .package(path: "../TestSupport"),
    ],
    targets: [
        .target(
            name: "GatehouseCLI",
            dependencies: [
                .product(name: "Gatehouse", package: "Gatehouse"),
                .product(name: "GatehouseGoTrue", package: "Gatehouse"),
            ]
        ),
        .executableTarget(
            name: "gatehouse",
            dependencies: [
                "GatehouseCLI",
                // The terminal QR code of `gatehouse mfa enroll`.
                .product(name: "GatehouseQR", package: "Gatehouse"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                .product(name: "Gatehouse", package: "Gatehouse"),
                .product(name: "GatehouseGoTrue", package: "Gatehouse"),
                // The contract suite runs against the in-memory backend as well as the server.
                .product(name: "GatehouseTesting", package: "Gatehouse"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GatehouseProcessTesting", package: "TestSupport"),
            ],
            // The Python driver of the pseudo-terminal test, and the fake GitHub and browser driver
            // of the provider login's test, run by path.
            exclude: ["Terminal", "Providers"]
        ),
        .testTarget(
            name: "GatehouseCLITests",
            dependencies: [
                "GatehouseCLI",
                .product(name: "GatehouseTesting", package: "Gatehouse"),
            ]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + swiftSettings
}
