@testable import FallbackAudit
import Testing

/// `MediaScan.startsWithASCII` answers what `text.prefix(8).lowercased().hasPrefix(prefix)` did,
/// on characters that carry marks, look like ASCII, or lowercase to more than one scalar.
@Suite("The media scan's URL prefixes, one character at a time")
struct MediaPrefixTests {
    /// The old test, kept as the reference.
    static func reference(_ text: String, _ prefix: String) -> Bool {
        text.prefix(8).lowercased().hasPrefix(prefix)
    }

    static let prefixes: [StaticString] = ["http://", "https://", "data:"]

    static let samples: [String] = [
        "", " ", "h", "http://", "HTTP://x", "Https://a", "http:/", "https:/", "data:", "DATA:image", "dAtA:",
        "http:/\u{301}/x", "http:/\u{338}/x", "h\u{301}ttp://x", "\u{301}http://x", "http://\u{301}", "data\u{301}:",
        "\u{212A}", "\u{130}http://", "\u{FF48}ttp://", "\u{17F}", "\u{DF}", "\r\nhttp://", "http:\r\n//", "ht\u{200D}tp://",
        "\u{1F1FA}\u{1F1F8}http://", "HTTPS://" + String(repeating: "\u{301}\u{316}", count: 50),
    ]

    @Test(arguments: samples)
    func answersAsTheReference(text: String) {
        for prefix in Self.prefixes {
            #expect(MediaScan.startsWithASCII(text, prefix) == Self.reference(text, "\(prefix)"), "\(text.debugDescription) \(prefix)")
        }
    }

    /// Every string of up to six characters from an alphabet of the prefixes' letters in both
    /// cases, marks, look-alikes and line breaks, drawn with a fixed generator.
    @Test func answersAsTheReferenceOnDrawnStrings() {
        let alphabet: [String] = [
            "h", "H", "t", "T", "p", "P", "s", "S", "d", "D", "a", "A", ":", "/", "\u{301}", "\u{316}", "\u{338}",
            "\u{212A}", "\u{130}", "\u{17F}", "\r", "\n", " ", "x",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4000 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 61)
            let prefix = Self.prefixes[Int(state >> 33) % Self.prefixes.count]
            // Start from the prefix itself half of the time, so that near misses are common.
            if state & 1 == 0 { text = "\(prefix)".uppercased() }
            for _ in 0..<length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let letter = alphabet[Int(state >> 40) % alphabet.count]
                if state & 2 == 0, !text.isEmpty {
                    let place = text.index(text.startIndex, offsetBy: Int(state >> 50) % text.count)
                    text.insert(contentsOf: letter, at: place)
                } else {
                    text += letter
                }
            }
            #expect(MediaScan.startsWithASCII(text, prefix) == Self.reference(text, "\(prefix)"), "\(text.debugDescription) \(prefix)")
        }
    }
}
