// swift-tools-version:6.2
import PackageDescription

/// Ports and adapters (ARCHITECTURE.md has the same table and the path of one request):
/// - `Web` is the core every module but the crypto adapter shares: requests, responses, routing,
///   templates, and the three ports `Responder` (what serves a request), `HTTPClient` (how to call
///   out) and `SharedStore` (the state every worker shares). No sockets and no C library of the
///   project's; Glibc only for the clock, the log's write(2) and memchr.
/// - `PerThread` (what a serving thread keeps to itself) and `Locking` (the one lock, told to
///   ThreadSanitizer) are below everything that needs them.
/// - Adapters implement the ports over the C libraries and are the only modules importing them:
///   `FastCGIServer` (Linux sockets and epoll; libfcgi opens the socket) drives a `Responder`,
///   `CurlClient` (libcurl) is an `HTTPClient`, `OpenSSLCrypto` (OpenSSL) seals, hashes and
///   verifies, `SQLiteStore` (SQLite) and `RedisStore` (hiredis) are the `SharedStore` of the
///   session ledger.
/// - Mechanisms (`Auth0Web`) and apps (`MetadataDemoApp`, `DevTenantKit`) see `Web`, the crypto
///   adapter and `Locking` (`Auth0Web` and the product's app also `PerThread`, the app Prometheus); never a C module
///   or another adapter. The executables wire an app to the FastCGI, libcurl and store adapters.
/// `make test` holds every target to the list below: `scripts/check-imports` refuses an import of
/// a target not declared here (even one reached through another dependency), and the build runs
/// with `--explicit-target-dependency-import-check=error`.
let package = Package(
    name: "metadata-demo",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "metadata-demo", targets: ["metadata-demo"]),
        .executable(name: "dev-tenant", targets: ["dev-tenant"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // C libraries from Debian, with shim headers for what Swift cannot call directly.
        .systemLibrary(name: "CFastCGI", pkgConfig: "fcgi", providers: [.apt(["libfcgi-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // No pkgConfig: hiredis.pc adds -D_FILE_OFFSET_BITS=64, a flag SwiftPM refuses with a warning
        // on every build; the header is in the default include path.
        .systemLibrary(name: "CHiredis", providers: [.apt(["libhiredis-dev"])]),

        // One object per thread, for state a serving thread keeps to itself (pthread keys; no Foundation).
        .target(name: "PerThread"),
        // Swift's Mutex told to ThreadSanitizer (its weak annotations in CRaceAnnotations), so
        // `make sanitize` sees through every lock the modules share state behind.
        .target(name: "CRaceAnnotations"),
        .target(name: "Locking", dependencies: ["CRaceAnnotations"]),

        // The core: requests, responses, routing, forms, cookies, templates, the ports. No sockets.
        .target(
            name: "Web",
            dependencies: ["Locking", "PerThread", .product(name: "ExtrasBase64", package: "swift-extras-base64")]
        ),

        // Adapters: the only modules that import C.
        .target(name: "FastCGIServer", dependencies: ["Web", "CFastCGI", "Locking"]),
        .target(name: "CurlClient", dependencies: ["Web", "PerThread", "CCurl", "CSkipGnuTLSInit"]),
        // GnuTLS, which Debian's libcurl brings in and nothing here uses, told not to set itself up:
        // it finds the program's answer only among the symbols the program exports.
        .target(
            name: "CSkipGnuTLSInit",
            linkerSettings: [
                .unsafeFlags(
                    ["-Xlinker", "--export-dynamic-symbol=_gnutls_global_init_skip"], .when(platforms: [.linux]))
            ]),
        .target(name: "OpenSSLCrypto", dependencies: ["PerThread", "COpenSSL"]),
        // The session ledger's shared store: SQLite on one machine, Redis across machines.
        .target(name: "SQLiteStore", dependencies: ["Web", "CSQLite", "Locking"]),
        .target(name: "RedisStore", dependencies: ["Web", "CHiredis", "Locking"]),

        // Mechanisms: sessions, login transaction, ID tokens, Management API client, settings.
        .target(name: "Auth0Web", dependencies: ["Web", "OpenSSLCrypto", "Locking", "PerThread"]),

        // The product's pages and routes.
        .target(
            name: "MetadataDemoApp",
            dependencies: [
                "Web", "Auth0Web", "OpenSSLCrypto", "PerThread", "Locking",
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),

        // The local Auth0-compatible tenant; shares Web and the crypto adapter with the product, never Auth0Web.
        .target(name: "DevTenantKit", dependencies: ["Web", "OpenSSLCrypto", "Locking"]),

        .executableTarget(
            name: "metadata-demo",
            dependencies: [
                "MetadataDemoApp", "Auth0Web", "OpenSSLCrypto", "Web", "FastCGIServer", "CurlClient", "SQLiteStore",
                "RedisStore", "Locking",
            ],
            // The release binary is position-independent and carries ~74,000 relative relocations;
            // gold writes them as 1.8 MB of RELA records the loader reads (and keeps resident) at every
            // start. The toolchain's lld packs them (DT_RELR, read by Debian 12's glibc 2.36) into 14 KB.
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(name: "dev-tenant", dependencies: ["DevTenantKit", "Web", "FastCGIServer", "CurlClient"]),
        // A micro-benchmark of session cookies, run by `make bench`.
        .executableTarget(
            name: "session-bench", dependencies: ["Auth0Web", "MetadataDemoApp", "Web", "SQLiteStore"]),
        // A libFuzzer target over the parsers (see scripts/fuzz); a plain build replays inputs.
        .executableTarget(name: "fuzz-parsers", dependencies: ["Auth0Web", "Web", "FastCGIServer", "RedisStore"]),

        // What the unit tests share: a scripted tenant, signing keys, a clock, settings fixtures.
        .target(
            name: "TestSupport", dependencies: ["Auth0Web", "OpenSSLCrypto", "Web", "Locking"],
            path: "Tests/TestSupport"),

        .testTarget(name: "WebTests", dependencies: ["Web", "PerThread", "Locking"]),
        .testTarget(name: "OpenSSLCryptoTests", dependencies: ["OpenSSLCrypto"]),
        // One contract suite for both shared stores, each against its real engine (redis-server started by the suite).
        .testTarget(name: "SharedStoreTests", dependencies: ["SQLiteStore", "RedisStore", "Web", "TestSupport"]),
        .testTarget(name: "FastCGIServerTests", dependencies: ["FastCGIServer", "Web", "TestSupport"]),
        .testTarget(
            name: "DevTenantKitTests",
            dependencies: ["DevTenantKit", "Auth0Web", "OpenSSLCrypto", "Web", "TestSupport"]),
        .testTarget(
            name: "Auth0WebTests", dependencies: ["Auth0Web", "OpenSSLCrypto", "Web", "TestSupport", "Locking"]),
        .testTarget(
            name: "MetadataDemoAppTests",
            dependencies: ["MetadataDemoApp", "Auth0Web", "OpenSSLCrypto", "Web", "TestSupport", "Locking"]),
        .testTarget(name: "FuzzTests", dependencies: ["Auth0Web", "Web", "Locking"], exclude: ["Corpus"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "Web", "CurlClient", "Auth0Web", "OpenSSLCrypto", "TestSupport", "Locking", "MetadataDemoApp",
                "DevTenantKit",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
