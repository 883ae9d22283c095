import FallbackCLI
import FallbackSite
import Foundation
import Testing

/// The rules for `build --out` and `theme export DIR`: nothing that is not a site folder is ever
/// replaced, and every refusal is one line with exit status 2. Every path is in a temporary folder.
@Suite("build --out and theme export refuse what they must not replace")
struct OutPathRuleTests {
    let example = repositoryPath("Examples/2026-03-03-release-3.0.json")

    /// Runs in-process with the real disk, or `fileIO` when given.
    func build(_ arguments: [String], fileIO: FileIO = .disk) -> Run {
        let capture = Capture()
        let environment = CommandEnvironment(
            writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
            readFile: { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }, writeFile: { capture.write($0, $1) },
            now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: [:], fileIO: fileIO)
        let status = CommandLineTool.run(arguments, in: environment)
        let (output, error, written) = capture.snapshot
        return Run(status: status, output: output, error: error, written: written)
    }

    /// One refusal: exit status 2 and a single `error:` line that names what to do.
    func expectRefusal(_ result: Run, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 2, "\(result.error)", sourceLocation: sourceLocation)
        let lines = result.error.split(separator: "\n")
        #expect(lines.count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), sourceLocation: sourceLocation)
        #expect(!result.error.contains("NSCocoaErrorDomain"), sourceLocation: sourceLocation)
        for word in words {
            #expect(result.error.contains(word), "\(result.error) should mention \(word)", sourceLocation: sourceLocation)
        }
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func kind(at path: String) -> String? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type].map { "\($0)" }
    }

    // MARK: Item 2: what is not a folder is never replaced

    @Test(arguments: [false, true])
    func theInputSnapshotIsNeverTheOutput(force: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let input = root + "/input.json"
        try FileManager.default.copyItem(atPath: example, toPath: input)
        let before = try Data(contentsOf: URL(fileURLWithPath: input))
        let result = build(["build", input, "--out", input] + (force ? ["--force"] : []))
        expectRefusal(result, mentioning: [input, "input"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["input.json"])
    }

    @Test(arguments: ["text", "empty", "fifo"], [false, true])
    func anExistingNonFolderIsRefused(what: String, force: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/out"
        switch what {
        case "text": try write("precious", to: out)
        case "empty": try write("", to: out)
        default: #expect(mkfifo(out, 0o600) == 0)
        }
        let before = kind(at: out)
        let result = build(["build", example, "--out", out] + (force ? ["--force"] : []))
        expectRefusal(result, mentioning: [out, "not a folder"])
        #expect(kind(at: out) == before)
        if what == "text" { #expect(text(at: out) == "precious") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["out"])
    }

    @Test func aParentThatIsAFileIsRefused() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("precious", to: root + "/notes")
        let result = build(["build", example, "--out", root + "/notes/site", "--force"])
        expectRefusal(result, mentioning: [root + "/notes", "not a folder"])
        #expect(text(at: root + "/notes") == "precious")
    }

    /// As root nothing stops listing a folder, so the disk is asked through a file system that
    /// cannot list this one folder.
    @Test(arguments: [false, true])
    func aFolderThatCannotBeListedIsRefused(force: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/locked"
        try write("mine", to: out + "/thesis.tex")
        var io = FileIO.disk
        io.listDirectory = { path in path == out ? nil : FileIO.disk.listDirectory(path) }
        let result = build(["build", example, "--out", out] + (force ? ["--force"] : []), fileIO: io)
        expectRefusal(result, mentioning: [out, "cannot be listed"])
        #expect(text(at: out + "/thesis.tex") == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["locked"])
    }

    @Test func aFolderItDidNotWriteIsAUsageError() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("mine", to: root + "/out/notes.txt")
        expectRefusal(build(["build", example, "--out", root + "/out"]), mentioning: [root + "/out", "--force"])
        #expect(text(at: root + "/out/notes.txt") == "mine")
    }

    // MARK: The output and the inputs never overlap

    enum Overlap: String, CaseIterable { case sameFolder, containsInput, insideInput }

    /// Each input of `build`, as arguments, with the path the output is placed against.
    static let inputs: [String] = ["snapshot", "folder", "baseline", "config", "templates", "assets", "git-history"]

    @Test(arguments: inputs, Overlap.allCases)
    func theOutputNeverOverlapsAnInput(input: String, overlap: Overlap) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/inputs"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let snapshot = folder + "/snapshot.json"
        try FileManager.default.copyItem(atPath: example, toPath: snapshot)
        try write(#"{"rules": {}}"#, to: folder + "/config.json")
        try write("", to: folder + "/templates/.keep")
        try write("", to: folder + "/assets/.keep")
        var arguments = ["build"]
        let inputPath: String
        switch input {
        case "snapshot": inputPath = snapshot; arguments.append(snapshot)
        case "folder": inputPath = folder; arguments.append(folder)
        case "baseline": inputPath = folder + "/snapshot.json"; arguments += [example, "--baseline", inputPath]
        case "config": inputPath = folder + "/config.json"; arguments += [example, "--config", inputPath]
        case "templates": inputPath = folder + "/templates"; arguments += [example, "--templates", inputPath]
        case "assets": inputPath = folder + "/assets"; arguments += [example, "--assets", inputPath]
        default: inputPath = snapshot; arguments += ["--git-history", snapshot]
        }
        let isFolder = kind(at: inputPath) == "\(FileAttributeType.typeDirectory)"
        let out: String
        switch overlap {
        case .sameFolder: out = isFolder ? inputPath : folder  // the input itself, or the folder that holds it
        case .containsInput: out = root
        case .insideInput: out = inputPath + "/site"
        }
        let listing = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        let result = build(arguments + ["--out", out, "--force"])
        expectRefusal(result, mentioning: ["input", "--out"])
        #expect(try FileManager.default.subpathsOfDirectory(atPath: root).sorted() == listing)
    }

    @Test func anOutputReachedThroughDotsIsComparedWithTheInputs() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/data/sub", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: example, toPath: root + "/data/snapshot.json")
        let result = build(["build", root + "/data/snapshot.json", "--out", root + "/data/sub/..", "--force"])
        expectRefusal(result, mentioning: ["input"])
        #expect(FileManager.default.fileExists(atPath: root + "/data/snapshot.json"))
    }

    /// The temporary folder beside a 250-character name is longer than a name may be.
    @Test func aFailedWriteIsOneLineThatNamesTheOutput() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/" + String(repeating: "s", count: 250)
        let result = build(["build", example, "--out", out])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error: cannot write the site to \(out): "))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!result.error.contains("NSCocoaErrorDomain"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [])
    }

    // MARK: Symbolic links

    @Test func aSymbolicLinkIsRefusedWithoutForce() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("keep", to: root + "/target/notes.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/target")
        expectRefusal(build(["build", example, "--out", root + "/link"]), mentioning: [root + "/link", "symbolic link", "--force"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: root + "/link") == root + "/target")
        #expect(text(at: root + "/target/notes.txt") == "keep")
    }

    @Test(arguments: ["folder", "site", "file", "dangling"])
    func withForceASymbolicLinkIsReplacedAndItsTargetKept(target: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let destination = root + "/target"
        switch target {
        case "folder": try write("keep", to: destination + "/notes.txt")
        case "site":
            #expect(build(["build", example, "--out", destination, "--quiet"]).status == 0)
            try write("keep", to: destination + "/notes.txt")
        case "file": try write("keep", to: destination)
        default: break
        }
        let before = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: destination)
        let result = build(["build", example, "--out", root + "/link", "--force", "--quiet"])
        #expect(result.status == 0, "\(result.error)")
        #expect(kind(at: root + "/link") == "\(FileAttributeType.typeDirectory)")
        #expect(text(at: root + "/link/index.html")?.contains("<html") == true)
        // The target is exactly as it was; nothing else appeared beside the output.
        #expect(try FileManager.default.subpathsOfDirectory(atPath: root).filter { !$0.hasPrefix("link") }.sorted() == before)
        if target != "dangling" { #expect(text(at: destination + (target == "file" ? "" : "/notes.txt")) == "keep") }
    }

    // MARK: Leftovers beside the output

    @Test func onlyItsOwnLeftoversAreRemoved() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // Look like leftovers of a build of `site`, but one holds the input and one is someone's folder.
        try FileManager.default.createDirectory(atPath: root + "/.site.previous-7", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: example, toPath: root + "/.site.previous-7/input.json")
        try write("mine", to: root + "/.site.building-notes/notes.txt")
        try write("mine", to: root + "/.site.previous-1.txt")
        let result = build(["build", root + "/.site.previous-7/input.json", "--out", root + "/site", "--quiet"])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: root + "/.site.previous-7/input.json"))
        #expect(text(at: root + "/.site.building-notes/notes.txt") == "mine")
        #expect(text(at: root + "/.site.previous-1.txt") == "mine")
        #expect(FileManager.default.fileExists(atPath: root + "/site/index.html"))
    }

    // MARK: Item 14: theme export

    @Test func themeExportRefusesANonEmptyFolderUnlessForced() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let layout = root + "/theme/templates/layout.html"
        try write("my layout", to: layout)
        expectRefusal(build(["theme", "export", root + "/theme"]), mentioning: [root + "/theme", "--force"])
        #expect(text(at: layout) == "my layout")
        let forced = build(["theme", "export", root + "/theme", "--force"])
        #expect(forced.status == 0, "\(forced.error)")
        #expect(text(at: layout) != "my layout")
    }

    @Test func themeExportWritesAnEmptyOrMissingFolder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: true)
        #expect(build(["theme", "export", root + "/empty"]).status == 0)
        #expect(build(["theme", "export", root + "/new/theme"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: root + "/empty/templates/layout.html"))
        #expect(FileManager.default.fileExists(atPath: root + "/new/theme/assets/site.css"))
    }

    @Test(arguments: [false, true])
    func themeExportRefusesAFile(force: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try write("precious", to: root + "/theme")
        expectRefusal(build(["theme", "export", root + "/theme"] + (force ? ["--force"] : [])), mentioning: [root + "/theme", "not a folder"])
        #expect(text(at: root + "/theme") == "precious")
    }

    @Test func theHelpStatesTheRules() {
        let help = build(["build", "--help"]).output
        for rule in ["not a folder", "cannot be listed", "symbolic link", "input", "working folder"] {
            #expect(help.contains(rule), "build --help should state: \(rule)")
        }
        #expect(build(["theme", "--help"]).output.contains("--force"))
    }
}

/// `--out` spelled relative to the working folder, run as a separate process in a temporary folder
/// so the test never changes its own working folder.
@Suite(
    "build --out relative to the working folder",
    .enabled(if: suiteRuns(programFound: toolPath != nil), "needs the built fallback-site executable"))
struct RelativeOutPathTests {
    let example = repositoryPath("Examples/2026-03-03-release-3.0.json")

    func launch(_ arguments: [String], in folder: String) throws -> (status: Int32, reason: Process.TerminationReason, error: String) {
        let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let errorPipe = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorPipe
        try process.run()
        let error = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: error, as: UTF8.self))
    }

    func expectRefusal(_ result: (status: Int32, reason: Process.TerminationReason, error: String), sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.reason == .exit, sourceLocation: sourceLocation)
        #expect(result.status == 2, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), sourceLocation: sourceLocation)
    }

    /// The working folder (or a folder above it) is never replaced, not even with --force.
    @Test(arguments: [".", "./", "..", "", "sub/..", "./."], [false, true])
    func theWorkingFolderAndItsParentsAreRefused(out: String, force: Bool) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let work = root + "/work"
        try FileManager.default.createDirectory(atPath: work + "/sub", withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: work + "/notes.txt"))
        let listing = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        expectRefusal(try launch(["build", example, "--out", out] + (force ? ["--force"] : []), in: work))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: root).sorted() == listing)
    }

    @Test(arguments: ["e3/.", "e3/", "a/b/..", "./e3", "a/../e3"])
    func aRelativePathIsNormalisedFirst(out: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        let result = try launch(["build", example, "--out", out, "--quiet"], in: root)
        #expect(result.reason == .exit)
        let expected = out.hasPrefix("a/b") ? "a" : "e3"
        if expected == "a" {
            // `a` holds `b`, which fallback-site did not write: refused, one line, nothing lost.
            expectRefusal(result)
            #expect(result.error.contains("--force"))
            #expect(FileManager.default.fileExists(atPath: root + "/a/b"))
        } else {
            #expect(result.status == 0, "\(result.error)")
            #expect(FileManager.default.fileExists(atPath: root + "/e3/index.html"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["a", "e3"])
        }
    }

    @Test func aRebuildThroughDotsReplacesThePreviousSite() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        #expect(try launch(["build", example, "--out", "a/b/site", "--quiet"], in: root).status == 0)
        let again = try launch(["build", example, "--out", "a/b/site/../site/.", "--quiet"], in: root)
        #expect(again.status == 0, "\(again.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/b").sorted() == ["site"])
        #expect(FileManager.default.fileExists(atPath: root + "/a/b/site/index.html"))
    }
}
