import Foundation
import Testing

/// The action's `setup-` steps, which the composite runner skips, run one at a time with stub
/// `swift`, `pkg-config` and `apt-get` as the only commands beside a few system utilities, in a
/// temporary folder: the cache key, the dependency test and the check of a restored binary.
@Suite("The GitHub Action's setup steps")
struct GitHubActionSetupTests {
    static let utilities = ["bash", "env", "ls", "id", "find", "sort", "xargs", "cksum", "tr", "mkdir", "cat", "rm", "cp", "dirname", "head", "chmod"]

    struct Sandbox {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("action-setup-\(UUID().uuidString)").path
        var stubs: String { root + "/stubs" }
        var log: String { root + "/calls" }

        init() throws {
            try FileManager.default.createDirectory(atPath: root + "/stubs", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/temp", withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: root + "/calls", contents: nil)
            for utility in GitHubActionSetupTests.utilities {
                let real = try #require(programOnPath(utility), "\(utility) is missing")
                try FileManager.default.createSymbolicLink(atPath: stubs + "/" + utility, withDestinationPath: real)
            }
        }

        /// A stub command: its arguments are logged, then `body` runs.
        func stub(_ name: String, _ body: String) throws {
            let file = stubs + "/" + name
            try "#!\(stubs)/bash\necho \"\(name) $*\" >> '\(log)'\n\(body)\n".write(toFile: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file)
        }

        var calls: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        /// Runs step `id` of action.yml; returns its status, stdout and `$GITHUB_OUTPUT` values.
        func run(_ id: String, environment extra: [String: String]) throws -> (status: Int32, stdout: String, outputs: [String: String]) {
            let action = try WorkflowYAML.parse(try String(contentsOfFile: repositoryPath("action.yml"), encoding: .utf8))
            let step = try #require(action["runs"]?["steps"]?.items.first { $0["id"]?.text == id })
            let script = try #require(step["run"]?.text)
            try script.write(toFile: root + "/step.sh", atomically: true, encoding: .utf8)
            for name in ["output", "path", "stdout"] { _ = FileManager.default.createFile(atPath: root + "/" + name, contents: nil) }
            var environment = ["PATH": stubs, "HOME": root, "RUNNER_TEMP": root + "/temp", "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
                               "GITHUB_OUTPUT": root + "/output", "GITHUB_PATH": root + "/path", "ACTION_PATH": repositoryRoot.path]
            environment.merge(extra) { $1 }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: stubs + "/bash")
            process.arguments = ["--noprofile", "--norc", "-eo", "pipefail", root + "/step.sh"]
            process.environment = environment
            process.currentDirectoryURL = URL(fileURLWithPath: root)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: root + "/stdout"))
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return (process.terminationStatus, try String(contentsOfFile: root + "/stdout", encoding: .utf8),
                    try CompositeActionRunner.commandFile(root + "/output"))
        }

        func close() { try? FileManager.default.removeItem(atPath: root) }
    }

    static func key(image: String, cmark: String) throws -> String {
        let sandbox = try Sandbox()
        defer { sandbox.close() }
        try sandbox.stub("swift", "echo 'Swift version 6.3'")
        try sandbox.stub("pkg-config", "echo '\(cmark)'")
        let result = try sandbox.run("setup-key", environment: ["ImageOS": image, "ImageVersion": "20261120.1"])
        #expect(result.status == 0)
        return try #require(result.outputs["key"])
    }

    @Test func theCacheKeyNamesTheImageAndTheCmarkVersion() throws {
        let jammy = try Self.key(image: "ubuntu22", cmark: "0.29.0.gfm.3")
        #expect(jammy == (try Self.key(image: "ubuntu22", cmark: "0.29.0.gfm.3")))
        #expect(jammy != (try Self.key(image: "ubuntu24", cmark: "0.29.0.gfm.3")))
        #expect(jammy != (try Self.key(image: "ubuntu22", cmark: "0.29.0.gfm.13")))
        #expect(jammy.contains("ubuntu22"))
    }

    /// `pkg-config` finds the core library; the extensions' header is in `include` only when
    /// `withExtensions`.
    static func deps(withExtensions: Bool) throws -> (status: Int32, stdout: String, calls: String) {
        let sandbox = try Sandbox()
        defer { sandbox.close() }
        let include = sandbox.root + "/include", lib = sandbox.root + "/lib"
        try FileManager.default.createDirectory(atPath: include, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: include + "/cmark-gfm.h", contents: nil)
        _ = FileManager.default.createFile(atPath: lib + "/libcmark-gfm.so", contents: nil)
        if withExtensions {
            _ = FileManager.default.createFile(atPath: include + "/cmark-gfm-core-extensions.h", contents: nil)
            _ = FileManager.default.createFile(atPath: lib + "/libcmark-gfm-extensions.so", contents: nil)
        }
        try sandbox.stub("swift", "exit 0")
        try sandbox.stub("pkg-config", """
            case "$*" in
              *includedir*) echo '\(include)' ;;
              *libdir*) echo '\(lib)' ;;
            esac
            exit 0
            """)
        try sandbox.stub("apt-get", "exit 0")
        try sandbox.stub("sudo", "\"$@\"")
        let result = try sandbox.run("setup-deps", environment: [:])
        return (result.status, result.stdout, sandbox.calls)
    }

    @Test func theCoreLibraryAloneIsNotEnough() throws {
        let missing = try Self.deps(withExtensions: false)
        #expect(missing.calls.contains("apt-get update"))
        #expect(missing.calls.contains("libcmark-gfm-extensions-dev"))
        // The stub installs nothing: the step says so and fails rather than let the build fail later.
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("::error title=fallback-site::installed, but pkg-config still does not find"))
        let present = try Self.deps(withExtensions: true)
        #expect(present.status == 0)
        #expect(!present.calls.contains("apt-get"))
    }

    /// `bin/fallback-site` as restored from the cache: `runs` says whether it starts here.
    static func build(restoredBinaryRuns runs: Bool) throws -> (status: Int32, stdout: String, calls: String) {
        let sandbox = try Sandbox()
        defer { sandbox.close() }
        let bin = sandbox.root + "/bin", built = sandbox.root + "/built"
        for folder in [bin, built] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for (folder, works) in [(bin, runs), (built, true)] {
            try "#!\(sandbox.stubs)/bash\nexit \(works ? 0 : 127)\n".write(toFile: folder + "/fallback-site", atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/fallback-site")
        }
        try sandbox.stub("swift", "case \"$*\" in *--show-bin-path*) echo '\(built)' ;; esac")
        let result = try sandbox.run("setup-build", environment: ["BIN": bin, "CACHE_HIT": "true"])
        return (result.status, result.stdout, sandbox.calls)
    }

    @Test func aRestoredBinaryThatDoesNotRunIsRebuilt() throws {
        let broken = try Self.build(restoredBinaryRuns: false)
        #expect(broken.status == 0)
        #expect(broken.stdout.contains("::warning title=fallback-site::the cached fallback-site does not run"))
        #expect(broken.calls.contains("swift build -c release"))
        let working = try Self.build(restoredBinaryRuns: true)
        #expect(working.status == 0)
        #expect(!working.calls.contains("swift build"))
    }
}
