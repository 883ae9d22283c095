import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// A page per distinct paywall id (`paywalls/<name>.html`): its offering, packages and product
/// ids, remote config, and every placement, variant and funnel that carries it, each linked.
@Suite("Paywall pages")
struct PaywallPageTests {
    static func paywall(_ id: String, name: String = "Annual offer", remoteConfig: String = "null") -> String {
        let annual =
            #"{"packageIdentifier":"$rc_annual","identifier":"annual","type":"ANNUAL","displayName":"Annual","storeIds":{"apple":"com.example.annual","google":"annual_google"},"androidBasePlanId":"annual-base","androidOfferId":"intro-offer"}"#
        let monthly =
            #"{"packageIdentifier":"$rc_monthly","identifier":"monthly","type":"MONTHLY","displayName":"Monthly","storeIds":{"apple":"com.example.monthly"}}"#
        return
            #"{"id":"\#(id)","identifier":"ident_\#(id)","name":"\#(name)","configFormatVersion":1,"remoteConfig":\#(remoteConfig),"offering":{"identifier":"offering_main","isDefault":true,"packages":[\#(annual),\#(monthly)]}}"#
    }

    static let hostileId = #"../evil</b><script>alert(1)</script>"#
    static let hostileIdJSON = #"../evil</b><script>alert(1)</script>"#

    static let snapshot = #"""
        {"formatVersion":1,"generatedAt":1764400000000,"projectId":"proj_1","placements":{
        "trial":{"placement":{"identifier":"trial","revision":1},"paywall":\#(paywall("pwl_trial", remoteConfig: #"{"locale":"en","data":{"headline":"</pre><script>x()</script>","discount":40}}"#))},
        "spring":{"placement":{"identifier":"spring","revision":1},"experiment":{"id":"exp_spring","key":"exp_spring","variants":[
          {"variantId":"var_a","weight":0.5,"paywall":\#(paywall("pwl_trial", name: "Spring offer"))},
          {"variantId":"var_b","weight":0.5,"paywall":\#(paywall("pwl_other"))}]}},
        "onboarding":{"placement":{"identifier":"onboarding","revision":1},"funnel":{"id":"fnl_calm","slug":"calm","name":"Calm quiz","pages":[{"id":"pg_welcome","type":"welcome","default_next":"pg_pay"},{"id":"pg_pay","type":"paywall","paywallId":"pay_key"}],"paywalls":{"pay_key":\#(paywall("pwl_trial", remoteConfig: #"{"locale":"en","data":{"headline":"</pre><script>x()</script>","discount":40}}"#))}}},
        "hostile":{"placement":{"identifier":"hostile","revision":1},"paywall":\#(paywall(hostileIdJSON))}
        }}
        """#

    static func files() throws -> (SiteModel, [String: String]) {
        let bytes = Array(snapshot.utf8)
        let file = FallbackFile(bytes: bytes)
        #expect(file.loadedEntries.count == 4)
        let model = SiteModel(
            snapshot: SiteModel.Snapshot(name: "s.json", bytes: bytes, file: file, findings: Audit().findings(in: file)), title: nil,
            referenceDate: nil)
        let files = try SiteBuilder(model: model, theme: .builtIn).files().compactMapValues { String(bytes: $0, encoding: .utf8) }
        return (model, files)
    }

    /// Every relative `href` of `html` (on the page at `path`) names a file of the site, and its `#anchor` an id on it.
    static func brokenLinks(in html: String, at path: String, files: [String: String]) -> [String] {
        let folder = path.split(separator: "/").dropLast().map(String.init)
        var broken: [String] = []
        for match in html.matches(of: /href="([^"]*)"/) {
            let href = String(match.1)
            if href.hasPrefix("http") { continue }
            let parts = href.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            var components = parts[0].isEmpty ? path.split(separator: "/").map(String.init) : folder
            if !parts[0].isEmpty {
                for component in parts[0].split(separator: "/") {
                    if component == ".." { components = components.dropLast() } else { components.append(String(component)) }
                }
            }
            let target = components.joined(separator: "/")
            guard let page = files[target] else {
                broken.append(href)
                continue
            }
            if parts.count > 1, !page.contains(#"id="\#(parts[1])""#) { broken.append(href) }
        }
        return broken
    }

    @Test func oneSafePagePerDistinctPaywallId() throws {
        let (model, files) = try Self.files()
        #expect(model.paywalls.map(\.id) == ["pwl_trial", "pwl_other", Self.hostileId])
        let paths = model.pages.filter { $0.kind == .paywall }.map(\.path)
        #expect(paths.count == 3)
        #expect(paths.contains("paywalls/pwl_trial.html") && paths.contains("paywalls/pwl_other.html"))
        let hostile = try #require(model.page(.paywall, id: Self.hostileId)?.path)
        #expect(hostile.hasPrefix("paywalls/") && hostile.split(separator: "/").count == 2 && !hostile.contains(".."))
        let html = try #require(files[hostile])
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("</b><script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        for path in paths { #expect(files[path] != nil, "\(path) is not written") }
    }

    @Test func packagesListTheirStoreProductIds() throws {
        let (_, files) = try Self.files()
        let html = try #require(files["paywalls/pwl_other.html"])
        for text in [
            "offering_main", "$rc_annual", "$rc_monthly", "com.example.annual", "annual_google", "annual-base", "intro-offer",
            "com.example.monthly", "ident_pwl_other",
        ] {
            #expect(html.contains(text), "the page lacks \(text)")
        }
    }

    @Test func remoteConfigIsAnEscapedListing() throws {
        let (_, files) = try Self.files()
        let html = try #require(files["paywalls/pwl_trial.html"])
        #expect(html.contains(#"<pre class="source">"#))
        #expect(html.contains("discount"))
        #expect(!html.contains("<script>x()"))
        #expect(html.contains("&lt;/pre&gt;&lt;script&gt;x()"))
    }

    @Test func differentContentsUnderOneIdAreEachShown() throws {
        let (model, files) = try Self.files()
        let info = try #require(model.paywallInfo(id: "pwl_trial"))
        // The placement's and the funnel's are the same as written; the variant's has another name.
        #expect(info.versions.map(\.name) == ["Annual offer", "Spring offer"])
        #expect(info.uses.map(\.version) == [0, 1, 0])
        let html = try #require(files["paywalls/pwl_trial.html"])
        #expect(html.contains("2 different contents"))
        #expect(html.contains(#"id="content-1""#) && html.contains(#"id="content-2""#))
        let other = try #require(files["paywalls/pwl_other.html"])
        #expect(!other.contains("different contents"))
    }

    @Test func usesLinkToPlacementsVariantsAndFunnelsAndEveryLinkResolves() throws {
        let (_, files) = try Self.files()
        let html = try #require(files["paywalls/pwl_trial.html"])
        #expect(html.contains(#"href="../placements/trial.html""#))
        #expect(html.contains(#"href="../experiments/spring.html#variants""#))
        #expect(html.contains(#"href="../funnels/fnl_calm.html""#))
        #expect(html.contains("pay_key"), "the funnel's map key, which differs from the id, is named")
        for (path, page) in files where path.hasPrefix("paywalls/") {
            #expect(Self.brokenLinks(in: page, at: path, files: files).isEmpty, "\(path)")
        }
    }

    @Test func pagesThatShowAPaywallIdLinkToItsPage() throws {
        let (model, files) = try Self.files()
        #expect(try #require(files["placements/trial.html"]).contains(#"href="../paywalls/pwl_trial.html""#))
        #expect(try #require(files["experiments/spring.html"]).contains(#"href="../paywalls/pwl_other.html""#))
        let funnel = try #require(files["funnels/fnl_calm.html"])
        #expect(funnel.contains(#"<a href="../paywalls/pwl_trial.html"><code>pay_key</code></a>"#))
        let hostilePath = try #require(model.paywallPath(Self.hostileId))
        #expect(try #require(files["placements/hostile.html"]).contains(#"href="../\#(hostilePath)""#))
        for path in ["placements/trial.html", "experiments/spring.html", "funnels/fnl_calm.html", "placements/hostile.html"] {
            #expect(Self.brokenLinks(in: files[path]!, at: path, files: files).isEmpty, "\(path)")
        }
    }

    @Test func searchFindsPaywallsAndProductsOnThePaywallPage() throws {
        let (model, _) = try Self.files()
        let entries = model.searchIndex.entries
        for (kind, text) in [(SearchIndex.Kind.paywallId, "pwl_other"), (.productId, "com.example.monthly"), (.paywallIdentifier, "ident_pwl_trial")] {
            let paths = Set(entries.filter { $0.kind == kind && $0.text == text }.map(\.path))
            #expect(!paths.isEmpty && paths.allSatisfy { $0.hasPrefix("paywalls/") }, "\(text): \(paths)")
        }
    }
}
