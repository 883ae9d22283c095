import Foundation
import Testing
@testable import RovenueFallback

func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return [UInt8](try Data(contentsOf: url))
}

@Suite("The contract's example files")
struct FixtureTests {
    @Test func funnelEraLoadsFiveOfSix() throws {
        let file = FallbackFile(bytes: try fixtureBytes("funnel-era-fallback.json"))
        #expect(file.rejection == nil)
        #expect(file.entries.map(\.key) == ["onboarding", "onboarding_short", "paywall_upsell", "settings_banner", "winback", "trial_reminder"])
        #expect(file.loadedCount == 5)
        let skipped = try #require(file.entries.first { $0.key == "trial_reminder" }?.failure)
        let location = file.location(of: skipped.source)
        #expect(location.pointer == "/placements/trial_reminder/placement/revision")
        #expect(skipped.expectation == "expected an integer, found the string \"5\"")
    }

    @Test func paywallEraLoadsSixOfSix() throws {
        let file = FallbackFile(bytes: try fixtureBytes("paywall-era-fallback.json"))
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 6)
        #expect(file.skippedCount == 0)
    }

    @Test func paywallEraOnboardingDrawsVariantC() throws {
        let store = FallbackStore()
        let count = try store.setFallbackPlacements(json: String(decoding: try fixtureBytes("paywall-era-fallback.json"), as: UTF8.self))
        #expect(count == 6)
        let resolution = try #require(store.resolve(placement: "onboarding", subscriberId: "ckvt3m8qc0000356mekq0v1x2"))
        #expect(resolution.draw?.variantId == "c")
        #expect(resolution.servedFromFallback)
        #expect(resolution.paywall != nil)
    }
}
