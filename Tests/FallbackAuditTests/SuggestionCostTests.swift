import RovenueFallback
import Testing

@testable import FallbackAudit

/// A suggestion reads only what can change it: a candidate whose length in bytes allows no scalar
/// count within the limit of the text's is passed over unread, and a text's characters are counted
/// only as far as the limit needs. The answers are the ones the whole count and the whole table
/// give (`BandedDistanceTests.referenceSuggestion`); the time is the benchmark's ("short unknown
/// targets among 200 ids of N letters" in the scaling table).
@Suite("suggestions read only what can change them")
struct SuggestionCostTests {
    /// Texts of 0 to 14 letters of one UTF-8 width (a, é, ア, 😀: one to four bytes), some with a
    /// letter of another width or a combining mark put in, so that the byte lengths of a text and a
    /// candidate straddle every edge of the length test.
    static func textsOfEveryWidth() -> [String] {
        let letters = ["a", "\u{E9}", "\u{30A2}", "\u{1F600}"]
        var texts: [String] = []
        for letter in letters {
            for count in 0...14 {
                let plain = String(repeating: letter, count: count)
                texts.append(plain)
                for other in letters where other != letter {
                    texts.append(other + plain)
                    texts.append(plain + other + other)
                }
                texts.append(plain + "\u{301}")
            }
        }
        return texts
    }

    /// Every text against every set of candidates of one width and of all widths: the same
    /// suggestion as the reference, which counts every candidate and computes every distance whole.
    @Test(arguments: ["a", "\u{E9}", "\u{30A2}", "\u{1F600}", nil] as [String?])
    func theSuggestionIsTheReferencesWhateverTheWidths(candidateLetter: String?) {
        let texts = Self.textsOfEveryWidth()
        // The texts of one width (those that start with its letter), or every third text of all
        // widths: 121 or 160 candidates, under the limit of candidates searched.
        let searched = candidateLetter.map { letter in texts.filter { $0.hasPrefix(letter) || $0.isEmpty } }
            ?? texts.indices.filter { $0.isMultiple(of: 3) }.map { texts[$0] }
        #expect(searched.count <= Format.suggestionCandidateLimit)
        for text in texts {
            let expected = BandedDistanceTests.referenceSuggestion(for: text, among: searched)
            #expect(Format.suggestion(for: text, among: searched) == expected, "\(text.debugDescription)")
        }
    }

    /// Near misses a few edits apart whose byte lengths differ most from their scalar counts: a
    /// text of one-byte letters and a candidate of four-byte ones, and the other way round.
    @Test func closeCandidatesOfAnotherWidthAreStillFound() {
        let text = "abcdefghij"
        // Three letters changed to emoji: three edits, 19 bytes to the text's 10.
        let candidate = "abc\u{1F600}efg\u{1F601}i\u{1F602}"
        #expect(Format.suggestion(for: text, among: [candidate, "zzzzzzzzzzzzzzzzzzzzzzz"]) == candidate)
        #expect(Format.suggestion(for: candidate, among: [text]) == text)
        // One more edit is one too many.
        #expect(Format.suggestion(for: text, among: ["\u{1F603}bc\u{1F600}efg\u{1F601}i\u{1F602}"]) == nil)
    }

    /// `characterCount(of:upTo:)` is `min(text.count, limit)` at every limit, across characters
    /// of several scalars (combining marks, flags, a family joined by zero-width joiners, CRLF).
    @Test(arguments: [
        "", "a", "abc", "e\u{301}e\u{301}", "\u{1F1EB}\u{1F1F7}\u{1F1E9}\u{1F1EA}\u{1F1EB}",
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}x", "\r\n\r\n\n", "a\u{301}\u{301}\u{301}b", String(repeating: "\u{E9}", count: 30),
    ])
    func theBoundedCountIsTheCountUpToItsLimit(_ text: String) {
        for limit in 0...(text.count + 2) {
            #expect(Format.characterCount(of: text, upTo: limit) == min(text.count, limit), "limit \(limit)")
        }
    }
}
