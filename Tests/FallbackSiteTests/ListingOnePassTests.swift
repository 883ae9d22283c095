import FallbackAudit
import FallbackSample
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The listing's one-pass pieces against what they replace: `DecimalText` against `String(n)`,
/// `ListingBytes.scan`'s first escape against a search, the cursor's eight-byte steps against the
/// document at every offset, and the wanted-anchor lookup with anchors at every line in any order.
@Suite("Source listing: one pass per token")
struct ListingOnePassTests {
    static func text(_ decimal: DecimalText) -> String {
        var output: [UInt8] = []
        decimal.append(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs of numbers as a listing's gutter meets them: small steps, carries across every
    /// length, jumps, steps back, and the extremes.
    static let runs: [[Int]] = {
        var generator = SplitMix64(seed: 0xDEC1)
        var runs: [[Int]] = [
            Array(0...1200), [9, 10, 99, 100, 999, 1000, 9_999_999, 10_000_000, 1, 5, 4, 4, 0],
            [0, 1 << 31, (1 << 31) + (1 << 32) - 1, (1 << 31) + (1 << 32), Int.max - 5, Int.max, 0, -1, -42, Int.min, 3, Int.min, Int.max],
            [-5, -4, 7, 99_999_999_999, 100_000_000_001],
        ]
        for _ in 0..<50 {
            var number = Int.random(in: 0...5_000_000, using: &generator)
            var run: [Int] = []
            for _ in 0..<200 {
                switch Int.random(in: 0...9, using: &generator) {
                case 0: number = Int.random(in: 0...99, using: &generator)
                case 1: number += Int.random(in: 1_000...9_000_000, using: &generator)
                default: number += Int.random(in: 0...120, using: &generator)
                }
                run.append(number)
            }
            runs.append(run)
        }
        return runs
    }()

    @Test(arguments: [("<span class=\"ln\">", ""), (":", "</span>"), ("", ""), ("12345678901234567890", "123456789012345678901234")])
    func decimalTextSpellsEveryNumberAsStringDoes(prefix: StaticString, suffix: StaticString) {
        let (before, after) = ("\(prefix)", "\(suffix)")
        for run in Self.runs {
            var decimal = DecimalText(prefix: prefix, suffix: suffix)
            #expect(Self.text(decimal) == before + "0" + after)
            for number in run {
                decimal.set(number)
                guard Self.text(decimal) == before + String(number) + after, decimal.number == number else {
                    Issue.record("\(number) after \(run.prefix(5))…: \(Self.text(decimal))")
                    return
                }
            }
        }
    }

    /// Random tokens of ASCII, the bytes HTML escapes, quotes, controls and UTF-8 (cut too). A
    /// page's values are escaped for markup from the first byte `MarkupEscaping.html` escapes that
    /// the scan found (`&`, `<`, `>`, `"`, `'`): the same bytes as escaping the whole value, and
    /// the same text `SnapshotText` makes as a `String`.
    @Test func theScanFindsTheFirstEscapeAndEscapesAsTheWholeTokenDoes() {
        var generator = SplitMix64(seed: 0x5CA9)
        let pieces: [[UInt8]] = ["a", "Z", " ", "&", "<", ">", "\"", "\\", "'", "\u{7F}", "\t", "é", "\u{202E}", "😀", "\u{200B}"].map { Array($0.utf8) }
            + [[0xC3], [0xE2, 0x80], [0x80], [0xFF]]
        for _ in 0..<20_000 {
            var token: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) { token += pieces.randomElement(using: &generator)! }
            token.withUnsafeBufferPointer { bytes in
                for quotes in [false, true] {
                    guard let scan = ListingBytes.scan(bytes, quotesAndBackslashes: quotes) else { continue }
                    let first = token.firstIndex { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }
                    #expect(scan.firstEscape == first, "\(token)")
                    #expect(scan.form == (token.allSatisfy { $0 < 0x80 } ? .ascii : .isolated), "\(token)")
                    var whole: [UInt8] = []
                    ListingBytes.appendHTMLText(bytes, to: &whole)
                    var fromFirst: [UInt8] = []
                    ListingBytes.appendHTMLText(bytes, from: scan.firstEscape, to: &fromFirst)
                    #expect(fromFirst == whole, "\(token)")
                    #expect(scan.firstMarkupEscape == token.firstIndex { "&<>\"'".utf8.contains($0) }, "\(token)")
                    var markup: [UInt8] = []
                    ListingBytes.appendHTML(bytes, to: &markup)
                    var markupFromFirst: [UInt8] = []
                    ListingBytes.appendHTML(bytes, from: scan.firstMarkupEscape, to: &markupFromFirst)
                    #expect(markupFromFirst == markup, "\(token)")
                }
            }
            let text = String(decoding: token, as: UTF8.self)
            var html: [UInt8] = []
            SnapshotText.appendHTML(text, to: &html)
            #expect(String(decoding: html, as: UTF8.self) == SnapshotText.html(text), "\(token)")
            var attribute: [UInt8] = []
            SnapshotText.appendAttribute(text, to: &attribute)
            #expect(String(decoding: attribute, as: UTF8.self) == SnapshotText.attribute(text), "\(token)")
        }
    }

    /// Random texts of line feeds, carriage returns, ASCII and UTF-8, asked at every offset in
    /// order: the eight-byte steps give the document's line and column.
    @Test func theCursorAgreesWithTheDocumentAtEveryOffset() {
        var generator = SplitMix64(seed: 0xC0C0)
        let pieces = ["a", "\n", "\r\n", "é", "😀", "\u{202E}", "        ", "\"k\":", "\n\n\n", "0123456789abcdef"]
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<Int.random(in: 0...60, using: &generator) { text += pieces.randomElement(using: &generator)! }
            let document = JSONDocument(text: text)
            var cursor = PositionCursor(document: document)
            var offset = 0
            while offset <= document.bytes.count {
                let expected = document.position(ofOffset: offset)
                let found = cursor.position(ofOffset: offset)
                guard found == expected else {
                    Issue.record("\(text.debugDescription) offset \(offset): \(found) against \(expected)")
                    return
                }
                offset += Int.random(in: 0...20, using: &generator)
            }
        }
    }

    /// Anchors at every value's position (and some no line has), given shuffled and repeated:
    /// each line's own anchor is placed as the reference places it.
    @Test(arguments: [0, 1, 2])
    func anchorsAtEveryLineInAnyOrderListAsTheReferenceDoes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        for text in [ListingBytesTests.hostile, "{\"a\":{\n\"b\":[1,\n2,\n{\"c\":\n\"d\"}],\n\"e\":null}}", SampleExport(placementCount: 4, seed: seed + 3).jsonText()] {
            let document = JSONDocument(text: text)
            let entries = document.root["placements"].map { $0.members } ?? document.root.members
            for entry in entries {
                var anchors: [String] = []
                var pending = [entry.value]
                while let value = pending.popLast() {
                    anchors.append(SourceListing.anchor(line: value.position.line, column: value.position.column))
                    pending += value.members.flatMap { [$0.value, $0.keyValue] } + value.elements
                }
                anchors += anchors.prefix(3) + ["L1-1", "L999999-1", "L2-0"]
                anchors.shuffle(using: &generator)
                let listing = SourceListing.html(for: entry.value, key: entry.key, findings: [], linkedFrom: anchors)
                let reference = ReferenceSourceListing.html(for: entry.value, key: entry.key, findings: [], linkedFrom: anchors)
                #expect(listing == reference, "\(entry.key.prefix(40))")
            }
        }
    }
}
