import Foundation
import Testing
@testable import FallbackSite

@Suite("Page file names")
struct PageNamesTests {
    @Test(arguments: ["onboarding", "paywall_upsell", "exp-1", "a", String(repeating: "x", count: 64)])
    func cleanSlugsAreKept(identifier: String) {
        #expect(PageNames(identifiers: [identifier]).name(for: identifier) == identifier)
    }

    @Test(arguments: [
        "Onboarding", "onboarding ", " onboarding", "../onboarding", "..", ".", "a/b", "a\\b", "con", "NUL", "lpt1",
        "", "über", "用户", "<script>alert(1)</script>", String(repeating: "y", count: 65), ".hidden", "a\0b",
    ])
    func everythingElseGetsASafeHashedName(identifier: String) throws {
        let name = PageNames(identifiers: [identifier, "onboarding"]).name(for: identifier)
        #expect(name != "onboarding")
        #expect(name.count <= PageNames.maximumLength)
        #expect(name.utf8.allSatisfy { PageNames.isSlugByte($0) })
        #expect(!name.hasPrefix("-") && !name.isEmpty)
        #expect(!PageNames.reservedNames.contains(name))
        #expect(SiteWriter.isSafe(name + ".html"))
    }

    @Test func caseInsensitiveCollisionsGetDistinctNames() {
        let identifiers = ["Onboarding", "onboarding", "ONBOARDING", "onBoarding"]
        let names = PageNames(identifiers: identifiers)
        let all = identifiers.map { names.name(for: $0) }
        #expect(Set(all.map { $0.lowercased() }).count == identifiers.count)
    }

    @Test func namesDoNotDependOnTheOtherIdentifiers() {
        let alone = PageNames(identifiers: ["Win Back!"]).name(for: "Win Back!")
        let crowded = PageNames(identifiers: ["z", "Win Back!", "a", "win-back"]).name(for: "Win Back!")
        #expect(alone == crowded)
        #expect(alone.hasPrefix("win-back-"))
    }

    @Test func aCleanIdentifierThatSpellsAnotherHashedNameDoesNotCollide() {
        let hashed = PageNames(identifiers: ["Foo"]).name(for: "Foo")
        let names = PageNames(identifiers: ["Foo", hashed])
        #expect(names.name(for: hashed) == hashed)
        #expect(names.name(for: "Foo") != hashed)
    }

    @Test func canonicallyEquivalentIdentifiersStayDistinct() {
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        let names = PageNames(identifiers: [composed, decomposed])
        #expect(names.name(for: composed) != names.name(for: decomposed))
    }
}
