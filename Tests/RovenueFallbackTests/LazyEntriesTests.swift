import FallbackSample
@testable import RovenueFallback
import Testing

/// A `FallbackFile` decodes its entries the first time they are asked for: all at once by
/// `entries`, or one at a time by a caller of `withEachRecord` (the audit), which the file then
/// keeps. Either way each entry is decoded once, the records are those `decodeEntry(at:)` makes,
/// and every copy of the file shares them.
@Suite("FallbackFile: entries decoded when first asked for, once, the same either way")
struct LazyEntriesTests {
    static let bytes = ParallelReleaseTests.bytes
    static let spelled = ParallelReleaseTests.spelled

    /// Each entry decoded by itself from the top level, in order.
    static let eachDecoded: [String] = {
        let topLevel = FallbackTopLevel(bytes: bytes)
        return topLevel.entryHeads.indices.map { spelled(topLevel.decodeEntry(at: $0)) }
    }()

    /// The start of the array `entries` gives: the same as long as the file keeps one decode.
    static func storage(of file: FallbackFile) -> Int {
        file.entries.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }

    @Test func nothingIsDecodedBeforeItIsAskedFor() {
        let file = FallbackFile(bytes: Self.bytes)
        #expect(file.timesEntriesDecoded == 0)
        #expect(file.topLevel.entryHeads.count == Self.eachDecoded.count)
        #expect(file.entries.map(Self.spelled) == Self.eachDecoded)
        #expect(file.timesEntriesDecoded == 1)
    }

    /// Which entries a caller asks for, in which order: none, all in order, every third from the
    /// end, all from the end.
    static let askings: [[Int]] = {
        let count = eachDecoded.count
        return [[], Array(0..<count), Array(stride(from: count - 1, through: 0, by: -3)), Array((0..<count).reversed())]
    }()

    @Test(arguments: askings.indices)
    func recordsAskedForOnSeveralThreadsAreKept(asking: Int) {
        let indices = Self.askings[asking]
        let file = FallbackFile(bytes: Self.bytes)
        let asked = file.withEachRecord { record in
            ParallelChunks(count: indices.count, size: 7).map { range in range.map { Self.spelled(record(indices[$0])) } }.flatMap { $0 }
        }
        #expect(asked == indices.map { Self.eachDecoded[$0] })
        #expect(file.timesEntriesDecoded == 1)
        #expect(file.entries.map(Self.spelled) == Self.eachDecoded)
        #expect(file.timesEntriesDecoded == 1)
    }

    @Test func recordsAskedForAfterEntriesAreTheKeptOnes() {
        let file = FallbackFile(bytes: Self.bytes)
        let before = Self.storage(of: file)
        let asked = file.withEachRecord { record in Self.eachDecoded.indices.map { Self.spelled(record($0)) } }
        #expect(asked == Self.eachDecoded)
        #expect(Self.storage(of: file) == before)
        #expect(file.timesEntriesDecoded == 1)
    }

    @Test func copiesShareOneDecode() {
        let file = FallbackFile(bytes: Self.bytes)
        let copy = file
        _ = file.withEachRecord { record in Self.spelled(record(3)) }
        #expect(copy.timesEntriesDecoded == 1)
        #expect(Self.storage(of: copy) == Self.storage(of: file))
        #expect(copy.entries.map(Self.spelled) == Self.eachDecoded)
    }

    @Test func threadsAskingAtOnceShareOneDecode() {
        let file = FallbackFile(bytes: Self.bytes)
        let starts = ParallelChunks(count: 8, chunks: 8).map { _ in Self.storage(of: file) }
        #expect(Set(starts).count == 1)
        #expect(file.timesEntriesDecoded == 1)
    }

    @Test func theArrayFormsComeFromTheKeptRecords() {
        let text = #"{"formatVersion":1,"placements":{"a":{"placement":["a",1]},"b":{"placement":{"identifier":"b","revision":2}}}}"#
        let eager = FallbackFile(text: text)
        let expected = eager.entries.flatMap(\.arrayForms)
        #expect(expected.count == 1)
        let lazy = FallbackFile(text: text)
        _ = lazy.withEachRecord { record in record(0) }
        let forms = lazy.entries.flatMap(\.arrayForms)
        #expect(forms == expected)
        #expect(forms.map { lazy.arrayForm(at: $0)?.source } == forms.map { eager.arrayForm(at: $0)?.source })
    }

    @Test func aRejectedFileHasNoRecords() {
        let file = FallbackFile(text: "[]")
        #expect(file.rejection != nil)
        let asked = file.withEachRecord { _ in 0 }
        #expect(asked == 0)
        #expect(file.entries.isEmpty)
    }
}
