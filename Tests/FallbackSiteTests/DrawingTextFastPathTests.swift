import Testing
@testable import FallbackSite

/// `DrawingText.cleaned(_:)` takes printable ASCII without asking Unicode's white-space property
/// (issue 10: it ran for every character of every box label). Every character must still come
/// out as the property-based rule (kept below as the reference) says.
@Suite("Drawing text fast path")
struct DrawingTextFastPathTests {
    static func reference(_ character: Character) -> String? {
        if character.isWhitespace { return nil }
        var scalars = String.UnicodeScalarView()
        for scalar in character.unicodeScalars.prefix(DrawingText.scalarLimit) {
            if DrawingText.isUnsafe(scalar) { return "\u{FFFD}" }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// Every ASCII character, CR LF as one character, a letter with a combining mark, and the
    /// non-ASCII white space, controls and bidi characters the rule singles out.
    static let characters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
        + ["\r\n", "e\u{301}", "é", "\u{85}", "\u{A0}", "\u{2028}", "\u{202E}", "\u{3000}", "\u{FFFE}", "𝄞", "👩‍👩‍👧"]

    @Test func everyCharacterIsCleanedAsTheReferenceDoes() {
        for character in Self.characters {
            #expect(DrawingText.cleaned(character) == Self.reference(character), "U+\(String(character.unicodeScalars.first!.value, radix: 16))")
        }
    }
}
