// swift-tools-version: 6.0
import PackageDescription

// `@Shared(.gatehouseAuth)`: Gatehouse's AuthSession through Point-Free's swift-sharing.
// A package of its own, so that the root package keeps no third-party dependency: an app adds
// this one when it wants the `@Shared` form of seed 002.
let package = Package(
    name: "GatehouseSharing",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
    products: [
        .library(name: "GatehouseSharing", targets: ["GatehouseSharing"])
    ],
    dependencies: [
        .package(name: "Gatehouse", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-sharing", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.5.1"),
        .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.4.3"),
    ],
    targets: [
        .target(
            name: "GatehouseSharing",
            dependencies: [
                .product(name: "Gatehouse", package: "Gatehouse"),
                .product(name: "Sharing", package: "swift-sharing"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "IssueReporting", package: "xctest-dynamic-overlay"),
            ],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("InferIsolatedConformances"),
                .enableUpcomingFeature("ImmutableWeakCaptures"),
            ]
        ),
        // Runs where swift-sharing can be fetched (a developer's machine); the repository's CI
        // compiles the adapter against a stand-in of swift-sharing instead (AppleCheck/).
        .testTarget(
            name: "GatehouseSharingTests",
            dependencies: [
                "GatehouseSharing",
                .product(name: "GatehouseTesting", package: "Gatehouse"),
                .product(name: "Sharing", package: "swift-sharing"),
                .product(name: "Dependencies", package: "swift-dependencies"),
                .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"),
            ]
        ),
    ]
)
