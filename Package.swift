// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Faceoff",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "faceoff", targets: ["faceoff"]),
        .library(name: "FaceoffKit", targets: ["FaceoffKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibical",
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .target(
            name: "FaceoffKit",
            dependencies: [
                "CCurl",
                "CLibical",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .executableTarget(
            name: "faceoff",
            dependencies: [
                "FaceoffKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "FaceoffKitTests",
            dependencies: ["FaceoffKit"]
        ),
        .testTarget(
            name: "FaceoffCLITests",
            dependencies: ["FaceoffKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
