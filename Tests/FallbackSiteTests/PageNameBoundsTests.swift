import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

@Suite("Page file names under attack")
struct PageNameBoundsTests {
    /// Clean identifiers that spell the hashed name of another at every hash length force the
    /// longest hashes; the names still differ and stay short.
    @Test func cleanIdentifiersSpellingEveryHashLengthDoNotCollide() {
        let hashed = "\u{E9}"
        let digest = SHA256Digest(of: Array(hashed.utf8)).hexString
        let spellings = [8, 16, 32].map { "x-" + digest.prefix($0) }
        let identifiers = [hashed] + spellings
        let names = PageNames(identifiers: identifiers)
        let all = identifiers.map { names.name(for: $0) }
        #expect(Set(all).count == identifiers.count, "\(all)")
        for spelling in spellings { #expect(names.name(for: spelling) == spelling) }
        for name in all {
            #expect(name.utf8.count <= PageNames.maximumLength + 2)
            #expect(name.utf8.allSatisfy { PageNames.isSlugByte($0) })
        }
    }

    @Test func aHugeIdentifierGetsAShortName() {
        let identifier = String(repeating: "Ab", count: 1_000_000)
        let name = PageNames(identifiers: [identifier]).name(for: identifier)
        #expect(name.utf8.count <= PageNames.maximumLength)
    }

    /// File systems that normalise or fold case (APFS, HFS+, NTFS) see the same names as distinct files.
    @Test func namesStayDistinctUnderNormalisationAndCaseFolding() {
        let identifiers = [
            "caf\u{E9}", "cafe\u{301}", "CAF\u{C9}", "CAFE\u{301}", "\u{212A}elvin", "Kelvin", "kelvin", "\u{FB01}le", "file", "Stra\u{DF}e",
            "strasse", "\u{212B}", "\u{C5}", "A\u{30A}",
        ]
        let names = PageNames(identifiers: identifiers)
        let folded = identifiers.map { names.name(for: $0).decomposedStringWithCanonicalMapping.lowercased() }
        #expect(Set(folded).count == identifiers.count)
    }
}
