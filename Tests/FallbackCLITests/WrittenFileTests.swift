import FallbackAudit
@testable import FallbackCLI
import FallbackSite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files a command writes where the user says (`sample --out`, `$GITHUB_STEP_SUMMARY`, `theme
/// export`): only nothing or a regular file is written, never a FIFO, a folder, a device or a
/// symbolic link, and a failure is one line that says why. Every path is in a temporary folder.
@Suite("Files a command writes: only a regular file or nothing is written")
struct WrittenFileTests {
    /// Runs in-process with the real process's reads and writes, and captured streams.
    func runLive(_ arguments: [String], variables: [String: String] = [:]) -> Run {
        let capture = Capture()
        let live = CommandEnvironment.live
        let environment = CommandEnvironment(
            writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
            readFile: live.readFile, writeFile: live.writeFile,
            now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: variables, fileIO: .disk, appendFile: live.appendFile)
        let status = CommandLineTool.run(arguments, in: environment)
        let (output, error, written) = capture.snapshot
        return Run(status: status, output: output, error: error, written: written)
    }

    func expectOneLineRefusal(_ result: Run, mentioning words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == ExitStatus.usage, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), "\(result.error)", sourceLocation: sourceLocation)
        #expect(!result.error.contains("NSCocoaErrorDomain"), "\(result.error)", sourceLocation: sourceLocation)
        for word in words {
            #expect(result.error.contains(word), "\(result.error) should mention \(word)", sourceLocation: sourceLocation)
        }
    }

    /// What `lstat` says is at `path`: the file type bits, or nil.
    func fileType(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    enum Existing: String, CaseIterable {
        case fifo, folder, linkToFile, linkToNothing
    }

    @Test(arguments: Existing.allCases)
    func sampleRefusesWhatIsNotARegularFile(existing: Existing) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out.json"
        let target = folder + "/target.json"
        let expected: String
        switch existing {
        case .fifo:
            try #require(mkfifo(out, 0o600) == 0)
            expected = "cannot write \(out): it is a FIFO, not a regular file"
        case .folder:
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            expected = "cannot write \(out): it is a folder, not a regular file"
        case .linkToFile:
            try Data("precious".utf8).write(to: URL(fileURLWithPath: target))
            try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: target)
            expected = "cannot write \(out): it is a symbolic link, not a regular file"
        case .linkToNothing:
            try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: target)
            expected = "cannot write \(out): it is a symbolic link, not a regular file"
        }
        let before = fileType(out)
        let result = runLive(["sample", "--placements", "1", "--out", out])
        expectOneLineRefusal(result, mentioning: [expected])
        #expect(fileType(out) == before)
        switch existing {
        case .linkToFile: #expect(text(at: target) == "precious")
        case .linkToNothing: #expect(fileType(target) == nil)
        case .folder: #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
        case .fifo: break
        }
    }

    /// `DIR/.` names the folder itself: refused like the folder, never written beside it.
    @Test func sampleRefusesAFolderNamedWithADot() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: false)
        let result = runLive(["sample", "--placements", "1", "--out", folder + "/sub/."])
        expectOneLineRefusal(result, mentioning: ["it is a folder, not a regular file"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/sub").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["sub"])
    }

    @Test func sampleWritesAMissingFileAndReplacesARegularOneKeepingItsMode() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out.json"
        let first = runLive(["sample", "--placements", "2", "--out", out])
        #expect(first.status == 0, "\(first.error)")
        let written = try #require(text(at: out))
        #expect(written.hasPrefix("{"))
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        #expect(chmod(out, 0o640) == 0)
        let second = runLive(["sample", "--placements", "2", "--out", out])
        #expect(second.status == 0, "\(second.error)")
        #expect(text(at: out) == written)
        #expect(fileType(out) == S_IFREG)
        var status = stat()
        #expect(lstat(out, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.json"], "no temporary file is left")
    }

    @Test func aNameTooLongIsOneLineWithTheSystemsReason() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/" + String(repeating: "n", count: 300) + ".json"
        expectOneLineRefusal(runLive(["sample", "--placements", "1", "--out", out]), mentioning: ["cannot write \(out): ", "File name too long"])
        let site = folder + "/" + String(repeating: "s", count: 300)
        let example = repositoryPath("Examples/2026-03-03-release-3.0.json")
        expectOneLineRefusal(runLive(["build", example, "--out", site]), mentioning: [site, "File name too long"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func aPathBelowAFileIsOneLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("precious".utf8).write(to: URL(fileURLWithPath: folder + "/s.json"))
        expectOneLineRefusal(runLive(["sample", "--placements", "1", "--out", folder + "/s.json/x"]), mentioning: [folder + "/s.json/x"])
        expectOneLineRefusal(runLive(["theme", "export", folder + "/s.json/x"]), mentioning: [folder + "/s.json", "not a folder"])
        #expect(text(at: folder + "/s.json") == "precious")
    }

    /// `--out` that is a FIFO says so with the same words as every other command.
    @Test func buildNamesAFIFOAsEveryCommandDoes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/pipe", 0o600) == 0)
        let example = repositoryPath("Examples/2026-03-03-release-3.0.json")
        expectOneLineRefusal(runLive(["build", example, "--out", folder + "/pipe"]), mentioning: ["\(folder)/pipe is a FIFO, not a folder"])
        #expect(fileType(folder + "/pipe") == S_IFIFO)
    }

    // MARK: One wording for what a path is

    /// Reading, writing and `--out` name what a path is with one type, in the same words.
    @Test func everyCommandNamesWhatAPathIsInTheSameWords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(mkfifo(folder + "/pipe", 0o600) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/pipe")
        let long = folder + "/" + String(repeating: "l", count: 300)
        #expect(FileKind.at(folder) == .directory)
        #expect(FileKind.at(folder + "/pipe") == .fifo)
        #expect(FileKind.at(folder + "/link") == .symbolicLink)
        #expect(FileKind.at(folder + "/missing") == nil)
        #expect(FileKind.at(long) == .unexaminable(reason: String(cString: strerror(ENAMETOOLONG))))
        #expect(FileIO.disk.itemKind(folder + "/pipe") == .fifo)
        #expect(FileKind(mode: S_IFCHR) == .characterDevice)
        for (kind, words) in [(FileKind.fifo, "a FIFO"), (.directory, "a folder"), (.characterDevice, "a character device"), (.symbolicLink, "a symbolic link")] {
            #expect(FileReadError(path: "p", reason: .notRegularFile(kind)).description == "cannot read p: it is \(words), not a regular file")
            #expect(FileWriteError(path: "p", reason: .notRegularFile(kind)).description == "cannot write p: it is \(words), not a regular file")
            #expect(SiteWriterError.notAFolder("p", kind).description.hasPrefix("p is \(words), not a folder"))
        }
        #expect(SiteWriterError.notAFolder("p", .unexaminable(reason: "File name too long")).description.hasPrefix("cannot examine p: File name too long"))
    }

    // MARK: $GITHUB_STEP_SUMMARY

    @Test(arguments: [["check", "GOOD"], ["diff", "GOOD", "GOOD"], ["history", "GOOD", "GOOD"]])
    func theSummaryIsNeverAppendedToAFIFO(command: [String]) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/good.json"
        try Data(loadableSnapshotText.utf8).write(to: URL(fileURLWithPath: good))
        let summary = folder + "/summary"
        try #require(mkfifo(summary, 0o600) == 0)
        // A reader holds the FIFO open, so code that opens it to write does not wait: it writes.
        let reader = open(summary, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let arguments = command.map { $0 == "GOOD" ? good : $0 } + ["--summary"]
        let result = runLive(arguments, variables: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.status == ExitStatus.usage, "\(result.error)")
        #expect(result.error.contains("error: cannot append the summary to \(summary): it is a FIFO, not a regular file"), "\(result.error)")
        var byte: UInt8 = 0
        #expect(read(reader, &byte, 1) <= 0, "nothing was written into the FIFO")
        #expect(fileType(summary) == S_IFIFO)
    }

    @Test func theSummaryIsAppendedToARegularFileOrCreated() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let good = folder + "/good.json"
        try Data(loadableSnapshotText.utf8).write(to: URL(fileURLWithPath: good))
        let summary = folder + "/summary.md"
        let created = runLive(["check", good, "--summary"], variables: ["GITHUB_STEP_SUMMARY": summary])
        #expect(created.status == 0, "\(created.error)")
        let once = try #require(text(at: summary))
        #expect(!once.isEmpty)
        let appended = runLive(["check", good, "--summary"], variables: ["GITHUB_STEP_SUMMARY": summary])
        #expect(appended.status == 0, "\(appended.error)")
        #expect(text(at: summary) == once + once)
    }
}
