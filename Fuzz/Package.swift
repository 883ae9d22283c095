// swift-tools-version:6.0
// The fuzz targets: a package of its own, so `swift build` and `swift test` of the main package
// never build them. Build and run them with `make fuzz` (see docs/fuzzing.md).
import PackageDescription

/// libFuzzer and AddressSanitizer at link time; `make fuzz` passes the same flag to every Swift
/// compile (`-Xswiftc -sanitize=fuzzer,address`), so the main package's code is instrumented too.
let fuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: "fuzz-\(name)", dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: "fallback-site") },
        linkerSettings: fuzzer)
}

let package = Package(
    name: "fallback-site-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "fallback-site", path: "..")],
    targets: [
        // The declaration of libFuzzer's driver (`LLVMFuzzerRunDriver`).
        .target(name: "FuzzDriver"),
        // The driver call, input splitting, properties, and an in-memory file system for whole commands.
        .target(
            name: "FuzzSupport",
            dependencies: [
                "FuzzDriver", .product(name: "FallbackCLI", package: "fallback-site"), .product(name: "FallbackSite", package: "fallback-site"),
            ]),
        fuzzTarget("json", ["RovenueFallback"]),
        fuzzTarget("mustache", ["FallbackCLI", "FallbackMustache"]),
        fuzzTarget("markdown", ["FallbackSite", "FallbackMarkdown", "FallbackMustache"]),
        fuzzTarget("build", ["FallbackCLI", "FallbackSite"]),
    ],
    swiftLanguageModes: [.v6]
)
