import FallbackAudit
@testable import FallbackCLI
@testable import FallbackReports
import Foundation
@testable import RovenueFallback
import Testing

/// `check` decodes and audits each file's entries a chunk at a time (`CheckedFilesReport(topLevels:…)`,
/// issue 10): its reports are byte for byte those made from whole files (`CheckedFilesReport(files:…)`),
/// in every format, and each file's loader summary is the one made from the whole file.
@Suite("check: the chunked pass reports what the whole-file pass reports")
struct ChunkedCheckTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let tool = ReportTool(name: "fallback-site", version: "1", rulesURL: "https://x.test/rules.md")

    /// Every example, both fixtures, a rejected file, an array top level, a BOM, duplicate keys and
    /// a skipped entry.
    static let inputs: [(path: String, bytes: [UInt8])] = {
        let examples = (try? FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples"))) ?? []
        var inputs = examples.filter { $0.hasSuffix(".json") }.sorted().map { name in
            ("Examples/\(name)", [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: repositoryPath("Examples/\(name)")))) ?? Data()))
        }
        for path in [funnelEraPath, paywallEraPath] {
            inputs.append((path, [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data())))
        }
        let entry = #"{"placement":{"identifier":"a","revision":1}}"#
        inputs += [
            ("rejected.json", Array(#"{"formatVersion":"1","placements":{}}"#.utf8)),
            ("array.json", Array(#"[1,{"a":\#(entry),"b":{"placement":[]}}]"#.utf8)),
            ("bom.json", [0xEF, 0xBB, 0xBF] + Array(#"{"formatVersion":1,"placements":{}}"#.utf8)),
            ("duplicates.json", Array(#"{"formatVersion":1,"placements":{"a":{"placement":7},"b":\#(entry),"a":\#(entry),"b":{"placement":[]}}}"#.utf8)),
        ]
        return inputs
    }()

    @Test func theInputsAreFound() {
        #expect(Self.inputs.count(where: { $0.path.hasPrefix("Examples/") }) >= 3)
        #expect(Self.inputs.allSatisfy { !$0.bytes.isEmpty })
    }

    static func reports() -> (whole: CheckedFilesReport, chunked: CheckedFilesReport) {
        let audit = Audit(now: now)
        let files = Self.inputs.map { (path: $0.path, outcome: Result<FallbackFile, UnreadableFile>.success(FallbackFile(bytes: $0.bytes))) }
            + [(path: "gone.json", outcome: .failure(UnreadableFile(reason: "no such file")))]
        let topLevels = Self.inputs.map { input in
            (path: input.path, outcome: Result<FallbackTopLevel, UnreadableFile>.success(FallbackTopLevel(bytes: input.bytes)))
        } + [(path: "gone.json", outcome: .failure(UnreadableFile(reason: "no such file")))]
        return (
            CheckedFilesReport(files: files, audit: audit, failOn: .warning, title: "fallback-site check", tool: tool),
            CheckedFilesReport(topLevels: topLevels, audit: audit, failOn: .warning, title: "fallback-site check", tool: tool)
        )
    }

    @Test(arguments: ReportFormat.allCases) func everyFormatIsByteIdentical(_ format: ReportFormat) {
        let (whole, chunked) = Self.reports()
        for style in [TextStyle(), TextStyle(listsInfos: true, usesColor: true)] {
            #expect(chunked.rendered(as: format, style: style) == whole.rendered(as: format, style: style))
        }
        #expect(chunked.fails == whole.fails)
    }

    @Test func theLoaderSummariesAndFindingsAreTheWholeFilesOnes() throws {
        let (whole, chunked) = Self.reports()
        #expect(chunked.inputs.map(\.path) == whole.inputs.map(\.path))
        for (got, expected) in zip(chunked.inputs, whole.inputs) {
            #expect(got.loader == expected.loader, "\(got.path)")
            #expect(got.findings == expected.findings, "\(got.path)")
            #expect(got.readError == expected.readError, "\(got.path)")
        }
        for (got, expected) in zip(chunked.ciReport.files, whole.ciReport.files) {
            #expect(got.verdict == expected.verdict, "\(got.path)")
            #expect(got.placementKeys == expected.placementKeys, "\(got.path)")
            #expect(got.findings == expected.findings, "\(got.path)")
        }
        // Like the whole-file report, it keeps summaries and findings, no document or top level.
        #expect(!CheckMemoryTests.containsFile(chunked))
        #expect(CheckMemoryTests.containsFile(FallbackTopLevel(text: "{}")), "the walk finds a top level where there is one")
        // The cases the inputs are there for.
        let loaders = Dictionary(uniqueKeysWithValues: chunked.inputs.compactMap { input in input.loader.map { (input.path, $0) } })
        #expect(loaders["rejected.json"]?.rejection?.rule == .unsupportedFormatVersion)
        #expect(loaders["bom.json"]?.rejection?.rule == .byteOrderMark)
        #expect(loaders["array.json"]?.skipped.map(\.key) == ["b"])
        #expect(loaders["duplicates.json"]?.loadedKeys == ["a"])
        #expect(loaders["duplicates.json"]?.skipped.map(\.key) == ["b"])
    }

    /// The command itself, on the files as a user passes them, writes what the whole-file report writes.
    @Test(arguments: ["text", "json", "sarif"]) func theCommandWritesTheWholeFileReport(_ format: String) throws {
        let paths = [funnelEraPath, paywallEraPath]
        let result = run(["check"] + paths + ["--format", format])
        let files = try paths.map { path in
            (path: path, outcome: Result<FallbackFile, UnreadableFile>.success(FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))))
        }
        let whole = CheckedFilesReport(
            files: files, audit: Audit(now: Self.now), failOn: .error, title: "\(CommandLineTool.name) check",
            tool: ReportTool(name: CommandLineTool.name, version: CommandLineTool.version, rulesURL: nil))
        #expect(result.output == whole.rendered(as: try #require(ReportFormat(rawValue: format))))
    }
}
