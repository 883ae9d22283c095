import FallbackSample
@testable import RovenueFallback
import Testing

/// A `FallbackFile`'s records are emptied on all cores when the last copy of the file goes, but
/// only when nothing else holds them: a caller still holding `entries`, or one record, or a copy of
/// the file, reads every record as it was decoded.
@Suite("FallbackFile: entries let go in parallel, never under a holder")
struct ParallelReleaseTests {
    /// More entries than one decode chunk, so the release runs in several.
    static let bytes = Array(SampleExport(placementCount: 100, seed: 11).jsonText().utf8)

    /// A record's every part, down to the whole decoded entry as reflection spells it.
    static func spelled(_ record: EntryRecord) -> String {
        "\(record.key) \(record.keyRefs) \(record.value) \(record.arrayForms) \(record.duplicateFields) "
            + "\(String(reflecting: record.failure)) \(String(reflecting: record.entry))"
    }

    static let expected = FallbackFile(bytes: bytes).entries.map(spelled)

    @Test func theSampleSpansSeveralChunks() {
        #expect(Self.expected.count > FallbackTopLevel.decodeChunkSize)
    }

    @Test func entriesHeldPastTheFileStayWhole() {
        var held: [EntryRecord] = []
        do {
            let file = FallbackFile(bytes: Self.bytes)
            held = file.entries
        }
        #expect(held.map(Self.spelled) == Self.expected)
    }

    @Test func oneRecordHeldPastTheFileStaysWhole() {
        var held: [EntryRecord] = []
        do {
            let file = FallbackFile(bytes: Self.bytes)
            held = [file.entries[0], file.entries[file.entries.count / 2], file.entries[file.entries.count - 1]]
        }
        let count = Self.expected.count
        #expect(held.map(Self.spelled) == [Self.expected[0], Self.expected[count / 2], Self.expected[count - 1]])
    }

    @Test func aCopyOfTheFileKeepsItsEntries() {
        var copy: FallbackFile?
        do {
            let file = FallbackFile(bytes: Self.bytes)
            copy = file
        }
        #expect(copy?.entries.map(Self.spelled) == Self.expected)
    }

    @Test func uniquenessIsReadWithoutACopy() {
        var array = FallbackFile(bytes: Self.bytes).entries.map { $0 }  // an array of its own
        // Asked outside `#expect`, which would hold a copy of the array to show it.
        let alone = DecodedEntries.isUniquelyHeld(&array)
        let other = array
        let shared = DecodedEntries.isUniquelyHeld(&array)
        #expect(alone)
        #expect(!shared)
        #expect(other.count == array.count)
        var empty: [EntryRecord] = []
        _ = DecodedEntries.isUniquelyHeld(&empty)  // the shared empty storage: either answer is safe
        #expect(empty.isEmpty)
    }
}
