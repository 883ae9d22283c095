import Testing
@testable import FallbackSite
import FallbackSample

/// `DrawingText.wrapped` and `DrawingText.width(of:fontSize:)` take text whose scalars are each a
/// character drawn as it is (printable ASCII, Latin, and the symbols of `isSymbolDrawnAlone`) a
/// scalar at a time, and `fitsUnchanged` takes those symbols on its byte path (issue 10: a step
/// label cost about 17,000 instructions one `Character` at a time, and every step's tooltip with
/// its `→` went the per-character way). Every text must come out as the per-character paths, kept
/// as the reference, make it: the same lines, the same width to the last bit, the same verdict;
/// and any other text must go the per-character way.
@Suite("Wrapped text scalars")
struct WrappedTextScalarsTests {
    /// Conditions and copy as labels carry them, runs of spaces, words longer than a line, text
    /// long enough to be cut after the last line, every printable ASCII byte, the Latin range and
    /// the symbols.
    static let drawnAloneTexts: [String] = [
        "", " ", "   ", "a", " a", "a ", "  a  b  ", "answer == \"yes\"", "plan in [\"pro\", \"max\"] && age >= 18",
        "if score > 3 then upgrade else stay", String(repeating: "x", count: 90), String(repeating: "mw ", count: 60),
        String(repeating: "word ", count: 400), "a" + String(repeating: " ", count: 50) + "b",
        String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) }),
        String(repeating: "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii WWWWWWWWWWWWWWWWWWWW ", count: 8),
        "1 · motivation answered", "2 · else", "Größe", "Ünïcödé façade ¿qué? ¡sí!",
        String((0xA1...0x24F).filter { $0 != 0xAD }.map { Character(Unicode.Scalar(UInt32($0))!) }),
        String(repeating: "ŁŻŚ ", count: 70),
        "3 · plan ∈ [\"pro\"] ∧ age ≥ 18 ∨ country ∉ [\"DE\"]", "x ≠ 2 ∧ y ≤ 3 ∧ tags ∋ \"a\"", "if answered → end",
        "wait… – — →→→", String(repeating: "∈∉∋∧∨≠≤≥→ ", count: 40),
    ]

    /// Texts the scalar path must leave to the per-character one.
    static let otherTexts: [String] = [
        "e\u{301}", "a\u{AD}b", "a\u{A0}b", "à\u{300}", "≠\u{338}", "→\u{FE0F}", "→\u{20D7}", "∧\u{200D}∨", "a\tb", "a\r\nb", "line\nbreak",
        "a\u{7F}", "plan ⊂ 2", "👩‍👩‍👧 family", "\u{202E}abc", "\u{2028}",
    ]

    static let widths: [Double] = [1, 8, 40, 120, 200]
    static let lineCounts = [1, 2, 3, 40]

    @Test func drawnAloneTextWrapsAsOneCharacterAtATime() {
        for text in Self.drawnAloneTexts {
            for maxWidth in Self.widths {
                for maxLines in Self.lineCounts {
                    let fast = DrawingText.wrappedByScalar(text, maxWidth: maxWidth, fontSize: 11, maxLines: maxLines)
                    let reference = DrawingText.wrappedByCharacter(text, maxWidth: maxWidth, fontSize: 11, maxLines: maxLines)
                    #expect(fast == reference, "\(text.debugDescription) width \(maxWidth) lines \(maxLines)")
                    #expect(DrawingText.wrapped(text, maxWidth: maxWidth, fontSize: 11, maxLines: maxLines) == reference)
                }
            }
        }
    }

    @Test func otherTextIsLeftToTheCharacterPath() {
        for text in Self.otherTexts {
            #expect(DrawingText.scalarsDrawnAlone(in: text) == nil, "\(text.debugDescription)")
            #expect(DrawingText.wrappedByScalar(text, maxWidth: 200, fontSize: 11, maxLines: 3) == nil, "\(text.debugDescription)")
            #expect(DrawingText.widthByScalar(of: text, fontSize: 11) == nil, "\(text.debugDescription)")
            #expect(
                DrawingText.wrapped(text, maxWidth: 200, fontSize: 11, maxLines: 3)
                    == DrawingText.wrappedByCharacter(text, maxWidth: 200, fontSize: 11, maxLines: 3))
        }
    }

    @Test func drawnAloneWidthIsTheCharacterSumBitForBit() {
        for text in Self.drawnAloneTexts + Self.otherTexts {
            for fontSize in [11.0, 12.0 * 1.06] {
                let reference = DrawingText.widthByCharacter(of: text, fontSize: fontSize)
                if let fast = DrawingText.widthByScalar(of: text, fontSize: fontSize) {
                    #expect(fast.bitPattern == reference.bitPattern, "\(text.debugDescription)")
                }
                #expect(DrawingText.width(of: text, fontSize: fontSize).bitPattern == reference.bitPattern)
            }
        }
    }

    /// Random texts of the symbols, Latin and ASCII, and of scalars that join them or are
    /// something else: the byte path's verdict on a fit and the scalar path's lines are the
    /// per-character paths', at every width.
    @Test func symbolsFitAndWrapAsTheCharacterPathSays() {
        var generator = SplitMix64(seed: 0x2192)
        let pieces = [
            "a", "Z", " ", "  ", "\u{B7}", "\u{E9}", "\u{2013}", "\u{2026}", "\u{2192}", "\u{2208}", "\u{2209}", "\u{220B}", "\u{2227}",
            "\u{2228}", "\u{2260}", "\u{2264}", "\u{2265}", "\u{2191}", "\u{2261}", "\u{338}", "\u{FE0F}", "\u{20D7}", "\u{200D}", "\u{301}",
            "\t", "\u{1F44D}",
        ]
        var scalarPathTexts = 0
        for _ in 0..<3_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...10, using: &generator) { text += pieces.randomElement(using: &generator)! }
            if DrawingText.scalarsDrawnAlone(in: text) != nil { scalarPathTexts += 1 }
            for maxWidth in [0.0, 20, 35, 60, 600] {
                #expect(
                    DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: 11)
                        == DrawingText.fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: 11), "\(text.debugDescription) in \(maxWidth)")
                #expect(
                    DrawingText.wrapped(text, maxWidth: maxWidth, fontSize: 11, maxLines: 2)
                        == DrawingText.wrappedByCharacter(text, maxWidth: maxWidth, fontSize: 11, maxLines: 2), "\(text.debugDescription) in \(maxWidth)")
            }
        }
        #expect(scalarPathTexts > 300)
    }
}
