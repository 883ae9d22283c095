import Foundation
import Testing
@testable import RovenueFallback

/// `OfflineTarget`: what an entry serves whoever the subscriber is, step by step from the
/// contract's §5 ("Given a fallback entry and the device's subscriber id: …").
@Suite("OfflineTarget: §5 without the draw")
struct OfflineTargetTests {
    static let placement = #""placement":{"identifier":"k","revision":1}"#
    static func funnel(_ id: String) -> String { Valid.funnel.with("id", quote(id)).json }
    static func paywall(_ id: String) -> String { Valid.paywall.with("id", quote(id)).json }
    static func experiment(_ id: String = "exp", variants: [String]) -> String {
        #"{"id":"# + quote(id) + #","key":"key","variants":["# + variants.joined(separator: ",") + "]}"
    }
    static func variant(_ id: String, weight: String = "0.5", funnel: String? = nil, paywall: String? = nil) -> String {
        var members = [#""variantId":"# + quote(id), #""weight":"# + weight]
        if let paywall { members.append(#""paywall":"# + Self.paywall(paywall)) }
        if let funnel { members.append(#""funnel":"# + Self.funnel(funnel)) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The decoded entry `{members}` under the key `k`.
    static func entry(_ members: String...) throws -> FallbackEntry {
        let file = FallbackFile(text: fileText(entry: "{" + members.joined(separator: ",") + "}"))
        return try #require(file.entries.first?.entry, "\(file.entries.first?.failure.map { "\($0.expectation)" } ?? "no entry")")
    }

    // MARK: The steps

    /// "1. `placement` absent → nothing is served", whatever else the entry carries.
    @Test(arguments: [
        [#""funnel":"# + funnel("f")],
        [#""paywall":"# + paywall("p")],
        [#""experiment":"# + experiment(variants: [variant("a", weight: "1", funnel: "f")])],
        [#""funnel":"# + funnel("f"), #""paywall":"# + paywall("p")],
    ])
    func placementAbsentServesNothing(members: [String]) throws {
        let entry = FallbackFile(text: fileText(entry: "{" + members.joined(separator: ",") + "}")).entries.first?.entry
        let target = try #require(entry).offlineTarget
        #expect(target.nothingReason == .placementMissing)
        #expect(target.servedFunnels.isEmpty && target.servedPaywalls.isEmpty)
    }

    /// "2. `funnel` present → that funnel … (A direct target wins over an experiment.)"
    @Test func aFunnelWinsOverThePaywallAndTheExperiment() throws {
        let entry = try Self.entry(
            Self.placement, #""funnel":"# + Self.funnel("f_direct"), #""paywall":"# + Self.paywall("p_direct"),
            #""experiment":"# + Self.experiment(variants: [Self.variant("a", funnel: "f_variant")]))
        let target = entry.offlineTarget
        #expect(target.funnel?.id == "f_direct")
        #expect(target.kind == .funnel && target.id == "f_direct")
        #expect(target.paywall == nil && target.experiment == nil && target.nothingReason == nil)
        // The shadowed experiment's funnel is never served; nor is the shadowed paywall.
        #expect(target.servedFunnels.map(\.value.id) == ["f_direct"])
        #expect(target.servedFunnels.map(\.variantId) == [nil])
        #expect(target.servedPaywalls.isEmpty)
    }

    /// "Else `paywall` present → that paywall. (A direct target wins over an experiment.)"
    @Test func aPaywallWinsOverTheExperiment() throws {
        let entry = try Self.entry(
            Self.placement, #""paywall":"# + Self.paywall("p_direct"),
            #""experiment":"# + Self.experiment(variants: [Self.variant("a", funnel: "f_variant"), Self.variant("b", paywall: "p_variant")]))
        let target = entry.offlineTarget
        #expect(target.paywall?.id == "p_direct")
        #expect(target.kind == .paywall)
        #expect(target.servedPaywalls.map(\.value.id) == ["p_direct"])
        #expect(target.servedFunnels.isEmpty)
    }

    /// "3. Else `experiment` absent … → nothing is served."
    @Test(arguments: [[placement], [placement, #""experiment":null"#, #""funnel":null"#, #""paywall":null"#]])
    func noTargetServesNothing(members: [String]) throws {
        let entry = FallbackFile(text: fileText(entry: "{" + members.joined(separator: ",") + "}")).entries.first?.entry
        #expect(try #require(entry).offlineTarget.nothingReason == .noTarget)
    }

    /// "3. Else … its `variants` empty → nothing is served."
    @Test func anExperimentWithNoVariantsServesNothing() throws {
        let entry = try Self.entry(Self.placement, #""experiment":"# + Self.experiment(variants: []))
        let target = entry.offlineTarget
        #expect(target.nothingReason == .noVariants)
        #expect(target.kind == .nothing && target.id == nil)
        #expect(target.experiment == nil)
        #expect(target.identity.kind == .nothing)
        #expect(target.identity.description == OfflineTarget.NothingReason.noVariants.summary)
    }

    /// "4. Else draw a variant … 5. The served funnel (or paywall) is the chosen variant's."
    /// Before the draw, the target is the experiment over its variants, each with its own target.
    @Test func anExperimentServesEachVariantsOwnTarget() throws {
        let entry = try Self.entry(
            Self.placement,
            #""experiment":"# + Self.experiment(variants: [
                Self.variant("a", funnel: "f_a"), Self.variant("b", paywall: "p_b"), Self.variant("c", funnel: "f_c", paywall: "p_c"),
            ]))
        let target = entry.offlineTarget
        let experiment = try #require(target.experiment)
        #expect(target.kind == .experiment && target.id == "exp")
        // A variant serves its funnel, else its paywall: "c" has both and serves its funnel.
        #expect(experiment.variants.map { $0.offlineTarget.kind } == [.funnel, .paywall, .funnel])
        #expect(experiment.variants.map { $0.offlineTarget.id } == ["f_a", "p_b", "f_c"])
        #expect(target.servedFunnels.map(\.value.id) == ["f_a", "f_c"])
        #expect(target.servedFunnels.map(\.variantId) == ["a", "c"])
        #expect(target.servedPaywalls.map(\.value.id) == ["p_b"])
        #expect(target.servedPaywalls.map(\.variantId) == ["b"])
    }

    /// A subscriber is served the drawn variant's target; the resolution keeps the entry's target.
    @Test func aResolutionIsTheTargetAndTheDraw() throws {
        let entry = try Self.entry(
            Self.placement,
            #""experiment":{"id":"exp","key":"# + quote("paywall-summer") + #","variants":["#
                + Self.variant("a", funnel: "f_a") + "," + Self.variant("b", paywall: "p_b") + "]}")
        let resolution = entry.resolve(subscriberId: "sub_1")
        #expect(resolution.target.kind == .experiment)
        // "sub_1" draws bucket 641 for "paywall-summer" (bucketing-vectors.json); 641 < 5000: the first variant.
        #expect(resolution.draw?.variantId == "a")
        #expect(resolution.served.funnel?.id == "f_a")
        #expect(resolution.funnel?.id == "f_a" && resolution.paywall == nil)

        let direct = try Self.entry(Self.placement, #""paywall":"# + Self.paywall("p"))
        let served = direct.resolve(subscriberId: "sub_1")
        #expect(served.draw == nil)
        #expect(served.served.paywall?.id == "p")
        #expect(served.target.paywall?.id == "p")
    }

    // MARK: Words

    /// One wording for serving nothing, with its reason.
    @Test(arguments: OfflineTarget.NothingReason.allCases)
    func nothingIsWordedOnce(reason: OfflineTarget.NothingReason) {
        #expect(reason.summary == "nothing (\(reason.description))")
        #expect(OfflineTarget.nothing(reason).identity.description == reason.summary)
    }

    @Test func theReasonsAreDistinct() {
        let words = OfflineTarget.NothingReason.allCases.map(\.description)
        #expect(Set(words).count == words.count)
    }

    // MARK: Identity

    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"

    /// Ids compare by their bytes, as the SDK compares them: "é" precomposed and "e" + U+0301 are two.
    @Test func identitiesCompareIdsByBytes() throws {
        let first = try Self.entry(Self.placement, #""funnel":"# + Self.funnel(Self.composed)).offlineTarget
        let second = try Self.entry(Self.placement, #""funnel":"# + Self.funnel(Self.decomposed)).offlineTarget
        #expect(Self.composed == Self.decomposed, "Swift's String equality is canonical equivalence")
        #expect(!first.isSameTarget(as: second))
        #expect(first.identity != second.identity)
        #expect(Set([first.identity, second.identity]).count == 2)
        #expect(first.isSameTarget(as: first) && first.identity == first.identity)
    }

    @Test func variantIdsCompareByBytes() throws {
        func target(_ variantId: String) throws -> OfflineTarget.Identity {
            try Self.entry(Self.placement, #""experiment":"# + Self.experiment(variants: [Self.variant(variantId, funnel: "f")])).offlineTarget
                .identity
        }
        let first = try target(Self.composed)
        let second = try target(Self.decomposed)
        #expect(first.isSameTarget(as: second), "the same experiment")
        #expect(first != second, "with another variant")
    }

    /// The same target whatever its content; serving nothing is the same whatever the reason.
    @Test func sameTargetIsKindAndId() throws {
        let v1 = try Self.entry(Self.placement, #""funnel":"# + Valid.funnel.with("versionNo", "1").json).offlineTarget
        let v2 = try Self.entry(Self.placement, #""funnel":"# + Valid.funnel.with("versionNo", "2").json).offlineTarget
        #expect(v1.isSameTarget(as: v2))
        #expect(v1.identity.isSameTarget(as: v2.identity))
        #expect(v1.identity != v2.identity)
        #expect(v2.identity.description == "funnel fnl_1 v2")
        #expect(OfflineTarget.nothing(.noTarget).isSameTarget(as: .nothing(.noVariants)))
        #expect(OfflineTarget.nothing(.noTarget).identity != OfflineTarget.nothing(.noVariants).identity)
        let paywall = try Self.entry(Self.placement, #""paywall":"# + Valid.paywall.with("id", #""fnl_1""#).json).offlineTarget
        #expect(!paywall.isSameTarget(as: v1), "a paywall is not a funnel of the same id")
    }

    @Test func anExperimentIdentityNamesItsVariantsAndWeights() throws {
        let target = try Self.entry(
            Self.placement,
            #""experiment":"# + Self.experiment(variants: [
                Self.variant("control", weight: "0.5", funnel: "f"), Self.variant("short", weight: "5e-1", paywall: "p"),
            ])).offlineTarget
        let identity = target.identity
        #expect(identity.description == "experiment exp (control 0.5, short 5e-1)")
        #expect(identity.experimentKey == "key")
        #expect(identity.variants.map(\.target.description) == ["funnel f", "paywall p"])
    }
}
