// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "cardfeed",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cardfeed", targets: ["CardFeedCLI"]),
        .library(name: "CardFeedCore", targets: ["CardFeedCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Debian's libcmark-dev, found through pkg-config.
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        // Loading, selecting, rendering and writing a site: everything but the command line.
        .target(
            name: "CardFeedCore",
            dependencies: [
                "CCmark",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["EmbedFiles"]
        ),
        .executableTarget(
            name: "CardFeedCLI",
            dependencies: [
                "CardFeedCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Build-time embedding of templates/ and assets/, so the binary works from any directory.
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(
            name: "EmbedFiles",
            capability: .buildTool(),
            dependencies: ["EmbedFilesTool"]
        ),
        .testTarget(
            name: "CardFeedCoreTests",
            dependencies: ["CardFeedCore", .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures", "Golden"]
        ),
    ]
)
