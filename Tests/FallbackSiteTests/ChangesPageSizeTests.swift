import FallbackAudit
import FallbackDiff
import Foundation
import RovenueFallback
import Testing

@testable import FallbackSite

/// A release that rewrites every text must still make a changes page (and a pair page) a browser
/// opens: the review of issue 9 found a 24 MB changes page at 1,000 placements. The page lists the
/// first `listedChangeLimit` changes of each class and shows whole texts up to `copyTextBudget`
/// bytes; `fallback-site diff` reports everything.
@Suite("Changes page size")
struct ChangesPageSizeTests {
    static let text = String(repeating: "Every word of this sentence changes in the next release. ", count: 40)

    /// 300 pages whose body is rewritten: 300 copy changes of about 2.2 KB a side.
    static func model() -> SiteModel {
        let count = SiteModel.listedChangeLimit + 100
        let old = (0..<count).map { #"{"id":"p\#($0)","type":"statement","body":"\#(text)old \#($0)"}"# }
        let new = (0..<count).map { #"{"id":"p\#($0)","type":"statement","body":"\#(text.uppercased())new \#($0)"}"# }
        return SiteModel(
            snapshot: CopyDiffPageTests.snapshot("new.json", new), baseline: CopyDiffPageTests.snapshot("old.json", old), title: nil,
            referenceDate: nil)
    }

    @Test func aChangesPageListsAtMostTheLimitAndShowsCopyWithinItsBudget() throws {
        let page = try #require(Self.model().changesPage(root: "", values: PageValues()))
        let copyGroup = try #require(page.groups.first { $0.changes.contains { $0.kind == ChangeKind.copyChanged.id } })
        #expect(copyGroup.count == SiteModel.listedChangeLimit + 100)
        #expect(copyGroup.changes.count == SiteModel.listedChangeLimit)
        #expect(copyGroup.moreChanges == 100)
        let shown = copyGroup.changes.filter { $0.copy != nil }
        let leftOut = copyGroup.changes.filter(\.copyLeftOut)
        #expect(!shown.isEmpty && !leftOut.isEmpty)
        #expect(shown.count + leftOut.count == copyGroup.changes.count)
        // The texts shown stay within the budget.
        let perChange = 2 * Self.text.utf8.count
        #expect(shown.count * perChange <= SiteModel.copyTextBudget, "\(shown.count) whole copy changes")
        #expect((shown.count + 1) * (perChange + 32) > SiteModel.copyTextBudget, "the budget is used before texts are left out")
    }

    @Test func theRenderedChangesPageStaysUnderOneMegabyteAndSaysWhatItLeftOut() throws {
        let files = try SiteBuilder(model: Self.model(), theme: .builtIn).files()
        let changes = try #require(files["changes.html"])
        #expect(changes.count < 1_000_000, "\(changes.count) bytes")
        let html = try #require(String(bytes: changes, encoding: .utf8))
        #expect(html.contains("… and 100 more Info changes: <code>fallback-site diff</code> lists them all."))
        #expect(html.contains("so this change&#39;s texts are left out") || html.contains("so this change's texts are left out"))
    }

    /// One page whose title, one letter in each of `locales` locales, changes letter.
    static func oneTextInManyLocales(_ locales: Int) -> SiteModel {
        func page(_ letter: String) -> String {
            let texts = (0..<locales).map { #""l\#($0)":"\#(letter)""# }.joined(separator: ",")
            return #"{"id":"pg_many","type":"statement","title":{\#(texts)}}"#
        }
        return SiteModel(
            snapshot: CopyDiffPageTests.snapshot("new.json", [page("b")]), baseline: CopyDiffPageTests.snapshot("old.json", [page("a")]),
            title: nil, referenceDate: nil)
    }

    @Test(arguments: [(SiteModel.copyLocaleBudget, true), (SiteModel.copyLocaleBudget + 1, false)])
    func aTextInMoreLocalesThanTheBudgetIsLeftOut(locales: Int, shown: Bool) throws {
        let model = Self.oneTextInManyLocales(locales)
        let page = try #require(model.changesPage(root: "", values: PageValues()))
        let row = try #require(page.groups.flatMap(\.changes).first { $0.kind == ChangeKind.copyChanged.id })
        // A few kilobytes of text: only the number of locales decides.
        #expect(locales * 2 < SiteModel.copyTextBudget)
        #expect((row.copy != nil) == shown)
        #expect(row.copyLeftOut == !shown)
        #expect(row.copy?.locales.count ?? locales == locales)
    }

    @Test func aTextInThirtyThousandLocalesStillMakesAPage() throws {
        // Every locale's row once went past the copy-diff partial's 16 MiB: the build failed.
        let files = try SiteBuilder(model: Self.oneTextInManyLocales(30_000), theme: .builtIn).files()
        let changes = try #require(files["changes.html"])
        #expect(changes.count < 1_000_000, "\(changes.count) bytes")
        let html = try #require(String(bytes: changes, encoding: .utf8))
        #expect(html.contains("so this change&#39;s texts are left out") || html.contains("so this change's texts are left out"))
    }
}
