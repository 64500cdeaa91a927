// swift-tools-version: 6.0
// The Gatehouse sample app: one SwiftUI app for iOS and macOS. Open this file in Xcode to run
// it on macOS ("My Mac"); for iOS, add the files of Sources/ to an iOS App project (README.md).
import PackageDescription

let package = Package(
    name: "GatehouseExample",
    platforms: [.iOS(.v17), .macOS(.v14)],
    dependencies: [
        // The SDK of this repository, by path.
        .package(name: "Gatehouse", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "GatehouseExample",
            dependencies: [
                .product(name: "Gatehouse", package: "Gatehouse"),
                .product(name: "GatehouseGoTrue", package: "Gatehouse"),
            ],
            path: "Sources",
            swiftSettings: [.swiftLanguageMode(.v6)]
        )
    ]
)
