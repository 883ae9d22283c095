import FallbackAudit
import FallbackCLI
@testable import FallbackReports
import Foundation
import RovenueFallback
import Testing

/// Reports are written to standard output as they are made, in chunks (`ReportSink`), not built
/// whole first (issue 10: a 100,000-placement `check` within 2 GB): the chunks joined are the whole
/// report byte for byte at every chunk size, each chunk is valid UTF-8 cut between scalars, and
/// `check` hands standard output bounded chunks.
@Suite("reports stream in chunks")
struct ReportStreamingTests {
    /// Sizes from one byte (each scalar its own chunk) to the default.
    static let chunkSizes = [1, 2, 3, 5, 64, 4096, ReportSink.defaultChunkSize]

    /// Writes with `write` into a sink of `chunkSize` and returns the chunks it handed on.
    static func chunks(of chunkSize: Int, _ write: (ReportSink) -> Void) -> [String] {
        var chunks: [String] = []
        let sink = ReportSink(chunkSize: chunkSize) { chunks.append($0) }
        write(sink)
        sink.finish()
        return chunks
    }

    /// Each chunk is at most `chunkSize` bytes, or a single scalar longer than that.
    static func isBounded(_ chunk: String, by chunkSize: Int) -> Bool {
        chunk.utf8.count <= chunkSize || chunk.unicodeScalars.count == 1
    }

    @Test(
        "a sink's chunks join to what was written, each cut between scalars",
        arguments: chunkSizes)
    func sinkChunksJoinToTheText(chunkSize: Int) {
        // One-, two-, three- and four-byte scalars at every offset against the chunk size, in
        // pieces of every length, and a piece far longer than a chunk.
        let pieces = ["a", "é", "€", "😀", "", "ab€😀é", String(repeating: "x€😀", count: 700), "\n", "\u{0}", "🇫🇷"]
        var written = ""
        let chunks = Self.chunks(of: chunkSize) { sink in
            for round in 0..<12 {
                for piece in pieces.dropFirst(round % pieces.count) {
                    sink.write(piece)
                    written += piece
                }
            }
        }
        #expect(chunks.joined() == written)
        #expect(Array(chunks.joined().utf8) == Array(written.utf8))
        #expect(chunks.allSatisfy { Self.isBounded($0, by: chunkSize) })
        #expect(!chunks.contains(""))
        // Every chunk is whole scalars: it reads back as the same bytes (nothing replaced by U+FFFD).
        #expect(chunks.allSatisfy { !$0.unicodeScalars.contains("\u{FFFD}") })
        if chunkSize == 1 { #expect(chunks.allSatisfy { $0.unicodeScalars.count == 1 }) }
    }

    @Test("a sink that is written nothing hands on nothing")
    func emptyWritesNothing() {
        let chunks = Self.chunks(of: 4) { sink in
            sink.write("")
            var empty = ""
            sink.handOn(ifFull: &empty)
        }
        #expect(chunks.isEmpty)
    }

    @Test("a gathering sink returns the whole text, and a string handed on only when full")
    func gatheringSink() {
        let sink = ReportSink.collecting(reservingCapacity: 16)
        var text = "€ and more"
        sink.handOn(ifFull: &text)
        #expect(text == "€ and more")
        sink.write(text)
        sink.write("😀")
        #expect(sink.text() == "€ and more😀")
    }

    /// Every report format of the fixtures and examples, written through sinks of every size,
    /// joins to `rendered(as:)`, which the reference tests compare with the earlier writers.
    @Test("every check format streams to the same bytes at every chunk size", arguments: ReportFormat.allCases)
    func checkFormatsStream(format: ReportFormat) throws {
        let report = try Self.checkedFiles()
        for style in [TextStyle(), TextStyle(listsInfos: true, usesColor: true)] {
            let whole = report.rendered(as: format, style: style)
            #expect(!whole.isEmpty)
            for chunkSize in Self.chunkSizes {
                let chunks = Self.chunks(of: chunkSize) { report.write(as: format, style: style, to: $0) }
                #expect(chunks.joined() == whole, "\(format) in chunks of \(chunkSize)")
                #expect(chunks.allSatisfy { Self.isBounded($0, by: chunkSize) }, "\(format) in chunks of \(chunkSize)")
            }
        }
    }

    /// The CI writers stream for every report that has them (`diff`, `history`), not only `check`'s.
    @Test("the CI writers stream the edge reports at every chunk size")
    func ciWritersStream() {
        for report in CheckWriterReferenceTests.edgeReports() {
            let writers: [(String, (CheckReport) -> String, (CheckReport, ReportSink) -> Void)] = [
                ("junit", JUnitReport.render, JUnitReport.write), ("sarif", SARIFReport.render, SARIFReport.write),
                ("github", GitHubAnnotations.render, GitHubAnnotations.write),
            ]
            for (name, render, write) in writers {
                let whole = render(report)
                for chunkSize in Self.chunkSizes {
                    #expect(Self.chunks(of: chunkSize) { write(report, $0) }.joined() == whole, "\(name) in chunks of \(chunkSize)")
                }
            }
        }
    }

    /// The SARIF log streamed is the tree `document(_:)` gives, printed as before.
    @Test("streamed SARIF is the SARIF document's text")
    func sarifMatchesItsDocument() throws {
        for report in try CheckWriterReferenceTests.fixtureReports() + CheckWriterReferenceTests.edgeReports() {
            #expect(SARIFReport.render(report) == SARIFReport.document(report).jsonText([.prettyPrinted]) + "\n")
        }
    }

    /// `check` itself hands standard output chunks of at most the default size, never the whole
    /// report at once, and they join to the report a whole render gives.
    @Test("check writes a large report to standard output in bounded chunks", arguments: [ReportFormat.json, .junit, .sarif, .github])
    func checkWritesBoundedChunks(format: ReportFormat) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-streaming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.json").path
        // `run` keeps the files a command writes in memory: the sample is put on disk here.
        let sample = run(["sample", "--placements", "400", "--seed", "1", "--out", path])
        #expect(sample.status == 0)
        try Data(try #require(sample.written[path])).write(to: URL(fileURLWithPath: path))

        let chunks = ChunkCapture()
        var environment = CommandEnvironment(
            writeOutput: { chunks.append($0) }, writeError: { _ in }, readFile: { try RegularFile.read($0) },
            writeFile: { _, _ in Issue.record("check writes no file") }, now: { Date(timeIntervalSince1970: 1_790_000_000) },
            variables: [:])
        environment.exitKeeper = .none
        _ = CommandLineTool.run(["check", path, "--format", format.rawValue], in: environment)

        let whole = run(["check", path, "--format", format.rawValue]).output
        let written = chunks.values
        #expect(whole.utf8.count > 2 * ReportSink.defaultChunkSize, "the sample's report spans several chunks")
        #expect(written.joined() == whole)
        #expect(written.count > 2)
        #expect(written.allSatisfy { $0.utf8.count <= ReportSink.defaultChunkSize })
    }

    /// The fixtures, the examples, a rejected file and an unreadable one, checked together.
    static func checkedFiles() throws -> CheckedFilesReport {
        let paths = [
            repositoryPath("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"),
            repositoryPath("Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json"),
        ] + (try FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples")))
            .filter { $0.hasSuffix(".json") }.sorted().map { repositoryPath("Examples/\($0)") }
        let files = try paths.map { path -> (path: String, outcome: Result<FallbackFile, UnreadableFile>) in
            (URL(fileURLWithPath: path).lastPathComponent, .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))))
        } + [
            ("bad & <rejected> é😀.json", .success(FallbackFile(bytes: Array(#"[{"formatVersion":1}]"#.utf8)))),
            ("missing \"one\".json", .failure(UnreadableFile(reason: "no such file"))),
        ]
        return CheckedFilesReport(
            files: files, audit: Audit(now: Date(timeIntervalSince1970: 1_790_000_000)), failOn: .warning,
            title: "fallback-site check", tool: ReportTool(name: "fallback-site", version: "1", rulesURL: "https://x.test/rules.md"))
    }
}

/// The chunks a command wrote to standard output, in order.
private final class ChunkCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var chunks: [String] = []

    func append(_ chunk: String) { lock.withLock { chunks.append(chunk) } }
    var values: [String] { lock.withLock { chunks } }
}
