@testable import FallbackSite
import Foundation
import Testing

/// `RuleDocumentation.trimmed` cuts what `trimmingCharacters(in: .whitespacesAndNewlines)` cuts,
/// so every rule page's section is the same text as before it stopped going through Foundation.
@Suite("rule documentation: sections trimmed as Foundation trims them")
struct RuleDocumentationTrimTests {
    static func reference(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Every scalar Foundation counts as whitespace or a newline, and its neighbours.
    static let spaces: [Unicode.Scalar] = (0...0x3100).compactMap(Unicode.Scalar.init).filter {
        CharacterSet.whitespacesAndNewlines.contains($0)
    }

    @Test func eachSpaceIsCutAtBothEndsAndKeptInside() {
        #expect(Self.spaces.count > 20)
        for space in Self.spaces {
            for text in ["\(space)a\(space)b\(space)", "\(space)\(space)", "x\(space)", "\(space)é\u{301}"] {
                #expect(RuleDocumentation.trimmed(text) == Self.reference(text), "U+\(String(space.value, radix: 16))")
            }
        }
    }

    @Test func scalarsThatAreNotSpacesAreKept() {
        for value in [0x08, 0x0E, 0x1F, 0x7F, 0x180E, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x1F600] {
            let scalar = Unicode.Scalar(value)!
            let text = "\(scalar) a \(scalar)"
            #expect(RuleDocumentation.trimmed(text) == Self.reference(text), "U+\(String(value, radix: 16))")
        }
    }

    @Test func randomTextsAreTrimmedAsFoundationTrimsThem() {
        var generator = SystemRandomNumberGenerator()
        let pool: [Unicode.Scalar] = Self.spaces + ["a", "`", "#", "é", "\u{301}", "\u{FEFF}", "😀"]
        for _ in 0..<2000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) { text.unicodeScalars.append(pool.randomElement(using: &generator)!) }
            #expect(RuleDocumentation.trimmed(text) == Self.reference(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// Each section of the theme's `docs/rules.md` is one Foundation would not trim further, and none is empty.
    @Test func theThemeSectionsAreTheSame() {
        let lines = RuleDocumentation.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 100)
        let sections = RuleDocumentation.sections
        #expect(sections.count > 20)
        for (id, section) in sections {
            #expect(section == Self.reference(section), "\(id)")
            #expect(!section.isEmpty, "\(id)")
        }
    }
}
