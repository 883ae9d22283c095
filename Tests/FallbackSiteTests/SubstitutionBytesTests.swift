import FallbackMustache
import FallbackSample
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// Values substituted into a page as bytes (issue 10, render cost): `SnapshotText.appendHTML` and
/// `appendAttribute` must append exactly `html(_:)` and `attribute(_:)`; a page's tokens must be
/// spelled as `prefix + String(number) + suffix`; and box labels of Latin text fitted scalar by
/// scalar (`DrawingText.fittedLatinScalars`) must be what the per-character path fits.
@Suite("Substitution and labels as bytes")
struct SubstitutionBytesTests {
    /// Hostile and ordinary text: markup, quotes, backslashes, every kind of hidden character,
    /// combining marks, isolates, long text around the cut, and every string of every input file.
    static let texts: [String] = {
        var texts = [
            "", "a", "plain ascii", "<script>alert(1)</script>", "\"q\" 'a' & \\ back\\slash", "é", "caf\u{E9} <b>", "x\u{301}y",
            "\u{202E}evil", "tab\there", "line\nbreak", "cr\r\nlf", "\u{7F}", "\u{85}nel", "\u{A0}nbsp", "soft\u{AD}hyphen",
            "\u{2028}", "\u{FFFE}", "\u{FFFF}", "😀 emoji", "日本語", "עברית", "\u{0}nul", "¿Qué?", "Ünïcödé ß ø å",
            String(repeating: "a", count: SnapshotText.textLength), String(repeating: "a", count: SnapshotText.textLength + 1),
            String(repeating: "é", count: SnapshotText.textLength / 2), String(repeating: "é", count: SnapshotText.textLength / 2 + 1),
            String(repeating: "<", count: 2000),
        ]
        for file in ListingBytesTests.files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            let document = JSONDocument(text: String(decoding: data, as: UTF8.self))
            guard document.hasRoot else { continue }
            // Every string and key, up to a few thousand a file.
            var pending = [document.root]
            var taken = 0
            while let value = pending.popLast(), taken < 3_000 {
                if let string = value.string {
                    texts.append(string)
                    taken += 1
                }
                for member in value.members {
                    pending.append(member.value)
                    if let key = member.keyValue.string { texts.append(key) }
                }
                pending += value.elements
            }
        }
        var generator = SplitMix64(seed: 11)
        let pieces = ["a", "Z", " ", "<", ">", "&", "\"", "'", "\\", "é", "ß", "\u{301}", "\u{202E}", "\u{7}", "\n", "😀", "\u{A0}", "\u{AD}", "ǿ", "Ȁ", "ɐ"]
        for _ in 0..<400 {
            let length = Int(generator.next() % 40)
            texts.append((0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        return texts
    }()

    @Test func appendedHTMLIsWhatHTMLMakes() {
        for text in Self.texts {
            var output: [UInt8] = [0x2A]
            SnapshotText.appendHTML(text, to: &output)
            #expect(output == [0x2A] + Array(SnapshotText.html(text).utf8), "\(text.debugDescription.prefix(200))")
            var writer = ByteWriter(capacity: 1)
            writer.append(byte: 0x2A)
            SnapshotText.appendHTML(text, to: &writer)
            #expect(writer.take() == output)
        }
    }

    @Test func appendedAttributeIsWhatAttributeMakes() {
        for text in Self.texts {
            var output: [UInt8] = [0x2A]
            SnapshotText.appendAttribute(text, to: &output)
            #expect(output == [0x2A] + Array(SnapshotText.attribute(text).utf8), "\(text.debugDescription.prefix(200))")
            var writer = ByteWriter(capacity: 1)
            writer.append(byte: 0x2A)
            SnapshotText.appendAttribute(text, to: &writer)
            #expect(writer.take() == output)
        }
    }

    @Test func theHTMLTableEscapesEveryByteAsMarkupEscapingDoes() {
        for byte in 0..<128 {
            let text = String(UnicodeScalar(UInt8(byte)))
            var output: [UInt8] = []
            Array(text.utf8).withUnsafeBufferPointer { ListingBytes.appendHTML($0, to: &output) }
            #expect(output == Array(MarkupEscaping.html.escape(text).utf8), "byte \(byte)")
        }
        for byte in 128..<256 { #expect(ListingBytes.htmlReplacements[byte].isEmpty) }
    }

    /// Every value of a page goes through a token: they must read back in the order registered,
    /// with numbers of every length.
    @Test func tokensAreSpelledAsBefore() {
        let values = PageValues()
        let first = values.escaping.escape("x")
        let prefix = String(first.prefix(PageValues.marker.count + 12))
        #expect(prefix.hasPrefix(PageValues.marker))
        #expect(first == prefix + "0" + PageValues.suffix)
        for number in 1..<12_000 {
            let token = values.escaping.escape("v\(number)")
            #expect(token == prefix + String(number) + PageValues.suffix, "\(number)")
        }
        #expect(String(decoding: values.substitutedBytes(in: values.escaping.escape("<é>")), as: UTF8.self) == "<bdi>&lt;é&gt;</bdi>")
    }

    /// Latin labels: the scalar path fits as the per-character path does, and leaves anything else to it.
    @Test(arguments: [0.0, 5, 20, 47.5, 120, 300, 10_000])
    func latinLabelsAreFittedAsCharacterByCharacter(maxWidth: Double) {
        for text in Self.texts + FittedTextBytesTests.texts {
            for fontSize in [11.0, 13.0] {
                let reference = DrawingText.fittedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize)
                #expect(DrawingText.fitted(text, maxWidth: maxWidth, fontSize: fontSize) == reference, "\(text.debugDescription.prefix(200)) in \(maxWidth)")
                if let latin = DrawingText.fittedLatinScalars(text, maxWidth: maxWidth, fontSize: fontSize) {
                    #expect(latin == reference, "\(text.debugDescription.prefix(200)) in \(maxWidth)")
                }
            }
        }
    }

    /// Every scalar the Latin path takes is a character of its own whatever stands around it, so
    /// the per-character path sees the same pieces.
    @Test func everyLatinScalarIsACharacterOfItsOwn() {
        let neighbours: [String] = ["a", " ", "é", "\u{301}", "\u{200D}", "\u{FE0F}", "ǿ", "Z"]
        for value in UInt32(0x21)...0x24F {
            let scalar = Unicode.Scalar(value)!
            let text = String(Character(scalar))
            let taken = DrawingText.fittedLatinScalars(text, maxWidth: 10_000, fontSize: 13) != nil
            #expect(taken == ((0x21...0x7E).contains(value) || (0xA1...0x24F).contains(value) && value != 0xAD), "U+\(String(value, radix: 16))")
            guard taken else { continue }
            #expect(!Character(scalar).isWhitespace)
            for neighbour in neighbours where DrawingText.fittedLatinScalars(neighbour, maxWidth: 10_000, fontSize: 13) != nil {
                #expect((text + neighbour).count == 1 + neighbour.count && (neighbour + text).count == neighbour.count + 1, "U+\(String(value, radix: 16))")
            }
        }
        #expect(DrawingText.fittedLatinScalars("e\u{301}", maxWidth: 10_000, fontSize: 13) == nil)
        #expect(DrawingText.fittedLatinScalars("a\u{A0}b", maxWidth: 10_000, fontSize: 13) == nil)
    }
}

/// A long value put in as element content is cut, with its length and a hash of all its bytes,
/// made once per page for each value stored in one place: the page is the same as each token's
/// own HTML, however the long values repeat, alternate or differ only past the cut.
@Suite("Long values put in once per page")
struct LongContentTests {
    @Test func repeatedAndAlternatingLongValuesAreEachTheirOwnHTML() {
        let limit = SnapshotText.textLength
        let long = String(repeating: "é<", count: limit)
        let twin = String(repeating: "é<", count: limit - 1) + "é>"
        let hidden = "\u{202E}" + String(repeating: "x", count: 2 * limit) + "\u{7}"
        // Equal to `long`, stored apart.
        let copy = String(decoding: Array(long.utf8), as: UTF8.self)
        let texts = [long, twin, long, hidden, long, "short", twin, copy, long]
        let values = PageValues()
        let tokens = values.withRenderEscaping { escaping in texts.map { escaping.escape($0) } }
        let page = tokens.map { "<p>\($0)</p>" }.joined(separator: "\n")
        let expected = texts.map { "<p>\(SnapshotText.html($0))</p>" }.joined(separator: "\n")
        #expect(String(decoding: values.substitutedBytes(in: page), as: UTF8.self) == expected)
        // Twice over the same values: the second page reads what the first made.
        #expect(String(decoding: values.substitutedBytes(in: page + page), as: UTF8.self) == expected + expected)
    }
}
