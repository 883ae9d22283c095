@testable import FallbackReports
import RovenueFallback
import Testing

/// `FindingListText.lines(of:)` splits as `split(separator: "\n", omittingEmptySubsequences: false)`
/// did (a "\r\n" is one character, not a line break), from the bytes.
@Suite("A change's detail split into lines by its bytes")
struct LineSplitTests {
    static func reference(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    static func same(_ lines: [Substring], _ expected: [Substring]) -> Bool {
        lines.count == expected.count && zip(lines, expected).allSatisfy { ExactKey.same(String($0), String($1)) }
    }

    @Test(arguments: [
        "", "\n", "\n\n", "a", "a\nb", "a\r\nb", "a\r\n", "\r\n\r\n", "\r\r\n", "a\n\r\nb", "a\n\u{301}b", "\u{301}\n\u{301}",
        "a\u{301}\u{316}\nb", "\r", "a\rb\nc", "\u{600}\n", "\u{1F1FA}\u{1F1F8}\n\u{1F1FA}",
    ])
    func splitsAsTheReference(text: String) {
        #expect(Self.same(FindingListText.lines(of: text), Self.reference(text)), "\(text.debugDescription)")
    }

    /// Every string of up to eight pieces from line breaks, carriage returns, marks and letters.
    @Test func splitsAsTheReferenceOnDrawnStrings() {
        let pieces = ["\n", "\r", "\r\n", "\u{301}", "\u{316}", "a", "\u{600}", "\u{200D}", " "]
        var state: UInt64 = 12345
        for _ in 0..<3000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 61) + 1 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text += pieces[Int(state >> 40) % pieces.count]
            }
            #expect(Self.same(FindingListText.lines(of: text), Self.reference(text)), "\(text.debugDescription)")
        }
    }
}
