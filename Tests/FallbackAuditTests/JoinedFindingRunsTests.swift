@testable import FallbackAudit
import FallbackTestSupport
@testable import RovenueFallback
import Testing

/// The audit pass sorts each chunk's findings on the chunk's thread (`FindingRun`) and joins the
/// runs by moving them (`Audit.joined`): the result is every finding in `Audit.sorted` order,
/// whether the runs already follow each other (the entries' findings) or not (a file-level
/// finding after the placements).
@Suite struct JoinedFindingRunsTests {
    /// `count` entries that each serve nothing, between a file-level finding at the start
    /// (`project-id-missing`, at the top level) and one after them (`generatedAt` is a string).
    static func bytes(entries count: Int) -> [UInt8] {
        let placements = (0..<count).map { "\"k\($0)\":{}" }.joined(separator: ",")
        return Array("{\"formatVersion\":1,\"placements\":{\(placements)},\"generatedAt\":\"later\"}".utf8)
    }

    @Test(arguments: [1, 2, 3, 64]) func runsOutOfOrderAreSortedAgain(_ chunkSize: Int) {
        let topLevel = FallbackTopLevel(bytes: Self.bytes(entries: 6))
        let (findings, _) = Audit(now: testNow).check(topLevel, chunkSize: chunkSize) { _ in () }
        #expect(findings == SortedFindingsTests.reference(findings))
        // The file run reports generatedAt before projectId; the entries' columns lie between.
        #expect(findings.map(\.column) == [1, 39, 47, 55, 63, 71, 79, 97])
        #expect(findings.map(\.ruleId.rawValue) == ["project-id-missing"] + Array(repeating: "serves-nothing", count: 6) + ["generated-at-invalid"])
    }

    @Test func theWholeFileAuditJoinsTheSame() {
        let file = FallbackFile(bytes: Self.bytes(entries: 40))
        let audit = Audit(now: testNow)
        let whole = audit.findings(in: file, chunks: 1)
        #expect(whole == SortedFindingsTests.reference(whole))
        for chunks in [2, 3, 7, 40] {
            #expect(audit.findings(in: file, chunks: chunks) == whole, "\(chunks) chunks")
        }
    }
}
