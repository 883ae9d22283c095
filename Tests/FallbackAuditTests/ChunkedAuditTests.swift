@testable import FallbackAudit
import FallbackSample
import FallbackTestSupport
import Foundation
@testable import RovenueFallback
import Testing

/// `Audit.check(_:summarizing:)`, which decodes, audits and lets go of a file's entries a chunk at a
/// time (what `check` runs), finds exactly what the whole-file audit finds over a `FallbackFile`,
/// in the same order, and hands over every entry's record as the whole-file load decodes it, for
/// every chunk size; and it does not hold the typed model of every entry at once.
@Suite("chunked audit: the same findings and records as the whole-file audit")
struct ChunkedAuditTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every fixture under Tests/**/Fixtures, every golden file, every fuzz corpus and regression
    /// input, every example.
    static let files: [String] = {
        var found: [String] = []
        for folder in ["Tests", "Fuzz/Corpus", "Fuzz/Regressions", "Examples"] {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker {
                let path = url.path.dropFirst(packageRoot.path.count + 1)
                let isInput = folder == "Tests" ? path.contains("/Fixtures/") || path.hasPrefix("Tests/Golden/") : !path.hasSuffix(".md")
                guard isInput, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                found.append(String(path))
            }
        }
        return found.sorted()
    }()

    /// A record as the tests compare it: key, every key occurrence, the value decoded, and what
    /// the decoder made of it, down to the failure's place and the array forms and duplicate fields.
    struct RecordSummary: Equatable, Sendable {
        let key: String
        let keyRefs: [SourceRef]
        let value: SourceRef
        let loaded: Bool
        let failure: String?
        let arrayForms: [SourceRef]
        let duplicateFields: Int

        init(_ record: EntryRecord) {
            key = record.key
            keyRefs = record.keyRefs
            value = record.value
            loaded = record.entry != nil
            failure = record.failure.map { "\($0.source.node) \($0.expectation)" }
            arrayForms = record.arrayForms
            duplicateFields = record.duplicateFields.count
        }
    }

    /// Chunk sizes: one entry, two, three, the default, and more than the entries.
    static func chunkSizes(entries: Int) -> [Int] { [1, 2, 3, FallbackTopLevel.decodeChunkSize, entries + 1] }

    static func expectSame(
        _ bytes: [UInt8], strippingByteOrderMark: Bool = false, _ comment: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> FallbackFile {
        let file = FallbackFile(bytes: bytes, strippingByteOrderMark: strippingByteOrderMark)
        let audit = Audit(now: testNow)
        let expected = audit.findings(in: file)
        let records = file.entries.map(RecordSummary.init)
        let topLevel = FallbackTopLevel(bytes: bytes, strippingByteOrderMark: strippingByteOrderMark)
        #expect(topLevel.entryHeads.map(\.key) == file.entries.map(\.key), "\(comment)", sourceLocation: sourceLocation)
        for size in chunkSizes(entries: topLevel.entryHeads.count) {
            let (findings, summaries) = audit.check(topLevel, chunkSize: size) { RecordSummary($0) }
            #expect(findings == expected, "\(comment), chunks of \(size)", sourceLocation: sourceLocation)
            #expect(summaries == records, "\(comment), chunks of \(size)", sourceLocation: sourceLocation)
        }
        return file
    }

    @Test func theInputsAreFound() {
        #expect(Self.files.contains("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        #expect(Self.files.contains("Tests/Golden/check/funnel-era.json"))
        #expect(Self.files.contains { $0.hasPrefix("Fuzz/Regressions/json/") })
        #expect(Self.files.contains { $0.hasPrefix("Examples/") && $0.hasSuffix(".json") })
    }

    @Test(arguments: files) func sameOnFile(_ path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.packageRoot.appendingPathComponent(path)))
        _ = Self.expectSame(bytes, path)
        _ = Self.expectSame(bytes, strippingByteOrderMark: true, "\(path), BOM stripped")
    }

    @Test(arguments: [1, 2]) func sameOnASampleExport(_ seed: UInt64) {
        let file = Self.expectSame(Array(SampleExport(placementCount: 150, seed: seed).jsonText().utf8), "sample \(seed)")
        #expect(file.entries.count == 150)
    }

    @Test func aRejectedFileHasOnlyItsRejection() {
        let text = #"{"formatVersion":2,"placements":{"a":{"placement":{"identifier":"a","revision":1}}}}"#
        let file = Self.expectSame(Array(text.utf8), "version 2")
        #expect(file.rejection?.rule == .unsupportedFormatVersion)
        let (findings, summaries) = Audit(now: testNow).check(FallbackTopLevel(text: text)) { $0.key }
        #expect(findings.map(\.ruleId) == [Rule.fileRejected.id])
        #expect(summaries.isEmpty)
    }

    @Test func theArrayTopLevel() {
        let text = #"[1,{"a":{"placement":{"identifier":"a","revision":1}},"b":{"placement":[]}}]"#
        let file = Self.expectSame(Array(text.utf8), "array quirk")
        #expect(file.usesArrayTopLevel)
        let (findings, _) = Audit(now: testNow).check(FallbackTopLevel(text: text)) { _ in }
        #expect(findings.map(\.ruleId).contains(Rule.arrayTopLevel.id))
    }

    @Test func aByteOrderMark() {
        let bytes = [0xEF, 0xBB, 0xBF] + Array(Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#)).utf8)
        let rejected = Self.expectSame(bytes, "BOM")
        #expect(rejected.rejection?.rule == .byteOrderMark)
        let stripped = Self.expectSame(bytes, strippingByteOrderMark: true, "BOM stripped")
        #expect(stripped.rejection == nil)
        #expect(stripped.hasByteOrderMark)
        #expect(stripped.loadedCount == 1)
    }

    @Test func duplicateKeysDecodeTheLastAndKeepEveryOccurrence() throws {
        let entries = [
            #""a":{"placement":[]}"#, Snap.entry("b", #""paywall":\#(Snap.paywall())"#),
            Snap.entry("a", #""paywall":\#(Snap.paywall())"#), #""b":{"placement":7}"#,
        ]
        let file = Self.expectSame(Array(Snap.file(entries.joined(separator: ",")).utf8), "duplicate keys")
        let (_, summaries) = Audit(now: testNow).check(FallbackTopLevel(text: Snap.file(entries.joined(separator: ",")))) { RecordSummary($0) }
        #expect(summaries.map(\.key) == ["a", "b"])
        #expect(summaries.map(\.keyRefs.count) == [2, 2])
        // The last occurrence is the one decoded: "a" loads, "b" is skipped.
        #expect(summaries.map(\.loaded) == [true, false])
        #expect(file.entries.map(\.value) == summaries.map(\.value))
    }

    @Test func skippedEntriesAreSummarisedWhereTheyFail() {
        let entries = [#""bad":{"placement":{"identifier":5,"revision":1}}"#, Snap.entry("good", #""paywall":\#(Snap.paywall())"#)]
        let file = Self.expectSame(Array(Snap.file(entries.joined(separator: ",")).utf8), "skipped")
        #expect(file.skippedCount == 1)
        #expect(file.loadedCount == 1)
    }

    /// A file of `count` entries, each with a paywall whose `builderConfig` the model keeps as a
    /// value in the document, so each decoded entry holds one reference to the document's storage.
    static func builderConfigFile(count: Int) -> String {
        let paywall = Snap.paywall().dropLast() + #","builderConfig":{"blocks":[]}}"#
        return Snap.file((0..<count).map { Snap.entry("p\($0)", #""paywall":\#(paywall)"#) }.joined(separator: ","))
    }

    /// Counts the references to one object seen while entries are summarised.
    final class ReferenceWatch: @unchecked Sendable {
        private let lock = NSLock()
        private var most = 0
        func see(_ count: Int) { lock.withLock { most = max(most, count) } }
        var maximum: Int { lock.withLock { most } }
    }

    /// The references to the document's storage are the decoded entries that are alive: the
    /// whole-file load holds one per entry; the chunked pass, at most a few per entry in flight
    /// (cores × chunk size), however many entries the file has.
    @Test func theChunkedPassLetsEachChunksModelsGo() throws {
        let count = 2_000
        let text = Self.builderConfigFile(count: count)
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == count)
        #expect(file.entries.allSatisfy { $0.entry?.paywall?.builderConfig != nil })
        let wholeFileReferences = Int(_getRetainCount(file.document.storage))
        #expect(wholeFileReferences >= count)

        let topLevel = FallbackTopLevel(text: text)
        let storage = topLevel.document.storage
        let baseline = Int(_getRetainCount(storage))
        let watch = ReferenceWatch()
        let chunkSize = 4
        let (findings, summaries) = Audit(now: testNow).check(topLevel, chunkSize: chunkSize) { record in
            watch.see(Int(_getRetainCount(storage)))
            return record.entry != nil
        }
        #expect(summaries.count == count && summaries.allSatisfy { $0 })
        #expect(findings == Audit(now: testNow).findings(in: file))
        let inFlight = ProcessInfo.processInfo.activeProcessorCount * chunkSize
        // A few references per entry in flight (the record, its copy in the audit, the run's own
        // values): far below one per entry of the file.
        #expect(watch.maximum - baseline <= 8 * inFlight + 16)
        #expect(watch.maximum - baseline < count / 4)
    }
}
