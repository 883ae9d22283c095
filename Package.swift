// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "fallback-site",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RovenueFallback", targets: ["RovenueFallback"]),
        .library(name: "FallbackAudit", targets: ["FallbackAudit"]),
        .executable(name: "fallback-site", targets: ["fallback-site"]),
        // For the fuzz targets in Fuzz/, a package of its own that depends on this one.
        .library(name: "FallbackSite", targets: ["FallbackSite"]),
        .library(name: "FallbackCLI", targets: ["FallbackCLI"]),
        .library(name: "Mustache", targets: ["Mustache"]),
        .library(name: "Markdown", targets: ["Markdown"]),
    ],
    targets: [
        // What an SDK links: strict JSON reading with positions, typed decoding, loader, resolver, bucketing.
        // libm: `rounded()` calls C `round`, which nothing else links on Linux.
        .target(name: "RovenueFallback", linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // Checks beyond decoding: the rule catalogue and findings.
        .target(name: "FallbackAudit", dependencies: ["RovenueFallback"]),
        // Deterministic synthetic exports for benchmarks and demos.
        .target(name: "FallbackSample", dependencies: ["RovenueFallback"]),
        // Mustache templates (the official spec), independent of the rest.
        .target(name: "Mustache"),
        // cmark-gfm from the system (Debian: libcmark-gfm-dev, libcmark-gfm-extensions-dev; Homebrew: cmark-gfm).
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [
                .apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]),
                .brew(["cmark-gfm"]),
            ]
        ),
        .target(name: "Markdown", dependencies: ["CCmarkGFM"]),
        // The static site: page models, drawings, theme, and the writer that puts them on disk.
        .target(
            name: "FallbackSite", dependencies: ["RovenueFallback", "FallbackAudit", "Mustache", "Markdown"],
            plugins: ["EmbedTheme"]),
        // Builds Templates/ and Site/assets/ into FallbackSite, so the binary carries its default theme.
        .executableTarget(name: "embed-theme", path: "Sources/embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),
        // The commands behind the executable, as a library so tests can run them without a process.
        .target(name: "FallbackCLI", dependencies: ["RovenueFallback", "FallbackAudit", "FallbackSample", "FallbackSite", "Mustache"]),
        .executableTarget(name: "fallback-site", dependencies: ["FallbackCLI"]),
        .executableTarget(
            name: "fallback-bench",
            dependencies: ["RovenueFallback", "FallbackAudit", "FallbackSample", "FallbackSite"]
        ),
        .testTarget(name: "RovenueFallbackTests", dependencies: ["RovenueFallback", "FallbackSample"], resources: [.copy("Fixtures")]),
        .testTarget(name: "FallbackAuditTests", dependencies: ["FallbackAudit", "RovenueFallback", "FallbackSample"], resources: [.copy("Fixtures")]),
        .testTarget(name: "MustacheTests", dependencies: ["Mustache"], resources: [.copy("Spec")]),
        .testTarget(name: "MarkdownTests", dependencies: ["Markdown"]),
        .testTarget(name: "FallbackSiteTests", dependencies: ["FallbackSite", "RovenueFallback", "FallbackAudit", "FallbackSample"]),
        .testTarget(name: "FallbackCLITests", dependencies: ["FallbackCLI", "RovenueFallback", "FallbackAudit", "Markdown"]),
    ],
    swiftLanguageModes: [.v6]
)
