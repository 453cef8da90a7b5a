// swift-tools-version:6.0
import PackageDescription

// C shims → libraries → a thin `recents` executable. Data flows one way:
// HTTPServer and RecentsCore know nothing of each other; RecentsStore needs Core;
// RecentsAPI needs all three; the executable only wires configuration to RecentsAPI.
let package = Package(
    name: "Recents",
    products: [
        .executable(name: "recents", targets: ["recents"]),
        .library(name: "RecentsCore", targets: ["RecentsCore"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "CHTTPShim", path: "Sources/CHTTPShim"),
        .target(name: "RecentsCore"),
        .target(
            name: "RecentsStore", dependencies: ["RecentsCore", "CSQLite", "SystemSupport"], plugins: ["EmbedFiles"]),
        // Build-time embedding of files that ship inside the binary (Migrations/, docs/openapi.json);
        // what each target embeds is listed in Plugins/EmbedFiles.
        .executableTarget(name: "embed-files", path: "Sources/embed-files"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        // Small helpers every layer's byte output shares (decimal digits, Duration units).
        .target(name: "SystemSupport"),
        .target(name: "HTTPServer", dependencies: ["CHTTPShim", "SystemSupport"]),
        .target(
            name: "RecentsAPI", dependencies: ["RecentsCore", "RecentsStore", "HTTPServer", "SystemSupport"],
            plugins: ["EmbedFiles"]),
        .executableTarget(name: "recents", dependencies: ["RecentsAPI", "RecentsCore", "HTTPServer"]),
        .executableTarget(
            name: "recents-bench", dependencies: ["RecentsCore", "RecentsAPI", "SystemSupport"],
            path: "Benchmarks/RecentsBench"),
        .testTarget(name: "RecentsCoreTests", dependencies: ["RecentsCore"]),
        .testTarget(name: "RecentsStoreTests", dependencies: ["RecentsStore", "RecentsCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .target(name: "RecentsTestSupport", path: "Tests/RecentsTestSupport"),
        .testTarget(
            name: "RecentsAPITests",
            dependencies: ["RecentsAPI", "RecentsStore", "RecentsCore", "HTTPServer", "RecentsTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
