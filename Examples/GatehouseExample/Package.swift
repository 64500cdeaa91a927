// swift-tools-version: 6.0
// The Gatehouse sample app: one SwiftUI app for iOS and macOS. Open this file in Xcode to run
// it on macOS ("My Mac"); for iOS, add the files of Sources/ to an iOS App project (README.md).
import PackageDescription

let package = Package(
    name: "GatehouseExample",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        // The SDK of this repository, by path.
        .package(name: "Gatehouse", path: "../.."),
        // Seed 002's `@Shared(.gatehouseAuth)` (SharedAuthDemo.swift): the adapter package of this
        // repository, and the two Point-Free packages the app's code names (`import Sharing` for
        // `@Shared`, `import Dependencies` for `prepareDependencies`), at the versions the adapter needs.
        .package(name: "GatehouseSharing", path: "../../Integrations/GatehouseSharing"),
        .package(url: "https://github.com/pointfreeco/swift-sharing", from: "2.0.0"),
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.5.1"),
    ],
    targets: [
        .executableTarget(
            name: "GatehouseExample",
            dependencies: [
                .product(name: "Gatehouse", package: "Gatehouse"),
                .product(name: "GatehouseGoTrue", package: "Gatehouse"),
                .product(name: "GatehouseSharing", package: "GatehouseSharing"),
                .product(name: "Sharing", package: "swift-sharing"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ],
            path: "Sources",
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
