// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "fallback-site",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RovenueFallback", targets: ["RovenueFallback"]),
        .library(name: "FallbackAudit", targets: ["FallbackAudit"]),
        .library(name: "FallbackDiff", targets: ["FallbackDiff"]),
        .library(name: "FallbackHistory", targets: ["FallbackHistory"]),
        .library(name: "FallbackReports", targets: ["FallbackReports"]),
        .executable(name: "fallback-site", targets: ["fallback-site"]),
        // For the fuzz targets in Fuzz/, a package of its own that depends on this one.
        .library(name: "FallbackSite", targets: ["FallbackSite"]),
        .library(name: "FallbackCLI", targets: ["FallbackCLI"]),
        .library(name: "FallbackMustache", targets: ["FallbackMustache"]),
        .library(name: "FallbackMarkdown", targets: ["FallbackMarkdown"]),
    ],
    targets: [
        // What an SDK links: strict JSON reading with positions, typed decoding, loader, resolver, bucketing.
        // libm: `rounded()` calls C `round`, which nothing else links on Linux.
        .target(
            name: "RovenueFallback", dependencies: ["CSHA256", "CByteMasks"],
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // SHA-256's compression function with the processor's SHA instructions (x86-64 SHA-NI),
        // for `SHA256Hasher`, which checks they exist and otherwise runs its own Swift rounds. C
        // because Swift has no way to emit these instructions; no library beyond the C compiler's headers.
        .target(name: "CSHA256"),
        // Byte tests on 64-byte blocks as 64-bit masks with SSE2's `pmovmskb`, for stage 1 of the
        // parse (`SSE2BlockMasks`): Swift's portable SIMD types have no operation that gathers a
        // mask's lanes into bits. x86-64 only; elsewhere `PortableBlockMasks` gives the same masks.
        .target(name: "CByteMasks"),
        // Checks beyond decoding: the rule catalogue and findings, and the file access every tool shares.
        .target(name: "FallbackAudit", dependencies: ["RovenueFallback"]),
        // What changes for an offline device between two snapshots.
        .target(name: "FallbackDiff", dependencies: ["RovenueFallback", "FallbackAudit"]),
        // A series of snapshots (files, folders, a file's git history), its timeline and fingerprints.
        .target(name: "FallbackHistory", dependencies: ["RovenueFallback", "FallbackAudit"]),
        // Check, diff and history reports in every format, and the project configuration.
        .target(name: "FallbackReports", dependencies: ["RovenueFallback", "FallbackAudit", "FallbackDiff", "FallbackHistory"]),
        // Deterministic synthetic exports for benchmarks and demos.
        .target(name: "FallbackSample", dependencies: ["RovenueFallback"]),
        // Mustache templates (the official spec), independent of the rest. Not named `Mustache`, so an
        // adopter that already links a package of that name (e.g. swift-mustache) has no clash.
        .target(name: "FallbackMustache"),
        // cmark-gfm from the system (Debian: libcmark-gfm-dev, libcmark-gfm-extensions-dev; Homebrew: cmark-gfm).
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [
                .apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]),
                .brew(["cmark-gfm"]),
            ]
        ),
        // Markdown to HTML with cmark-gfm. Not named `Markdown`, which apple/swift-markdown uses.
        .target(name: "FallbackMarkdown", dependencies: ["CCmarkGFM"]),
        // The static site: page models, drawings, theme, and the writer that puts them on disk.
        .target(
            name: "FallbackSite",
            dependencies: [
                "RovenueFallback", "FallbackAudit", "FallbackDiff", "FallbackHistory", "FallbackMustache", "FallbackMarkdown",
            ],
            plugins: ["EmbedTheme"]),
        // Builds Templates/ and Site/assets/ into FallbackSite, so the binary carries its default theme.
        .executableTarget(name: "embed-theme", path: "Sources/embed-theme"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["embed-theme"]),
        // The commands behind the executable, as a library so tests can run them without a process.
        .target(
            name: "FallbackCLI",
            dependencies: [
                "RovenueFallback", "FallbackAudit", "FallbackDiff", "FallbackHistory", "FallbackReports", "FallbackSample",
                "FallbackSite", "FallbackMustache",
            ]),
        .executableTarget(name: "fallback-site", dependencies: ["FallbackCLI", "RovenueFallback"]),
        .executableTarget(
            name: "fallback-bench",
            dependencies: ["RovenueFallback", "FallbackAudit", "FallbackHistory", "FallbackSample", "FallbackSite"]
        ),
        .testTarget(
            name: "RovenueFallbackTests", dependencies: ["RovenueFallback", "FallbackSample"], exclude: ["Expected"], resources: [.copy("Fixtures")]),
        // Helpers only test targets link: snapshot builders and the tests' clock (audit level), and
        // series held in memory (history level). Each test target depends on its module, the modules
        // below it and these; a test that checks two modules agree lives with the lowest that sees both.
        .target(name: "FallbackTestSupport", dependencies: ["RovenueFallback", "FallbackAudit"], path: "Tests/FallbackTestSupport"),
        .target(
            name: "FallbackHistoryTestSupport", dependencies: ["RovenueFallback", "FallbackHistory", "FallbackTestSupport"],
            path: "Tests/FallbackHistoryTestSupport"),
        .testTarget(
            name: "FallbackAuditTests",
            dependencies: ["FallbackAudit", "RovenueFallback", "FallbackSample", "FallbackTestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "FallbackDiffTests", dependencies: ["FallbackDiff", "FallbackAudit", "RovenueFallback", "FallbackTestSupport", "FallbackSample"]),
        .testTarget(
            name: "FallbackHistoryTests",
            dependencies: ["FallbackHistory", "FallbackAudit", "RovenueFallback", "FallbackTestSupport", "FallbackHistoryTestSupport"]),
        .testTarget(
            name: "FallbackReportsTests",
            dependencies: [
                "FallbackReports", "FallbackDiff", "FallbackHistory", "FallbackAudit", "RovenueFallback", "FallbackTestSupport",
                "FallbackHistoryTestSupport",
            ]),
        .testTarget(name: "FallbackMustacheTests", dependencies: ["FallbackMustache"], resources: [.copy("Spec")]),
        .testTarget(name: "FallbackMarkdownTests", dependencies: ["FallbackMarkdown"]),
        .testTarget(
            name: "FallbackSiteTests",
            dependencies: [
                "FallbackSite", "RovenueFallback", "FallbackAudit", "FallbackDiff", "FallbackHistory", "FallbackSample", "FallbackTestSupport",
            ]),
        .testTarget(
            name: "FallbackCLITests",
            dependencies: [
                "FallbackCLI", "RovenueFallback", "FallbackAudit", "FallbackDiff", "FallbackHistory", "FallbackReports",
                "FallbackMarkdown", "FallbackSample",
            ]),
        // The benchmark's pure parts: goal verdicts, number formatting, its input generators, its child processes.
        .testTarget(name: "FallbackBenchTests", dependencies: ["fallback-bench", "RovenueFallback", "FallbackAudit", "FallbackDiff"]),
    ],
    swiftLanguageModes: [.v6]
)
