// swift-tools-version:6.2
import PackageDescription

/// Layers, top to bottom: executables → app (pages, tenant endpoints) → mechanisms (Auth0Web)
/// → web (no sockets, no C) → adapters (FastCGI, libcurl, OpenSSL) → C modules.
let package = Package(
    name: "metadata-demo",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "metadata-demo", targets: ["metadata-demo"])
    ],
    dependencies: [
        .package(url: "https://github.com/swift-extras/swift-extras-base64", from: "1.2.0")
    ],
    targets: [
        // C libraries from Debian, with shim headers for what Swift cannot call directly.
        .systemLibrary(name: "CFastCGI", pkgConfig: "fcgi", providers: [.apt(["libfcgi-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),

        // Web layer: requests, responses, routing, forms, cookies, templates. No sockets, no C.
        .target(name: "Web", dependencies: [.product(name: "ExtrasBase64", package: "swift-extras-base64")]),

        // Adapters: the only modules that import C.
        .target(name: "FastCGIServer", dependencies: ["Web", "CFastCGI"]),
        .target(name: "CurlClient", dependencies: ["Web", "CCurl"]),

        // The product's pages and routes.
        .target(name: "MetadataDemoApp", dependencies: ["Web"]),

        .executableTarget(
            name: "metadata-demo",
            dependencies: ["MetadataDemoApp", "FastCGIServer", "CurlClient"]
        ),

        .testTarget(name: "WebTests", dependencies: ["Web"]),
        .testTarget(name: "MetadataDemoAppTests", dependencies: ["MetadataDemoApp", "Web"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Web", "CurlClient"]),
    ],
    swiftLanguageModes: [.v6]
)
