import FallbackSample
import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit

/// Long runs of combining marks cost one pass: out-of-order marks tell `isDecomposed` before any
/// normalising, characters are spelled out into bytes, and findings are told apart by their bytes.
@Suite("combining marks and spelled-out text cost one pass")
struct CombiningRunTests {
    static let texts: [String] = [
        "", "abc", "café", "cafe\u{301}", "e\u{301}\u{316}", "e\u{316}\u{301}", "a\u{316}\u{316}\u{301}\u{301}",
        "a\u{301}\u{316}b", "\u{301}\u{316}", "\u{1EC7}\u{316}", "\u{0344}", "한국어", "\u{1100}\u{1161}", "K\u{212A}",
        "x" + String(repeating: "\u{301}\u{316}", count: 50), "x" + String(repeating: "\u{316}\u{301}", count: 50),
        "\u{5D0}\u{5B8}\u{5B4}", "\u{5D0}\u{5B4}\u{5B8}", "a\u{202E}b\n", "\u{E9}\u{301}",
    ]

    /// Out-of-order marks are decomposed text; the answer is Foundation's normal form's.
    @Test(arguments: texts)
    func decomposedAsTheNormalFormSays(text: String) {
        let normal = !text.utf8.elementsEqual(text.precomposedStringWithCanonicalMapping.utf8)
        #expect(VisibleText.isDecomposed(text) == normal)
        if VisibleText.hasMarksOutOfOrder(text) { #expect(normal) }
    }

    /// Texts normalised a piece at a time are decomposed exactly when Foundation's normal form of
    /// the whole text says so: generated from ASCII letters, marks that compose or not, precomposed
    /// letters, Hangul jamo and syllables, Bengali vowel signs that compose as starters, the Kelvin
    /// sign and CJK, with runs long enough to be cut past 64 characters.
    @Test(arguments: 0..<12)
    func aTextCutIntoPiecesIsDecomposedAsTheWholeIs(seed: Int) {
        let alphabet: [String] = [
            "e", "K", "a", " ", "\u{301}", "\u{300}", "\u{316}", "\u{323}", "\u{E9}", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{AC00}",
            "\u{9C7}", "\u{9BE}", "\u{9D7}", "\u{212A}", "\u{4E2D}", "\u{1B05}", "\u{1B35}", "\u{30AB}", "\u{3099}",
        ]
        var random = SplitMix64(seed: UInt64(seed))
        for _ in 0..<200 {
            let length = Int.random(in: 0...300, using: &random)
            // Runs without ASCII too, so pieces are cut only at other starters.
            let letters = Bool.random(using: &random) ? alphabet : alphabet.filter { !$0.unicodeScalars.allSatisfy(\.isASCII) }
            let text = (0..<length).map { _ in letters.randomElement(using: &random)! }.joined()
            let normal = !text.utf8.elementsEqual(text.precomposedStringWithCanonicalMapping.utf8)
            #expect(VisibleText.isDecomposed(text) == normal, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// A pair that composes as two starters (Bengali E and AA, Hangul L and V, Balinese A and its
    /// tedung) at every place around the 64th character of a piece, where pieces may be cut: never
    /// between the two.
    @Test(arguments: ["\u{9C7}\u{9BE}", "\u{1100}\u{1161}", "\u{1B05}\u{1B35}", "\u{B47}\u{B3E}"])
    func aPairThatComposesIsNeverCutApart(pair: String) {
        for marks in 56...70 {
            let text = "x" + String(repeating: "\u{316}", count: marks) + pair + "y"
            #expect(VisibleText.isDecomposed(text), "\(marks) marks before the pair")
            #expect(!VisibleText.isDecomposed(text.precomposedStringWithCanonicalMapping))
        }
    }

    /// The bytes written are the scalars appended one by one, each spelled one by its name.
    @Test(arguments: texts)
    func spellingOutIsTheScalarByScalarText(text: String) {
        let spelled: (Unicode.Scalar) -> Bool = { $0.value >= 0x300 || $0 == "\n" }
        var expected = ""
        for scalar in text.unicodeScalars {
            expected += spelled(scalar) ? VisibleText.visibleName(of: scalar) : String(scalar)
        }
        #expect(Array(VisibleText.spellingOut(text, where: spelled).utf8) == Array(expected.utf8))
    }

    @Test func aLongRunOfMarksIsSpelledOutInFull() {
        let text = "e" + String(repeating: "\u{301}\u{316}", count: 5_000)
        let terminal = VisibleText.forTerminal(text)
        #expect(terminal == "e" + String(repeating: "<U+0301><U+0316>", count: 5_000))
    }

    /// Two findings whose messages are canonically equivalent but not the same bytes are two findings.
    @Test func findingsDifferByTheirBytes() {
        func finding(_ message: String) -> Finding {
            Finding(ruleId: Rule.gotoUnknown.id, severity: .error, message: message, placementKey: "p", pointer: "/a", line: 1, column: 2)
        }
        let composed = finding("page \u{E9}")
        let decomposed = finding("page e\u{301}")
        #expect("page \u{E9}" == "page e\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed, finding("page \u{E9}")]).count == 2)
    }
}
