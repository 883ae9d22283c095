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
