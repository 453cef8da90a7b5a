// swift-tools-version:6.0
import PackageDescription

// C shims → libraries → a thin `recents` executable. Data flows one way:
// HTTPServer and RecentsCore know nothing of each other; RecentsStore needs Core;
// RecentsCrypto wraps libcrypto for Store and API; RecentsAPI needs all of them; the executable only
// wires configuration to RecentsAPI.
let package = Package(
    name: "Recents",
    products: [
        .executable(name: "recents", targets: ["recents"]),
        .library(name: "RecentsCore", targets: ["RecentsCore"]),
        .library(name: "RecentsClient", targets: ["RecentsClient"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // zlib and libbrotli from the system (Debian's zlib1g-dev, libbrotli-dev), linked dynamically:
        // gzip and br for RecentsCompression, with no hand-written codec in the tree.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(
            name: "CBrotliEncoder", path: "Sources/CBrotliEncoder", pkgConfig: "libbrotlienc",
            providers: [.apt(["libbrotli-dev"])]),
        .systemLibrary(
            name: "CBrotliDecoder", path: "Sources/CBrotliDecoder", pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"])]),
        // libpq's header from libpq-dev at build time; the library itself is loaded with dlopen only
        // when a postgresql:// database is opened, so SQLite servers never map it (Sources/CLibPQ).
        .target(name: "CLibPQ", path: "Sources/CLibPQ"),
        // The only cryptography in the tree: thin wrappers over libcrypto (no hand-written primitives).
        .target(name: "RecentsCrypto", dependencies: ["CCrypto"]),
        .target(name: "CHTTPShim", path: "Sources/CHTTPShim"),
        .target(name: "CSystemSupport", path: "Sources/CSystemSupport"),
        // A VFS shim over SQLite's default that writes a group commit's WAL frames in one call.
        .target(name: "CSQLiteVFS", dependencies: ["CSQLite"], path: "Sources/CSQLiteVFS"),
        // Threads, conditions, clocks, write-all, decimal digits and quoting, shared by the server, the store,
        // the API and the build-time embedder.
        .target(name: "SystemSupport", dependencies: ["CSystemSupport"]),
        .target(name: "RecentsCore"),
        // The one JSON reader and writer of the server (byte-level, no Foundation).
        .target(name: "RecentsJSON", dependencies: ["SystemSupport"]),
        // Bearer tokens: JWT verification and signing, scopes, the access decision (pure, over RecentsCrypto).
        .target(name: "RecentsAuth", dependencies: ["RecentsCore", "RecentsCrypto", "RecentsJSON", "SystemSupport"]),
        // Content codings (gzip, br) over zlib and libbrotli: one-shot and streaming encoders, decoders
        // with an output cap, Accept-Encoding negotiation. Used by HTTPClient and embed-files.
        .target(name: "RecentsCompression", dependencies: ["CZlib", "CBrotliEncoder", "CBrotliDecoder"]),
        .target(
            name: "RecentsStore",
            dependencies: [
                "RecentsCore", "RecentsCrypto", "RecentsJSON", "CSQLite", "CSQLiteVFS", "CLibPQ", "SystemSupport",
            ],
            plugins: ["EmbedFiles"]),
        // Build-time embedding of files that ship inside the binary (Migrations/, docs/openapi.json);
        // what each target embeds is listed in Plugins/EmbedFiles.
        // The page's script as one ES module made at build time from its modules (no Node, no bundler).
        .target(name: "ModuleBundler"),
        .executableTarget(
            name: "embed-files", dependencies: ["SystemSupport", "RecentsCompression", "ModuleBundler"],
            path: "Sources/embed-files"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["embed-files"]),
        .target(name: "HTTPServer", dependencies: ["CHTTPShim", "SystemSupport"]),
        .target(
            name: "RecentsAPI",
            dependencies: [
                "RecentsCore", "RecentsStore", "RecentsCrypto", "RecentsJSON", "RecentsAuth", "RecentsCompression",
                "HTTPServer", "SystemSupport",
            ],
            plugins: ["EmbedFiles"]),
        // The one HTTP/1.1 client (Glibc sockets): `healthcheck`, and `seed` and `follow` through
        // RecentsClientCore, and every test target.
        .target(name: "HTTPClient", dependencies: ["SystemSupport", "RecentsCompression"]),
        // The command line's logic (flags, help, commands), a library so its unit tests can import it.
        .target(
            name: "RecentsCLI",
            dependencies: [
                "RecentsAPI", "RecentsStore", "RecentsCore", "RecentsAuth", "HTTPServer", "HTTPClient",
                "SystemSupport", "RecentsClientCore",
            ]
        ),
        .executableTarget(name: "recents", dependencies: ["RecentsCLI"]),
        .executableTarget(
            name: "recents-bench",
            dependencies: ["RecentsCore", "RecentsAPI", "RecentsJSON", "RecentsAuth", "SystemSupport"],
            path: "Benchmarks/RecentsBench"),
        // Bytes per event and memory per open encoder for event-stream compression (not run by CI's tests).
        .executableTarget(
            name: "compression-bench", dependencies: ["RecentsCompression"], path: "Benchmarks/CompressionBench"),
        .testTarget(name: "RecentsCoreTests", dependencies: ["RecentsCore"]),
        // Fixtures/: JWKs and signatures made by PyJWT (its generator script beside them), read by path.
        .testTarget(name: "RecentsCryptoTests", dependencies: ["RecentsCrypto"], exclude: ["Fixtures"]),
        .testTarget(name: "RecentsCompressionTests", dependencies: ["RecentsCompression"]),
        // The Swift client iOS apps embed: Core's pure values, nothing of the server. RecentsClientCore is
        // everything but the network (FoundationEssentials at most, so the command line can use it);
        // RecentsClient adds the URLSession transport and re-exports it.
        .target(name: "RecentsClientCore", dependencies: ["RecentsCore"]),
        .target(name: "RecentsClient", dependencies: ["RecentsClientCore", "RecentsCore"]),
        .testTarget(
            name: "RecentsClientTests",
            dependencies: ["RecentsClient", "RecentsCore", "RecentsAPI", "RecentsTestSupport"]
        ),
        .testTarget(
            name: "RecentsStoreTests",
            dependencies: ["RecentsStore", "RecentsCore", "RecentsCrypto", "RecentsTestSupport"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "SystemSupport", "HTTPClient", "RecentsCore", "RecentsTestSupport"]),
        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport", "RecentsCore"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "RecentsCompression", "RecentsTestSupport"]),
        .testTarget(
            name: "RecentsCLITests",
            dependencies: [
                "RecentsCLI", "RecentsAPI", "RecentsStore", "RecentsCore", "RecentsJSON", "RecentsAuth", "HTTPServer",
                "HTTPClient", "RecentsClientCore", "RecentsCompression", "RecentsTestSupport",
            ]
        ),
        .target(
            name: "RecentsTestSupport", dependencies: ["HTTPClient", "RecentsAuth", "RecentsCrypto"],
            path: "Tests/RecentsTestSupport"),
        .testTarget(name: "RecentsJSONTests", dependencies: ["RecentsJSON"]),
        .testTarget(name: "ModuleBundlerTests", dependencies: ["ModuleBundler"]),
        // Fixtures/: key sets and tokens made by PyJWT (its generator script beside them), read by path.
        .testTarget(
            name: "RecentsAuthTests",
            dependencies: ["RecentsAuth", "RecentsCrypto", "RecentsCore", "RecentsJSON", "RecentsTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "RecentsAPITests",
            dependencies: [
                "RecentsAPI", "RecentsStore", "RecentsCore", "RecentsCrypto", "RecentsJSON", "RecentsAuth",
                "HTTPServer", "HTTPClient", "RecentsTestSupport", "RecentsCompression", "RecentsClientCore",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
