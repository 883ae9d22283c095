import FallbackSample
import FallbackTestSupport
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The scans that pass sixteen bytes at a time (`ByteBlocks`) against the same scans one byte at a
/// time (`StructuralIndex.Path.scalar`): every length from 0 to 100 at every alignment, bytes drawn
/// with many of those the scans stop at, every byte value at every place of a block, and the
/// repository's snapshots.
@Suite("Byte blocks: sixteen bytes at a time as one at a time")
struct ByteBlocksTests {
    typealias Scan = (form: ListingBytes.PlainForm, firstEscape: Int?, firstMarkupEscape: Int?)?

    /// Equal scans: both nil, or the same three answers.
    static func same(_ left: Scan, _ right: Scan) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case let (left?, right?): left.form == right.form && left.firstEscape == right.firstEscape && left.firstMarkupEscape == right.firstMarkupEscape
        default: false
        }
    }

    /// `bytes` at `alignment` bytes past a block's start in a larger buffer, so the loads of the
    /// vector path fall at every offset from an aligned address.
    static func withAligned<Result>(_ bytes: [UInt8], alignment: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let padded = [UInt8](repeating: UInt8(ascii: "a"), count: alignment) + bytes + [UInt8(ascii: "&")]
        return padded.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[alignment..<(alignment + bytes.count)])) }
    }

    /// Differences found, each told once: the first is recorded as an issue and the rest counted,
    /// so that a broken path fails in a moment rather than with thousands of issues.
    struct Differences {
        private(set) var count = 0

        mutating func record(_ description: @autoclosure () -> String) {
            if count == 0 { Issue.record(Comment(rawValue: description())) }
            count += 1
        }

        func expectNone() {
            #expect(count == 0, "\(count) differences")
        }
    }

    /// The listing scan's two paths on `bytes`, for both quote rules: the same answer.
    static func compareScans(_ bytes: [UInt8], alignment: Int = 0, into differences: inout Differences, _ comment: @autoclosure () -> String) {
        withAligned(bytes, alignment: alignment) { buffer in
            for quotes in [false, true] {
                let vector = ListingBytes.scan(buffer, quotesAndBackslashes: quotes, path: .vector)
                let scalar = ListingBytes.scan(buffer, quotesAndBackslashes: quotes, path: .scalar)
                if !same(vector, scalar) {
                    differences.record("\(comment()) quotes \(quotes): \(String(describing: vector)) against \(String(describing: scalar))")
                }
            }
        }
    }

    /// Plain ASCII mostly, and every class the scan tells apart: the bytes HTML escapes, quotes
    /// and backslashes, both ends of plain ASCII and the bytes just past them, controls, DEL,
    /// UTF-8 (whole, hidden, cut) and bytes that are never UTF-8.
    static let pieces: [[UInt8]] =
        ["a", "a", "a", "a", "Z", "0", " ", "~", "&", "<", ">", "\"", "\\", "'", "\u{7F}", "\t", "\u{1F}", "\n", "é", "\u{202E}", "😀", "\u{200B}"]
        .map { Array($0.utf8) } + [[0xC3], [0xE2, 0x80], [0x80], [0xFF], [0x00]]

    @Test func theListingScanFindsTheSameAtEveryLengthAndAlignment() {
        var generator = SplitMix64(seed: 0xB10C)
        var differences = Differences()
        for length in 0...100 {
            for alignment in 0..<16 {
                for _ in 0..<12 {
                    var token: [UInt8] = []
                    // Long runs of plain bytes now and then, so that blocks pass whole.
                    let plainRun = Int.random(in: 0...3, using: &generator) == 0
                    while token.count < length {
                        token += plainRun && Int.random(in: 0...19, using: &generator) > 0 ? [UInt8(ascii: "m")] : Self.pieces.randomElement(using: &generator)!
                    }
                    token.removeLast(token.count - length)
                    Self.compareScans(token, alignment: alignment, into: &differences, "\(token)")
                }
            }
        }
        differences.expectNone()
    }

    /// Every byte value at every place of plain runs one to three blocks long: the vector path's
    /// lanes stop exactly where the scalar path's classes do.
    @Test func theListingScanStopsAtEveryByteValueWhereverItStands() {
        var differences = Differences()
        for length in [16, 17, 31, 40] {
            for value in 0...255 {
                for place in 0..<length {
                    var token = [UInt8](repeating: UInt8(ascii: "q"), count: length)
                    token[place] = UInt8(value)
                    Self.compareScans(token, into: &differences, "byte \(value) at \(place) of \(length)")
                }
            }
        }
        differences.expectNone()
    }

    /// Every snapshot of the repository, cut into tokens of every length from 1 to 100.
    @Test func theListingScanFindsTheSameInTheRepositorysSnapshots() throws {
        var differences = Differences()
        for path in corpusFiles {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            var start = 0
            var length = 1
            while start < bytes.count {
                let end = min(bytes.count, start + length)
                Self.compareScans(Array(bytes[start..<end]), alignment: start % 16, into: &differences, "\(path) \(start)..<\(end)")
                start = end
                length = length % 100 + 1
            }
        }
        differences.expectNone()
    }

    /// `ByteBlocks.firstIndex` on its own: from every start, the first of two stop bytes, or the
    /// end (the last block overlaps the one before, with the lanes already passed left out); a
    /// buffer shorter than a block is left to the caller.
    @Test func theFirstIndexIsTheFirstStopFromEveryStart() {
        var generator = SplitMix64(seed: 0xF1A5)
        let stops: (UInt8, UInt8) = (UInt8(ascii: "<"), UInt8(ascii: "z"))
        var differences = Differences()
        for length in 0...100 {
            for _ in 0..<8 {
                let density = Int.random(in: 1...40, using: &generator)
                let bytes = (0..<length).map { _ -> UInt8 in
                    if Int.random(in: 0..<density, using: &generator) == 0 { return Bool.random(using: &generator) ? stops.0 : stops.1 }
                    let other = UInt8.random(in: 0...255, using: &generator)
                    return other == stops.0 || other == stops.1 ? UInt8(ascii: "a") : other
                }
                for alignment in [0, 5, 15] {
                    Self.withAligned(bytes, alignment: alignment) { buffer in
                        for start in 0...length {
                            let found = ByteBlocks.firstIndex(in: buffer, from: start) {
                                ($0 .== ByteBlocks.Block(repeating: stops.0)) .| ($0 .== ByteBlocks.Block(repeating: stops.1))
                            }
                            let expected = length < 16 ? start : (bytes[start...].firstIndex { $0 == stops.0 || $0 == stops.1 } ?? length)
                            if found != expected { differences.record("\(bytes) from \(start): \(found), not \(expected)") }
                        }
                    }
                }
            }
        }
        differences.expectNone()
    }
}
