import Foundation
import Testing

/// `context --page paywall:ID` prints a paywall page's context; an id with no page is an error.
@Suite("fallback-site context --page paywall:ID")
struct PaywallContextTests {
    let example = repositoryPath("Examples/2026-07-21-release-3.4.json")

    @Test func printsThePaywallsContext() throws {
        let result = run(["context", example, "--page", "paywall:pwl_winback_40"])
        #expect(result.status == 0)
        let context = try jsonObject(result.output)
        #expect(context["kind"] as? String == "paywall")
        #expect(context["id"] as? String == "pwl_winback_40")
        let versions = try #require(context["versions"] as? [[String: Any]])
        let offering = try #require(versions.first?["offering"] as? [String: Any])
        let packages = try #require(offering["packages"] as? [[String: Any]])
        #expect(packages.contains { $0["apple"] as? String == "app.stillpoint.premium.annual.winback" })
        let uses = try #require(context["uses"] as? [[String: Any]])
        #expect(uses.contains { $0["path"] as? String == "../funnels/fnl_winback.html" })
    }

    @Test func anIdWithNoPageIsAnError() {
        let result = run(["context", example, "--page", "paywall:nope"])
        #expect(result.status == 1)
        #expect(result.error.contains("no paywall page for 'nope'"))
    }
}
