import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The header's search index (`assets/search-index.js`): every kind of thing a reader looks for,
/// linked to the most specific page that shows it; hostile text kept data; the same bytes each build.
@Suite("Search index")
struct SearchIndexTests {
    static func paywall(_ id: String, identifier: String, apple: String, google: String) -> String {
        let package =
            #"{"packageIdentifier":"$rc_annual","identifier":"annual","type":"ANNUAL","displayName":"Annual","storeIds":{"apple":"\#(apple)","google":"\#(google)"}}"#
        return
            #"{"id":"\#(id)","identifier":"\#(identifier)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":{"identifier":"default","isDefault":true,"packages":[\#(package)]}}"#
    }

    static let funnel =
        #"{"id":"fnl_calm","slug":"calm-start-quiz","name":"Calm start quiz","pages":[{"id":"pg_welcome","type":"welcome","default_next":"pg_pay"},{"id":"pg_pay","type":"paywall","paywallId":"pwl_in_funnel"}],"paywalls":{"pwl_in_funnel":\#(paywall("pwl_in_funnel", identifier: "funnel_paywall_ident", apple: "com.example.annual", google: "annual_google"))}}"#
    static let variantFunnel =
        #"{"id":"fnl_variant","slug":"variant-slug","name":"Variant funnel","pages":[{"id":"pg_variant_only","type":"welcome"}]}"#
    static let hostileKey = "evil\u{2028}\u{2029}\"</script><b>\\"

    static let snapshot = #"""
        {"formatVersion":1,"generatedAt":1764400000000,"projectId":"proj_1","placements":{
        "onboarding":{"placement":{"identifier":"onboarding_ident","revision":1},"funnel":\#(funnel)},
        "spring":{"placement":{"identifier":"spring","revision":1},"experiment":{"id":"exp_spring","key":"exp_Key42","variants":[
          {"variantId":"var_funnel","weight":0.5,"funnel":\#(variantFunnel)},
          {"variantId":"var_paywall","weight":0.5,"paywall":\#(paywall("pwl_variant", identifier: "pwl_variant", apple: "com.example.variant", google: "variant_google"))}]}},
        "trial":{"placement":{"identifier":"trial","revision":1},"paywall":\#(paywall("pwl_trial", identifier: "trial_ident", apple: "com.example.trial", google: "trial_google"))},
        "broken":{"placement":{"identifier":"broken","revision":"4"},"paywall":{"id":"pwl_lost_in_skip","note":"she said \"hi\" </script>\u2028"}},
        "evil\u2028\u2029\"</script><b>\\":{"placement":{"identifier":"x","revision":1}}
        }}
        """#

    static func model(_ text: String) -> SiteModel {
        let bytes = Array(text.utf8)
        let file = FallbackFile(bytes: bytes)
        return SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), title: nil,
            referenceDate: nil)
    }

    /// The data the script assigns, read back with a JSON parser.
    static func data(of script: String) throws -> [String: Any] {
        let prefix = "self.\(SearchIndex.globalName) = "
        #expect(script.hasPrefix(prefix))
        #expect(script.hasSuffix(";\n"))
        let json = script.dropFirst(prefix.count).dropLast(2)
        return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test(arguments: [
        (SearchIndex.Kind.placementKey, "onboarding", "placements/onboarding.html"),
        (.placementIdentifier, "onboarding_ident", "placements/onboarding.html"),
        (.funnelId, "fnl_calm", "funnels/fnl_calm.html"),
        (.funnelSlug, "calm-start-quiz", "funnels/fnl_calm.html"),
        (.funnelName, "Calm start quiz", "funnels/fnl_calm.html"),
        (.pageId, "pg_pay", "funnels/fnl_calm.html#page-pg_pay"),
        (.paywallId, "pwl_in_funnel", "paywalls/pwl_in_funnel.html"),
        (.paywallIdentifier, "funnel_paywall_ident", "paywalls/pwl_in_funnel.html"),
        (.productId, "com.example.annual", "paywalls/pwl_in_funnel.html"),
        (.productId, "annual_google", "paywalls/pwl_in_funnel.html"),
        (.experimentId, "exp_spring", "experiments/spring.html"),
        (.experimentKey, "exp_Key42", "experiments/spring.html"),
        (.variantId, "var_funnel", "experiments/spring.html#variants"),
        (.funnelId, "fnl_variant", "funnels/fnl_variant.html"),
        (.pageId, "pg_variant_only", "funnels/fnl_variant.html#page-pg_variant_only"),
        (.paywallId, "pwl_variant", "paywalls/pwl_variant.html"),
        (.productId, "com.example.variant", "paywalls/pwl_variant.html"),
        (.paywallId, "pwl_trial", "paywalls/pwl_trial.html"),
        (.paywallIdentifier, "trial_ident", "paywalls/pwl_trial.html"),
        (.productId, "trial_google", "paywalls/pwl_trial.html"),
        (.placementKey, "broken", "placements/broken.html"),
    ])
    func everyKindLinksToTheMostSpecificPage(kind: SearchIndex.Kind, text: String, path: String) throws {
        let index = Self.model(Self.snapshot).searchIndex
        let matches = index.entries.filter { $0.kind == kind && $0.text == text }
        #expect(matches.map(\.path) == [path], "\(kind.rawValue) \(text)")
    }

    @Test func everyLinkedPageAndAnchorExists() throws {
        let model = Self.model(Self.snapshot)
        let builder = try SiteBuilder(model: model, theme: .builtIn)
        let files = try builder.files().compactMapValues { String(bytes: $0, encoding: .utf8) }
        let index = model.searchIndex
        // Every kind but a series' snapshots (HistoryWalkTests): this site has one snapshot.
        #expect(Set(index.entries.map(\.kind)) == Set(SearchIndex.Kind.allCases).subtracting([.snapshot]))
        for entry in index.entries {
            let (page, anchor) = SearchIndex.split(entry.path)
            let html = try #require(files[page], "\(entry.kind.rawValue) \(entry.text) links to \(page), which the site lacks")
            if let anchor { #expect(html.contains(#"id="\#(anchor)""#), "\(page) has no #\(anchor)") }
        }
        #expect(files[SearchIndex.path] == index.script)
    }

    @Test func aSkippedEntryIsFoundByItsTextOnItsPlacementPage() throws {
        let index = Self.model(Self.snapshot).searchIndex
        let skipped = index.entries.filter { $0.kind == .skippedContent }
        #expect(skipped.map(\.path) == ["placements/broken.html"])
        #expect(skipped.first?.text.contains("pwl_lost_in_skip") == true)
        // Its paywall is not loaded, so it is found only as the skipped entry's text.
        #expect(!index.entries.contains { $0.kind == .paywallId && $0.text == "pwl_lost_in_skip" })
    }

    @Test func hostileTextStaysDataInTheScript() throws {
        let script = Self.model(Self.snapshot).searchIndex.script
        #expect(!script.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
        #expect(script.contains(#"\u2028"#))
        // One line, one statement: no snapshot text ends the string or the statement.
        #expect(script.dropLast().firstIndex(of: "\n") == nil)
        let data = try Self.data(of: script)
        let entries = try #require(data["entries"] as? [[Any]])
        let texts = entries.compactMap { $0[1] as? String }
        // Hidden characters are spelled out, as every page shows them (a bidi override would
        // otherwise reorder the result it is shown in).
        #expect(texts.contains(SnapshotText.spelledOut(Self.hostileKey, oneLine: true)))
        #expect(texts.contains(#"evil<U+2028><U+2029>"</script><b>\"#))
        #expect(texts.contains { $0.contains(#"she said \"hi\" </script>\u2028"#) })
        let targets = try #require(data["targets"] as? [[Any]])
        #expect(targets.compactMap { $0[1] as? String }.contains("placement " + SnapshotText.spelledOut(SnapshotText.shortened(Self.hostileKey), oneLine: true)))
        let kinds = try #require(data["kinds"] as? [String])
        #expect(kinds == SearchIndex.Kind.allCases.map(\.rawValue))
    }

    @Test func theSameSnapshotGivesTheSameBytes() throws {
        let first = Self.model(Self.snapshot).searchIndex.script
        let second = Self.model(Self.snapshot).searchIndex.script
        #expect(first == second)
        let order = Self.model(Self.snapshot).searchIndex.entries.filter { $0.kind == .placementKey }.map(\.text)
        #expect(order == ["onboarding", "spring", "trial", "broken", SnapshotText.spelledOut(Self.hostileKey, oneLine: true)])
    }

    /// Padded by 0 to 8 bytes, so the limit falls inside a character in some of them.
    @Test(arguments: 0..<9)
    func aSkippedEntrysTextIsBoundedAndCutAtACharacter(padding: Int) throws {
        // 2- and 3-byte characters, far past the limit, with runs of white space between them.
        let filler = String(repeating: "\"é€\",   \n\t", count: 2_000)
        let member = "note" + String(repeating: "n", count: padding)
        let text = #"{"formatVersion":1,"placements":{"big":{"placement":{"identifier":"big","revision":"1"},"\#(member)":[\#(filler)"x"]}}}"#
        let entry = try #require(Self.model(text).searchIndex.entries.first { $0.kind == .skippedContent })
        #expect(entry.text.utf8.count <= SearchIndex.skippedTextLimit)
        #expect(entry.text.utf8.count > SearchIndex.skippedTextLimit - 4)
        #expect(!entry.text.contains("\u{FFFD}"))
        #expect(!entry.text.contains("  "))
        #expect(!entry.text.contains("\n"))
    }
}
