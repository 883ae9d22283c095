import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func site(for bytes: [UInt8], name: String = "snapshot.json", title: String? = nil, baseline: [UInt8]? = nil) throws -> [String: String] {
    func snapshot(_ bytes: [UInt8], _ name: String) -> SiteModel.Snapshot {
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
    }
    let model = SiteModel(
        snapshot: snapshot(bytes, name), baseline: baseline.map { snapshot($0, "baseline.json") }, title: title, referenceDate: nil)
    let builder = try SiteBuilder(model: model, theme: .builtIn)
    return try builder.files().compactMapValues { bytes in String(bytes: bytes, encoding: .utf8) }
}

func example(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent(name)))
}

@Suite("Building a site")
struct SiteBuildTests {
    @Test func everyPageKindIsBuiltFromTheFunnelEraFixture() throws {
        let files = try site(for: try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        #expect(files["index.html"] != nil)
        #expect(files["checks.html"] != nil)
        for key in ["onboarding", "onboarding_short", "paywall_upsell", "settings_banner", "winback", "trial_reminder"] {
            #expect(files["placements/\(key).html"] != nil, "no page for \(key)")
        }
        #expect(files.keys.contains { $0.hasPrefix("funnels/") })
        #expect(files.keys.contains { $0.hasPrefix("experiments/") })
        #expect(files["index.html"]!.contains("the SDK loads 5 of 6 entries; 1 skipped"))
        #expect(files["placements/trial_reminder.html"]!.contains("fallback placement entry skipped: trial_reminder"))
    }

    @Test func changesPageClassesTheReleaseAndCountsTheRebucketing() throws {
        func snapshot(_ name: String) throws -> SiteModel.Snapshot {
            let bytes = try example(name)
            let file = FallbackFile(bytes: bytes)
            return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
        }
        let model = SiteModel(
            snapshot: try snapshot("Examples/2026-05-19-release-3.2.json"), baseline: try snapshot("Examples/2026-04-14-release-3.1.json"),
            title: nil, referenceDate: nil)
        let files = try SiteBuilder(model: model, theme: .builtIn).files()
        let changes = String(decoding: try #require(files["changes.html"]), as: UTF8.self)
        #expect(changes.contains("50/50 → 34/33/33"))
        #expect(changes.contains("49.0%"))
        #expect(changes.contains("<code class=\"rule-id\">placement-removed</code> <code>spring_sale</code> <span class=\"muted\">(no longer loaded)</span>"))
        #expect(String(decoding: files["index.html"]!, as: UTF8.self).contains("href=\"changes.html\""))
    }

    @Test func funnelPagesListTheRemoteMediaWithSafeLinks() throws {
        let files = try site(for: try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        let funnel = try #require(files["funnels/fnl_short.html"])
        #expect(funnel.contains("<code>mediaUrl</code>: <a class=\"mono\" href=\"https://cdn.example.com/onboarding/plan.png\" rel=\"noopener noreferrer\">"))
    }

    @Test func everyPageCarriesTheContentSecurityPolicyAndOnlyTheSitesScript() throws {
        let files = try site(for: try example("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        for (path, html) in files where path.hasSuffix(".html") {
            #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src &#39;none&#39;; script-src &#39;self&#39;"), "\(path)")
            #expect(PageSafetyScan.problems(in: html) == [], "\(path)")
        }
    }

    @Test func twoBuildsAreByteIdentical() throws {
        let bytes = try example("Examples/2026-06-23-release-3.3.json")
        #expect(try site(for: bytes) == site(for: bytes))
    }

    @Test func skippedAndRejectedFilesStillBuild() throws {
        let rejected = try site(for: Array(#"{"formatVersion":2,"placements":{}}"#.utf8))
        #expect(rejected["index.html"]!.contains("The SDK rejects this file."))
        let empty = try site(for: [])
        #expect(empty["index.html"]!.contains("The SDK rejects this file."))
    }
}

@Suite("Snapshot text never becomes markup")
struct HostileSnapshotTests {
    static let attacks = [
        "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[click](javascript:alert(1))", "a | b | c",
        "`code` and ```fence```", "# Heading", "line one\nline two", "&amp; &lt;b&gt;", String(repeating: "*", count: 5000),
        String(repeating: "[", count: 5000), "<!-- comment", "> quote", "\"><svg onload=alert(1)>", "zqxv0vxqz",
        "~~struck~~", "- [x] task", "www.example.com", "javascript:alert(1)",
    ]

    /// A snapshot in which every string the pages show is an attack.
    static func hostileSnapshot() -> String {
        var placements: [JSONValue.Member] = []
        for (index, attack) in attacks.enumerated() {
            let text = JSONValue.string(attack)
            let page: JSONValue = .object([
                .init("id", text), .init("type", "single_choice"), .init("question_id", text), .init("title", .object([.init("en", text)])),
                .init("body", text), .init("options", [.object([.init("label", text), .init("value", text), .init("imageUrl", .string("javascript:\(index)"))])]),
                .init("mediaUrl", .string("https://cdn.example.com/\(attack)")),
                .init("next_rules", [.object([
                    .init("id", text), .init("goto", text),
                    .init("condition", .object([.init("op", "all"), .init("clauses", [.object([.init("question_id", text), .init("op", "eq"), .init("value", text)])])])),
                ])]),
                .init("default_next", text),
            ])
            let funnel: JSONValue = .object([
                .init("id", text), .init("slug", text), .init("name", text), .init("locales", ["en", text]), .init("pages", [page, .object([.init("id", "p2"), .init("type", text)])]),
            ])
            let experiment: JSONValue = .object([
                .init("id", text), .init("key", text),
                .init("variants", [.object([.init("variantId", text), .init("weight", 0.5), .init("funnel", funnel)]), .object([.init("variantId", "b"), .init("weight", 0.5), .init("funnel", funnel)])]),
            ])
            let entry: JSONValue = .object([
                .init("placement", .object([.init("identifier", text), .init("revision", 1)])),
                .init(index % 2 == 0 ? "funnel" : "experiment", index % 2 == 0 ? funnel : experiment),
            ])
            placements.append(.init(attack, entry))
        }
        return JSONValue.object([.init("formatVersion", 1), .init("projectId", .string(attacks[0])), .init("placements", .object(placements))]).jsonText()
    }

    @Test func noAttackBecomesMarkupOnAnyPage() throws {
        // A baseline with every placement under other content, so the Changes page lists them all.
        let baseline = Self.hostileSnapshot().replacingOccurrences(of: "single_choice", with: "multi_choice")
        let files = try site(for: Array(Self.hostileSnapshot().utf8), title: Self.attacks[1], baseline: Array(baseline.utf8))
        let pages = files.filter { $0.key.hasSuffix(".html") }
        #expect(pages.count > Self.attacks.count)
        #expect(pages["changes.html"]?.contains("&lt;script&gt;alert(1)&lt;/script&gt;") == true)
        for kind in ["index.html", "checks.html", "changes.html", "placements/", "funnels/", "experiments/"] {
            #expect(pages.keys.contains { $0.hasPrefix(kind) }, "no \(kind) page")
        }
        for (path, html) in pages {
            let lowered = html.lowercased()
            #expect(PageSafetyScan.problems(in: html) == [], "\(path)")
            #expect(!lowered.contains("<img src=x"), "\(path): injected image")
            #expect(!lowered.contains("<svg onload"), "\(path): injected svg")
            #expect(!lowered.contains("<del>"), "\(path): strikethrough from data")
            #expect(!lowered.contains("<blockquote"), "\(path): quote from data")
            #expect(!lowered.contains("type=\"checkbox\""), "\(path): task list from data")
            #expect(!lowered.contains("href=\"http://www.example.com"), "\(path): autolink from data")
        }
        let index = try #require(pages["index.html"])
        #expect(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(index.contains("[click](javascript:alert(1))"))
        // Text that looks like the renderer's own tokens stays text.
        #expect(index.contains(">zqxv0vxqz<"))
        #expect(index.contains("&lt;img src=x onerror=alert(1)&gt;"))
    }
}
