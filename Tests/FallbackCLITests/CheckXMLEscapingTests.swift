@testable import FallbackReports
import RovenueFallback
import Testing

/// JUnit escapes through `XMLEscaping`, whose fast path returns text that needs no escape as it
/// is: it must agree with `MarkupEscaping` on every character.
@Suite("XML escaping's fast path agrees with MarkupEscaping")
struct XMLEscapingFastPathTests {
    /// Every scalar up to U+0800, the ones around U+FFFE, and the hostile texts.
    static let texts: [String] = {
        var scalars = (0..<UInt32(0x800)).compactMap { Unicode.Scalar($0) }
        scalars += [UInt32]([0xE000, 0xEFFF, 0xF000, 0xFEFF, 0xFFFC, 0xFFFD, 0xFFFE, 0xFFFF, 0x10000, 0x1F642, 0x10FFFF]).compactMap { Unicode.Scalar($0) }
        return scalars.flatMap { scalar in
            let one = String(Character(scalar))
            return [one, "ab" + one + "cd"]
        } + CheckJSONWriterTests.texts
    }()

    @Test func textAndAttributeAgree() {
        for text in Self.texts {
            #expect(XMLEscaping.text(text) == MarkupEscaping.xmlText(text), "\(Array(text.unicodeScalars))")
            #expect(XMLEscaping.attribute(text) == MarkupEscaping.xmlAttribute(text), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func plainTextIsReturnedAsItIs() {
        #expect(!XMLEscaping.mayChange("Placement \"a\" serves nothing: café → 🙂", inAttribute: false))
        #expect(XMLEscaping.mayChange("a \"quote\"", inAttribute: true))
        #expect(XMLEscaping.mayChange("line\nbreak", inAttribute: true))
        #expect(!XMLEscaping.mayChange("line\nbreak\ttab", inAttribute: false))
        #expect(XMLEscaping.mayChange("cr\r", inAttribute: false))
    }
}
