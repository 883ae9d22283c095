import FallbackAudit
@testable import FallbackCLI
@testable import FallbackReports
import Foundation
@testable import RovenueFallback
import Testing

/// `check` reads, loads and audits one file at a time and keeps only what its reports show, so its
/// memory does not grow with the number of files (issue 10); every report stays as it was.
@Suite("check holds one file at a time")
struct CheckMemoryTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let tool = ReportTool(name: "fallback-site", version: "1", rulesURL: "https://x.test/rules.md")
    static let rejectedText = #"[{"formatVersion":1}]"#

    /// Readable files with skipped entries, one without, a rejected one and an unreadable one.
    static func files() throws -> [(path: String, outcome: Result<FallbackFile, UnreadableFile>)] {
        [
            ("funnel-era.json", .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: funnelEraPath)))))),
            ("missing.json", .failure(UnreadableFile(reason: "no such file"))),
            ("rejected.json", .success(FallbackFile(text: rejectedText))),
            ("paywall-era.json", .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: paywallEraPath)))))),
        ]
    }

    static func report(_ files: some Sequence<(path: String, outcome: Result<FallbackFile, UnreadableFile>)>) -> CheckedFilesReport {
        CheckedFilesReport(files: files, audit: Audit(now: now), failOn: .error, title: "fallback-site check", tool: tool)
    }

    /// Every value the report holds, walked through its stored properties.
    static func containsFile(_ value: Any) -> Bool {
        if value is FallbackFile || value is JSONDocument || value is JSONDocument.Storage { return true }
        return Mirror(reflecting: value).children.contains { containsFile($0.value) }
    }

    @Test("the report keeps no file, document or parsed storage, only each file's summary")
    func reportKeepsNoFile() throws {
        let report = Self.report(try Self.files())
        let holdsFile = Self.containsFile(report)
        #expect(!holdsFile)
        #expect(report.inputs.map { $0.loader != nil } == [true, false, true, true])
    }

    /// Yields files parsed from `texts` one at a time and records, before parsing each, whether
    /// the previous file's parsed storage is gone.
    struct OneAtATime: Sequence, IteratorProtocol {
        final class Log {
            var paths: [String] = []
            var previousReleased: [Bool] = []
            weak var last: JSONDocument.Storage?
        }

        let texts: [(String, [UInt8])]
        let log: Log
        var index = 0

        mutating func next() -> (path: String, outcome: Result<FallbackFile, UnreadableFile>)? {
            if index > 0 { log.previousReleased.append(log.last == nil) }
            guard index < texts.count else { return nil }
            let (path, bytes) = texts[index]
            index += 1
            log.paths.append(path)
            let file = FallbackFile(bytes: bytes)
            log.last = file.document.storage
            return (path, .success(file))
        }
    }

    @Test("each file is released before the next is read, and the last once the report is made")
    func releasesEachFileBeforeTheNext() throws {
        let texts = [
            ("a.json", Array(try Data(contentsOf: URL(fileURLWithPath: funnelEraPath)))),
            ("b.json", Array(Self.rejectedText.utf8)),
            ("c.json", Array(try Data(contentsOf: URL(fileURLWithPath: paywallEraPath)))),
        ]
        let log = OneAtATime.Log()
        let report = Self.report(OneAtATime(texts: texts, log: log))
        #expect(log.paths == ["a.json", "b.json", "c.json"])
        #expect(log.previousReleased == [true, true, true])
        #expect(log.last == nil)
        #expect(report.inputs.map(\.path) == ["a.json", "b.json", "c.json"])
    }

    @Test("the command reads each path once, in the order given")
    func commandReadsInOrder() throws {
        final class Reads: @unchecked Sendable {
            private let lock = NSLock()
            private var paths: [String] = []
            func append(_ path: String) { lock.withLock { paths.append(path) } }
            var all: [String] { lock.withLock { paths } }
        }
        let reads = Reads()
        let arguments = [paywallEraPath, "rejected.json", "/nonexistent-checkmem/missing.json", funnelEraPath]
        let result = run(["check"] + arguments + ["--format", "json"], files: ["rejected.json": Self.rejectedText]) { environment in
            let read = environment.readFile
            environment.readFile = { path in
                reads.append(path)
                return try read(path)
            }
        }
        #expect(result.status == 2)
        // The configuration file is looked for first; then each snapshot once, in order.
        #expect(reads.all.filter { $0 != ".fallback-site.json" } == arguments)
    }

    /// The summary holds exactly what the text and JSON writers read from the file before.
    @Test("a file's loader summary is what the writers read from the whole file")
    func summaryMatchesTheFile() throws {
        for case (_, .success(let file)) in try Self.files() {
            let summary = CheckedFilesReport.LoaderSummary(file)
            #expect(summary.rejection == file.rejection)
            #expect(summary.verdict == file.rejection.map { "\(file.verdict): \($0.message)" } ?? file.verdict)
            #expect(summary.loadedKeys == file.loadedEntries.map(\.key))
            let skipped = file.entries.compactMap { record in
                record.failure.map { "\(record.key) \(file.location(of: $0.source)) \($0.expectation)" }
            }
            #expect(summary.skipped.map { "\($0.key) \($0.location) \($0.expectation)" } == skipped)
        }
        let funnel = CheckedFilesReport.LoaderSummary(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: funnelEraPath)))))
        #expect(funnel.skipped.count == 1)
        #expect(CheckedFilesReport.LoaderSummary(FallbackFile(text: Self.rejectedText)).rejection != nil)
    }

    /// The command, reading files one at a time, writes what a report over all the files held at
    /// once writes, in every format and with `--verbose`.
    @Test("every format is byte-identical to the report over files held at once", arguments: ReportFormat.allCases.map { ($0, false) } + [(.text, true)])
    func everyFormatMatches(format: ReportFormat, verbose: Bool) throws {
        let missing = "/nonexistent-checkmem/missing.json"
        let paths = [funnelEraPath, missing, "rejected.json", paywallEraPath]
        let held: [(path: String, outcome: Result<FallbackFile, UnreadableFile>)] = paths.map { path in
            if path == "rejected.json" { return (path, .success(FallbackFile(text: Self.rejectedText))) }
            do {
                return (path, .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))))
            } catch {
                return (path, .failure(UnreadableFile(reason: CommandEnvironment.describe(error))))
            }
        }
        let expected = CheckedFilesReport(
            files: held, audit: Audit(now: Self.now), failOn: .error, title: "fallback-site check",
            tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version)
        ).rendered(as: format, style: TextStyle(listsInfos: verbose))
        let result = run(
            ["check"] + paths + ["--format", format.rawValue] + (verbose ? ["--verbose"] : []),
            files: ["rejected.json": Self.rejectedText])
        #expect(result.status == 2)
        #expect(result.output == expected)
    }
}
