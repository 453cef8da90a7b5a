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
        .target(name: "CSystemSupport", path: "Sources/CSystemSupport"),
        // Threads, conditions, clocks and write-all over Glibc, shared by the server, the store and the API.
        .target(name: "SystemSupport", dependencies: ["CSystemSupport"]),
        .target(name: "RecentsCore"),
        .target(
            name: "RecentsStore", dependencies: ["RecentsCore", "CSQLite", "CLibPQ", "SystemSupport"],
            plugins: ["EmbedMigrations"]),
        // Build-time embedding of Migrations/*.sql into RecentsStore (see Plugins/EmbedMigrations).
        .executableTarget(name: "embed-migrations", path: "Sources/embed-migrations"),
        .plugin(name: "EmbedMigrations", capability: .buildTool(), dependencies: ["embed-migrations"]),
        .target(name: "HTTPServer", dependencies: ["CHTTPShim", "SystemSupport"]),
        .target(
            name: "RecentsAPI", dependencies: ["RecentsCore", "RecentsStore", "HTTPServer", "SystemSupport"]),
        // The one HTTP/1.1 client (Glibc sockets): `healthcheck` and `seed`, and every test target.
        .target(name: "HTTPClient"),
        // The command line's logic (flags, help, commands), a library so its unit tests can import it.
        .target(
            name: "RecentsCLI",
            dependencies: ["RecentsAPI", "RecentsStore", "RecentsCore", "HTTPServer", "HTTPClient"]
        ),
        .executableTarget(name: "recents", dependencies: ["RecentsCLI"]),
        .executableTarget(name: "recents-bench", dependencies: ["RecentsCore"], path: "Benchmarks/RecentsBench"),
        .testTarget(name: "RecentsCoreTests", dependencies: ["RecentsCore"]),
        .testTarget(name: "RecentsStoreTests", dependencies: ["RecentsStore", "RecentsCore"]),
        .testTarget(
            name: "HTTPServerTests", dependencies: ["HTTPServer", "SystemSupport", "HTTPClient", "RecentsTestSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "RecentsTestSupport"]),
        .testTarget(
            name: "RecentsCLITests",
            dependencies: ["RecentsCLI", "RecentsAPI", "RecentsStore", "HTTPServer", "HTTPClient"]
        ),
        .target(name: "RecentsTestSupport", dependencies: ["HTTPClient"], path: "Tests/RecentsTestSupport"),
        .testTarget(
            name: "RecentsAPITests",
            dependencies: [
                "RecentsAPI", "RecentsStore", "RecentsCore", "HTTPServer", "HTTPClient", "RecentsTestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
