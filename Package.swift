// swift-tools-version:6.1
import PackageDescription

// scripts/fuzz.sh sets CARDFEED_LIBFUZZER=1: the fuzz target and the library it drives are then
// compiled with libFuzzer's coverage and AddressSanitizer, and the fuzz target is linked with
// libFuzzer. Only those two targets: the package's build tool (EmbedFilesTool) must stay a normal
// program, which `-Xswiftc -sanitize=fuzzer` on the command line would break.
let fuzzing = Context.environment["CARDFEED_LIBFUZZER"] != nil
let fuzzedCode: [SwiftSetting] = fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"]), .define("CARDFEED_LIBFUZZER")] : []

// The pipeline's targets call each other on the hot path (a card's view reads the model, the
// renderer writes to the output): in release builds their code is offered to the targets that
// use them for inlining and specialisation, as it was when they were one module.
let pipeline: [SwiftSetting] = fuzzedCode + [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// scripts/package.sh sets CARDFEED_SYSTEM_MALLOC=1 for the archive's binary, which must run with
// only the C and C++ runtimes present: Debian ships mimalloc as a shared library only, so that
// binary keeps glibc's allocator (docs/performance.md gives the cost).
let systemMalloc = Context.environment["CARDFEED_SYSTEM_MALLOC"] != nil
let allocator: [Target.Dependency] = systemMalloc ? [] : [.target(name: "CMimalloc", condition: .when(platforms: [.linux]))]

let package = Package(
    name: "cardfeed",
    platforms: [.macOS("26.0")],
    // The command alone: the libraries are compiled with unsafe flags (see `pipeline`), which
    // SwiftPM refuses in a package's dependencies, so no other package could use them.
    products: [
        .executable(name: "cardfeed", targets: ["CardFeedCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // The preview server of `cardfeed serve`: small and quick to build (see STACK-NOTES).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // Debian's libcmark-dev, found through pkg-config.
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        // Debian's libmimalloc-dev (no pkg-config file). Linked into the command on Linux, it takes
        // over malloc for the whole process: a build allocates and frees millions of small
        // strings, and glibc's allocator makes malloc and free a large share of it
        // (docs/performance.md gives the figures).
        .systemLibrary(
            name: "CMimalloc",
            providers: [.apt(["libmimalloc-dev"])]
        ),
        // Debian's zlib1g-dev: gzip, to read and rewrite the parts of Pagefind's index that
        // CardFeed puts in a fixed order (Sources/CardFeedBuild/Search/PagefindIndexOrder.swift).
        .systemLibrary(
            name: "CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // Debian's libxxhash-dev, header-only: the hash of the build cache's keys and checksums
        // (StableHash), the same from process to process, where Swift's `Hasher` is seeded anew
        // in each.
        .systemLibrary(
            name: "CXXHash",
            providers: [.apt(["libxxhash-dev"]), .brew(["xxhash"])]
        ),
        // Exchanging two folders in one rename (renameat2 is not in Swift's Glibc module).
        .target(name: "CFileSwap"),
        // pipe2 and posix_spawn's chdir action, for ChildProcess (not in Swift's Glibc module).
        .target(name: "CSpawn"),
        // main's argc and argv and the program's own path, which Swift on Linux reads from /proc
        // (see arguments.c).
        .target(name: "CArguments"),
        // libFuzzer's driver, declared for the system layer's `LibFuzzer` in the fuzz build
        // (libFuzzer itself defines it).
        .target(name: "CLibFuzzer"),
        // The Mustache template engine: templates parsed once, rendered by appending bytes, with
        // names looked up through typed views (MustacheObject) rather than reflection.
        .target(name: "CardFeedMustache"),
        // The system layer, under the pipeline: bytes read in place, system calls, parallel loops,
        // the JSON parser, child processes, gzip, main's arguments, libFuzzer's entry point (in the
        // fuzz build). The unsafe code of the pipeline is here, each piece a small safe API the
        // rest uses (docs/architecture.md).
        .target(
            name: "CardFeedSystem",
            dependencies: ["CSpawn", "CZlib", "CXXHash", "CArguments"] + (fuzzing ? ["CLibFuzzer"] : []),
            swiftSettings: pipeline
        ),
        // The pipeline, one target a step; each may use only the targets before it, so a step that
        // reached for a later step's type would not compile (docs/architecture.md).
        // The values every step shares: cards, diagnostics, the site folder, the files built into
        // the binary, and small helpers (escaping, URL checks, paths).
        .target(
            name: "CardFeedModel",
            dependencies: ["CardFeedSystem"],
            swiftSettings: pipeline,
            plugins: ["EmbedFiles"]
        ),
        // Files to values: cardfeed.yml, string tables, card files (with Markdown).
        .target(
            name: "CardFeedLoad",
            dependencies: [
                "CardFeedSystem",
                "CardFeedModel",
                "CCmark",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: pipeline
        ),
        // The selection of what each feed, page and placement shows: rules, filter, order,
        // pagination, and on a site in several languages which tree each card goes to.
        .target(
            name: "CardFeedSelect",
            dependencies: ["CardFeedModel", "CardFeedLoad"],
            swiftSettings: pipeline
        ),
        // Where a build's files go: a folder replaced as a whole, one updated in place, memory.
        .target(
            name: "CardFeedWrite",
            dependencies: ["CardFeedSystem", "CardFeedModel", "CFileSwap"],
            swiftSettings: pipeline
        ),
        // Views, templates and pages: selected cards to bytes, streamed to an output.
        .target(
            name: "CardFeedRender",
            dependencies: ["CardFeedSystem", "CardFeedModel", "CardFeedLoad", "CardFeedSelect", "CardFeedWrite", "CardFeedMustache"],
            swiftSettings: pipeline
        ),
        // A build: the steps above in order, where the output goes, and what serve reuses.
        .target(
            name: "CardFeedBuild",
            dependencies: [
                "CardFeedSystem",
                "CardFeedModel",
                "CardFeedLoad",
                "CardFeedSelect",
                "CardFeedWrite",
                "CardFeedRender",
                "CArguments",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: pipeline
        ),
        // `cardfeed serve`: the preview server, the file watcher and the live-reload channel.
        .target(
            name: "CardFeedServe",
            dependencies: [
                "CardFeedSystem",
                "CardFeedBuild",
                "CardFeedModel",
                "CardFeedRender",
                "CardFeedWrite",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "CardFeedCLI",
            dependencies: [
                "CardFeedSystem",
                "CardFeedBuild",
                "CardFeedModel",
                "CardFeedLoad",
                "CardFeedRender",
                "CardFeedServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ] + allocator
        ),
        // The fuzz target over loading and rendering a card file (scripts/fuzz.sh builds it with
        // libFuzzer); built normally it replays card files through the same checks.
        .executableTarget(
            name: "CardFeedFuzz",
            dependencies: ["CardFeedSystem", "CardFeedBuild", "CardFeedModel", "CardFeedRender"],
            swiftSettings: fuzzedCode,
            linkerSettings: fuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address", "-use-ld=lld"])] : []
        ),
        // Build-time embedding of templates/ and assets/, so the binary works from any directory.
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(
            name: "EmbedFiles",
            capability: .buildTool(),
            dependencies: ["EmbedFilesTool"]
        ),
        // Each test target is named after the target its tests are about; the tests that build a
        // whole site are CardFeedBuild's.
        .testTarget(
            name: "CardFeedSystemTests",
            dependencies: ["CardFeedSystem"]
        ),
        .testTarget(
            name: "CardFeedModelTests",
            dependencies: ["CardFeedModel"]
        ),
        .testTarget(
            name: "CardFeedLoadTests",
            dependencies: ["CardFeedLoad", "CardFeedModel", "CardFeedRender", "CCmark"]
        ),
        .testTarget(
            name: "CardFeedSelectTests",
            dependencies: ["CardFeedSelect", "CardFeedLoad", "CardFeedModel", "CardFeedRender"]
        ),
        .testTarget(
            name: "CardFeedWriteTests",
            dependencies: ["CardFeedWrite"]
        ),
        .testTarget(
            name: "CardFeedRenderTests",
            dependencies: ["CardFeedRender", "CardFeedLoad", "CardFeedSelect", "CardFeedModel", "CardFeedMustache"]
        ),
        .testTarget(
            name: "CardFeedBuildTests",
            dependencies: ["CardFeedSystem", "CardFeedModel", "CardFeedLoad", "CardFeedSelect", "CardFeedWrite", "CardFeedRender", "CardFeedBuild", .product(name: "Logging", package: "swift-log")],
            exclude: ["Fixtures", "Golden"]
        ),
        // The official Mustache specification's tests (Spec/, MIT), every case of every file,
        // rendered with the HTML escaping the templates use.
        .testTarget(
            name: "CardFeedMustacheTests",
            dependencies: ["CardFeedMustache", "CardFeedModel", "CardFeedRender"],
            resources: [.copy("Spec")]
        ),
        .testTarget(
            name: "CardFeedFuzzTests",
            dependencies: ["CardFeedFuzz", "CardFeedModel", "CardFeedLoad", "CardFeedWrite", "CardFeedRender", "CardFeedBuild"],
            resources: [.copy("Regressions")]
        ),
        // The command line's own formatting (the build summary), with reports made by hand.
        .testTarget(
            name: "CardFeedCLITests",
            dependencies: ["CardFeedCLI", "CardFeedBuild", "CardFeedModel"]
        ),
        .testTarget(
            name: "CardFeedServeTests",
            dependencies: ["CardFeedServe", "CardFeedModel", "CardFeedLoad", "CardFeedWrite", "CardFeedRender", "CardFeedBuild"]
        ),
    ]
)
