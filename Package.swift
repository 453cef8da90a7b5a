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
        .systemLibrary(
            name: "CLibPQ",
            path: "Sources/CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .target(name: "CHTTPShim", path: "Sources/CHTTPShim"),
        .target(name: "RecentsCore"),
        .target(
            name: "RecentsStore", dependencies: ["RecentsCore", "CSQLite", "CLibPQ"], plugins: ["EmbedMigrations"]),
        // Build-time embedding of Migrations/*.sql into RecentsStore (see Plugins/EmbedMigrations).
        .executableTarget(name: "embed-migrations", path: "Sources/embed-migrations"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["embed-migrations"]),
        .target(name: "HTTPServer", dependencies: ["CHTTPShim"]),
        .target(name: "RecentsAPI", dependencies: ["RecentsCore", "RecentsStore", "HTTPServer"]),
        .executableTarget(name: "recents", dependencies: ["RecentsAPI", "RecentsCore", "HTTPServer"]),
        .executableTarget(name: "recents-bench", dependencies: ["RecentsCore"], path: "Benchmarks/RecentsBench"),
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
