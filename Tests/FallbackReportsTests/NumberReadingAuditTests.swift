import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
@testable import FallbackDiff
import FallbackHistoryTestSupport
import FallbackTestSupport

/// Every command reads numbers as the SDK does (fallback-format.md §2.1, §4): `-0` is a float, not
/// an int, everywhere; weights are the step-by-step value; and a lone surrogate the SDK skips unread
/// reaches reports as U+FFFD.
@Suite("§2.1 and §4 numbers in the audit, diff and history")
struct NumberReadingAuditTests {
    static func revisionFile(_ revision: String, key: String = "a") -> String {
        Snap.file(#""\#(key)":{"placement":\#(Snap.placement(key, revision: revision)),"paywall":\#(Snap.paywall())}"#)
    }

    @Test(arguments: ["-0", "-0.0", "0.0", "1e0"])
    func aRevisionTheSDKReadsAsAFloatSkipsTheEntry(_ revision: String) throws {
        let file = FallbackFile(text: Self.revisionFile(revision))
        #expect(file.loadedCount == 0)
        let findings = file.audit()
        #expect(findings.map(\.ruleId) == ["entry-skipped"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("at /placements/a/placement/revision, expected an integer, found the number \(revision)"))
    }

    @Test func theCheckSaysWhyMinusZeroIsNotAnInteger() throws {
        let message = try #require(FallbackFile(text: Self.revisionFile("-0")).audit().first?.message)
        #expect(message.contains("the SDK's JSON parser reads -0 as the float -0.0, not an integer: write 0"))
        let big = try #require(FallbackFile(text: Self.revisionFile("9223372036854775808")).audit().first?.message)
        #expect(big.contains("beyond the signed 64-bit range"))
        let fraction = try #require(FallbackFile(text: Self.revisionFile("3.0")).audit().first?.message)
        #expect(fraction.contains("a fraction or an exponent makes it a float"))
    }

    @Test func zeroIsAnIntAndOnlyAWarning() {
        #expect(FallbackFile(text: Self.revisionFile("0")).audit().map(\.ruleId) == ["revision-invalid"])
    }

    /// The timeline agrees with the loader: `-0` is no revision, and the entry is skipped.
    @Test func theTimelineSeesMinusZeroAsTheLoaderDoes() throws {
        let history = try timeline([Self.revisionFile("1"), Self.revisionFile("-0")])
        let placement = try #require(history.placements.first { $0.key == "a" })
        let latest = placement.latest
        #expect(latest.revision == nil)
        #expect(latest.revisionText == "-0")
        #expect(latest.served?.isSkipped == true)
        #expect(latest.changes.contains(.stoppedDecoding))
        #expect(latest.changes.contains(.revisionRewritten))
    }

    @Test func theDiffSeesMinusZeroAsTheLoaderDoes() {
        let changes = SnapshotDiff(old: FallbackFile(text: Self.revisionFile("1")), new: FallbackFile(text: Self.revisionFile("-0"))).changes
        #expect(changes.map(\.kind) == [.entryNowSkipped])
    }

    @Test(arguments: ["-0", "-0.0", "1e12", "1764400000000.0"])
    func aGeneratedAtThatIsNotAnIntIsNoDate(_ value: String) throws {
        let text = Snap.file("", generatedAt: value)
        #expect(FallbackFile(text: text).generatedAtMilliseconds == nil)
        #expect(SnapshotDiff(old: FallbackFile(text: text), new: FallbackFile(text: text)).old.generatedAt == nil)
        #expect(try timeline([text]).snapshots.first?.stamp.generatedAt == nil)
    }

    /// Two written values are the same when the SDK reads the same: `0` and `-0` are not.
    @Test(arguments: [
        ("0", "-0", false), ("-0", "-0.0", true), ("100", "1e2", false), ("1.0", "1.00", true), ("1", "1.0", false),
        ("18446744073709551616", "1.8446744073709552e19", true), ("0.00015", "0.00015000000000000001", true),
        ("0.00015", "0.00015000000000000002", false), ("[0]", "[-0]", false), (#"{"a":0.5}"#, #"{"a":5e-1}"#, true),
    ])
    func rawValuesCompareAsTheSDKReadsThem(_ old: String, _ new: String, _ same: Bool) {
        let oldDocument = JSONDocument(text: old)
        let newDocument = JSONDocument(text: new)
        #expect(RawComparison.same(oldDocument.root, newDocument.root) == same)
    }

    /// A weight written with more digits than the SDK reads is the same weight: no rebucketing.
    @Test func weightsTheSDKReadsAlikeAreNotAChange() {
        let old = Snap.experimentFile(Snap.variant("a", "0.00015"), Snap.variant("b", "0.99985"))
        let new = Snap.experimentFile(Snap.variant("a", "0.00015000000000000001"), Snap.variant("b", "0.99985"))
        #expect(SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new)).changes.isEmpty)
        // A correctly rounded reading would move bucket 1 between the variants.
        #expect(Bucketing.shares(weights: [Double("0.00015")!, 0.99985]) != Bucketing.shares(weights: [Double("0.00015000000000000001")!, 0.99985]))
    }

    /// A lone surrogate in projectId loads (§2 rule 1) and reaches the checks as U+FFFD.
    @Test func aLoneSurrogateInProjectIdReachesChecksAsAReplacementCharacter() throws {
        let text = Snap.file(#""a":{"placement":\#(Snap.placement("a")),"paywall":\#(Snap.paywall())}"#, projectId: #""proj_\ud800""#)
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.projectId?.string == "proj_\u{FFFD}")
        #expect(file.audit().isEmpty)
        let before = Snap.file(#""a":{"placement":\#(Snap.placement("a")),"paywall":\#(Snap.paywall())}"#)
        let changes = SnapshotDiff(old: FallbackFile(text: before), new: file).changes
        #expect(changes.map(\.kind) == [.projectChanged])
        #expect(changes.first?.message.contains("proj_\u{FFFD}") == true)
    }
}
