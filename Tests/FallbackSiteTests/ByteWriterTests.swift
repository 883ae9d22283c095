import FallbackMustache
import FallbackSample
import Testing

/// `ByteWriter` copies short pieces with overlapping loads and stores and grows itself (issue 10:
/// small `[UInt8]` appends cost about a hundred instructions each). Whatever the pieces' lengths,
/// its bytes must be what `[UInt8].append(contentsOf:)` makes.
@Suite("Byte writer")
struct ByteWriterTests {
    /// Every piece length from 0 to 40, after every length from 0 to 40, from a writer that must
    /// grow on the way (capacity 64 at first) and from one that need not.
    @Test(arguments: [1, 4_096])
    func everyPieceLengthAfterEveryOffsetIsCopiedAsArraysCopyIt(capacity: Int) {
        let source = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        source.withUnsafeBufferPointer { source in
            for first in 0...40 {
                for second in 0...40 {
                    var writer = ByteWriter(capacity: capacity)
                    var reference: [UInt8] = []
                    for (start, length) in [(3, first), (50, second), (7, second), (100, first), (0, 90)] {
                        let piece = UnsafeBufferPointer(rebasing: source[start..<start + length])
                        writer.append(bytes: piece)
                        reference.append(contentsOf: piece)
                        writer.append(byte: UInt8(length))
                        reference.append(UInt8(length))
                    }
                    #expect(writer.count == reference.count)
                    #expect(writer.take() == reference, "\(first) \(second)")
                    #expect(writer.count == 0)
                }
            }
        }
    }

    /// Random pieces, strings and bytes, far past the first capacity; the `[UInt8]` sink writes the same.
    @Test func randomPiecesMakeWhatAnArrayMakes() {
        var generator = SplitMix64(seed: 3)
        var writer = ByteWriter(capacity: 0)
        var sink: [UInt8] = []
        var reference: [UInt8] = []
        for _ in 0..<20_000 {
            let length = Int(generator.next() % (generator.next() % 8 == 0 ? 300 : 20))
            let piece = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            switch generator.next() % 4 {
            case 0:
                let text = String(decoding: piece, as: UTF8.self)
                writer.append(text)
                sink.append(text)
                reference.append(contentsOf: text.utf8)
            case 1:
                writer.append("<span class=\"k\">" as StaticString)
                sink.append("<span class=\"k\">" as StaticString)
                reference.append(contentsOf: "<span class=\"k\">".utf8)
            default:
                writer.append(bytes: piece)
                sink.append(bytes: piece)
                reference.append(contentsOf: piece)
            }
        }
        #expect(reference.count > 100_000)
        #expect(sink == reference)
        #expect(writer.take() == reference)
    }

    /// An array written in place (`ByteWriter.array(capacity:_:)`) holds what a writer's `take()`
    /// gives, whether the bytes fit the room it was made with, fill it exactly, or outgrow it
    /// (once or many times) and are copied.
    @Test(arguments: [0, 1, 63, 64, 65, 200, 299, 300, 301, 4_096])
    func anArrayWrittenInPlaceHoldsWhatTakeGives(capacity: Int) {
        var generator = SplitMix64(seed: UInt64(capacity))
        let pieces = (0..<30).map { _ in (0..<Int(generator.next() % 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        var reference: [UInt8] = []
        for piece in pieces { reference += piece + [7] }
        let exact = ByteWriter.array(capacity: capacity == 300 ? reference.count : capacity) { writer in
            for piece in pieces {
                piece.withUnsafeBufferPointer { writer.append(bytes: $0) }
                writer.append(byte: 7)
            }
        }
        #expect(exact == reference)
        #expect(ByteWriter.array(capacity: capacity) { _ in } == [])
    }
}
