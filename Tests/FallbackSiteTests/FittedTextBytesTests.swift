import FallbackSample
import Testing
@testable import FallbackSite

/// `DrawingText.fitted` on printable ASCII works on bytes (issue 10: a `String` per character of
/// every box label). Whatever the text and the room, it must give what the per-character path
/// gives, and leave any text with another byte before its cut to that path.
@Suite("Fitted text on bytes")
struct FittedTextBytesTests {
    static let texts: [String] = {
        var texts = [
            "", " ", "   ", "a", "Plan builder", "  leading and trailing  ", "many    spaces   between", "mWMW%@%@=+<>~#$&",
            "ijl.,:;'!|`frt()[]-/\\", String(repeating: "Wide label ", count: 40), "x\u{301}y", "ab\u{301}", "caf\u{E9} au lait",
            "tab\there", "line\nbreak", "cr\r\nlf", "\u{7F}del", "\u{202E}bidi", "😀 emoji", "end é",
            String(repeating: "a", count: 100) + "\u{301}", String(repeating: "b", count: 100) + "é",
        ]
        var generator = SplitMix64(seed: 7)
        let alphabet = Array(" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~".utf8)
        for _ in 0..<300 {
            let length = Int(generator.next() % 60)
            texts.append(String(decoding: (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self))
        }
        return texts
    }()

    @Test(arguments: [0.0, 5, 20, 47.5, 120, 300, 10_000])
    func printableASCIIIsFittedAsCharacterByCharacter(maxWidth: Double) {
        for text in Self.texts {
            for fontSize in [11.0, 13.0] {
                let reference = DrawingText.fittedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize)
                #expect(DrawingText.fitted(text, maxWidth: maxWidth, fontSize: fontSize) == reference, "\(text.debugDescription) in \(maxWidth)")
                if let plain = DrawingText.fittedPlainASCII(text, maxWidth: maxWidth, fontSize: fontSize) {
                    #expect(plain == reference, "\(text.debugDescription) in \(maxWidth)")
                }
            }
        }
    }

    @Test func anyOtherByteBeforeTheCutIsLeftToTheCharacterPath() {
        for text in ["tab\there", "é", "a\u{301}", "x\u{7F}", "line\nbreak", "\u{202E}"] {
            #expect(DrawingText.fittedPlainASCII(text, maxWidth: 10_000, fontSize: 13) == nil, "\(text.debugDescription)")
        }
        // Past the cut, the rest is not read.
        #expect(DrawingText.fittedPlainASCII(String(repeating: "w", count: 50) + "é\u{202E}", maxWidth: 40, fontSize: 13) != nil)
    }
}
