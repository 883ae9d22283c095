import CByteMasks
import FallbackSample
@testable import RovenueFallback
import Testing

/// Both sets of block masks (`PortableBlockMasks`, and on x86-64 `SSE2BlockMasks` through
/// `CByteMasks`) give, for every test, the mask a byte-by-byte reading of its definition gives: with
/// every byte value in every lane, on random blocks of JSON-like and arbitrary bytes, and at every
/// alignment. Whole texts are compared in `ParallelStageOneTests`, `StageTwoParserTests` and
/// `SplitParseTests`, which scan the repository's files with both.
@Suite struct BlockMasksTests {
    /// One of the tests, by its definition on a single byte.
    struct MaskTest: Sendable, CustomTestStringConvertible {
        let name: String
        let holds: @Sendable (UInt8) -> Bool
        let mask: @Sendable (any BlockMasks.Type, UnsafeRawPointer) -> UInt64

        var testDescription: String { name }

        /// The mask by the definition, one byte at a time.
        func reference(_ block: UnsafeRawPointer) -> UInt64 {
            (0..<64).reduce(0) { mask, lane in holds(block.load(fromByteOffset: lane, as: UInt8.self)) ? mask | 1 << UInt64(lane) : mask }
        }
    }

    static func equal(_ byte: UInt8) -> MaskTest {
        MaskTest(name: "equal to \(byte)", holds: { $0 == byte }, mask: { masks, block in masks.bytes(equalTo: byte, in: block) })
    }

    static func either(_ first: UInt8, _ second: UInt8) -> MaskTest {
        MaskTest(
            name: "equal to \(first) or \(second)", holds: { $0 == first || $0 == second },
            mask: { masks, block in masks.bytes(equalTo: first, or: second, in: block) })
    }

    /// Every test the scans use, with the bytes they use, and byte values at the edges of the
    /// signed and unsigned comparisons (0x00, 0x1F, 0x20, 0x7F, 0x80, 0xBF, 0xC0, 0xFF).
    static let tests: [MaskTest] = [
        MaskTest(name: "whitespace", holds: { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, mask: { $0.whitespace(in: $1) }),
        MaskTest(name: "control characters", holds: { $0 < 0x20 }, mask: { $0.controlCharacters(in: $1) }),
        MaskTest(name: "high bytes", holds: { $0 >= 0x80 }, mask: { $0.highBytes(in: $1) }),
        MaskTest(name: "continuation bytes", holds: { $0 & 0xC0 == 0x80 }, mask: { $0.continuationBytes(in: $1) }),
    ] + Array("\"\\ \n{}[],:".utf8).map(equal) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xFF].map(equal)
        + [(UInt8(ascii: "\""), UInt8(ascii: "\\")), (UInt8(ascii: "{"), UInt8(ascii: "[")), (UInt8(ascii: "}"), UInt8(ascii: "]")),
           (UInt8(ascii: ","), UInt8(ascii: ":")), (0x00, 0xFF), (0x7F, 0x80)].map(either)

    /// Each set of masks this processor has.
    static var sets: [any BlockMasks.Type] {
        #if arch(x86_64)
            [PortableBlockMasks.self, SSE2BlockMasks.self]
        #else
            [PortableBlockMasks.self]
        #endif
    }

    /// Expects every set's mask of the 64 bytes at `block` to be the reference.
    static func expectReference(_ test: MaskTest, _ block: UnsafeRawPointer, _ label: @autoclosure () -> String) {
        let reference = test.reference(block)
        for masks in sets {
            let mask = test.mask(masks, block)
            #expect(mask == reference, "\(masks) \(test.name) \(label()): \(String(mask, radix: 16)) not \(String(reference, radix: 16))")
        }
    }

    /// The C target says whether its SSE2 functions were compiled, and the native set follows it:
    /// every x86-64 processor has SSE2, so there it must be the C set.
    @Test func theCTargetsSSE2FunctionsAreCompiledExactlyOnX86() {
        #if arch(x86_64)
            #expect(fallback_byte_masks_available() == 1)
            #expect(NativeBlockMasks.self == SSE2BlockMasks.self)
        #else
            #expect(fallback_byte_masks_available() == 0)
            #expect(NativeBlockMasks.self == PortableBlockMasks.self)
        #endif
    }

    /// Every byte value in every lane: block `s` holds `(step × lane + s) mod 256` in each lane, so
    /// over the 256 values of `s` each lane holds each byte once, beside different neighbours for
    /// each step; and each byte alone among 63 copies of one that passes and of one that fails.
    @Test(arguments: tests) func everyByteInEveryLane(_ test: MaskTest) throws {
        var compared = 0
        var block = [UInt8](repeating: 0, count: 64)
        for step in [1, 3, 7] {
            for shift in 0..<256 {
                for lane in 0..<64 { block[lane] = UInt8(truncatingIfNeeded: step * lane + shift) }
                block.withUnsafeBytes { Self.expectReference(test, $0.baseAddress!, "step \(step) shift \(shift)") }
                compared += 1
            }
        }
        let passing = try #require((0...255).map(UInt8.init).first(where: test.holds))
        let failing = try #require((0...255).map(UInt8.init).first { !test.holds($0) })
        for filler in [passing, failing] {
            block = [UInt8](repeating: filler, count: 64)
            for lane in 0..<64 {
                for byte in [0x00, 0x1F, 0x20, 0x7F, 0x80, 0xBF, 0xC0, 0xFF, Int(passing), Int(failing)] {
                    block[lane] = UInt8(byte)
                    block.withUnsafeBytes { Self.expectReference(test, $0.baseAddress!, "byte \(byte) in lane \(lane) among \(filler)") }
                    compared += 1
                }
                block[lane] = filler
            }
        }
        #expect(compared == 3 * 256 + 2 * 64 * 10)
    }

    /// Random blocks, at every alignment of a buffer: drawn from JSON's bytes (structurals, quotes,
    /// backslashes, whitespace, digits, letters, UTF-8 of two to four bytes) and from all 256 values.
    @Test(arguments: tests) func randomBlocksAtEveryAlignment(_ test: MaskTest) {
        var generator = SplitMix64(seed: 41)
        let jsonLike = Array("{}[],:\"\\ \n\r\t0123456789abcxyzé€😀\u{1}\u{1F}\u{7F}".utf8)
        var buffer = [UInt8](repeating: 0, count: 64 * 9)
        var passed = 0
        for round in 0..<8 {
            for offset in buffer.indices {
                let draw = generator.next()
                buffer[offset] = round % 2 == 0 ? jsonLike[Int(draw % UInt64(jsonLike.count))] : UInt8(truncatingIfNeeded: draw)
            }
            buffer.withUnsafeBytes { raw in
                for start in 0...(raw.count - 64) {
                    let block = raw.baseAddress! + start
                    Self.expectReference(test, block, "round \(round) at \(start)")
                    passed += test.reference(block).nonzeroBitCount
                }
            }
        }
        // The blocks held bytes that pass, or the comparison would prove little.
        #expect(passed > 0)
    }
}
