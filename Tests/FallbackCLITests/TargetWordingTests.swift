import Foundation
import RovenueFallback
import Testing

/// What an entry serves is decided once, by `OfflineTarget`, and put in words by it: the experiment
/// of an entry that serves nothing because it has no variants travels with the target, `resolve`
/// says "nothing" and reports `servedFromFallback` as the contract's §5 defines it, and diff's
/// sentences do not nest the reason's parentheses in their own.
@Suite("What a target is and how it is worded")
struct TargetWordingTests {
    typealias Agreement = OfflineTargetAgreementTests

    static func entry(_ body: String) throws -> FallbackEntry {
        let text = Agreement.snapshot(generatedAt: 1_780_000_000_000, [("a", 1, body)])
        let file = FallbackFile(bytes: Array(text.utf8))
        return try #require(file.entries.first?.entry)
    }

    // MARK: The experiment with no variants travels with the target

    @Test func anExperimentWithNoVariantsIsTheTargetsDecidingExperiment() throws {
        let target = try Self.entry(Agreement.emptyExperiment).offlineTarget
        #expect(target.nothingReason == .noVariants)
        #expect(target.kind == .nothing)
        #expect(target.decidingExperiment?.id == "exp_empty")
        #expect(target.experiment == nil, "an experiment with no variants is not served")
    }

    @Test func aShadowedExperimentDecidesNothing() throws {
        let body = #""paywall":\#(Agreement.paywall("pw")),\#(Agreement.emptyExperiment)"#
        let target = try Self.entry(body).offlineTarget
        #expect(target.paywall?.id == "pw")
        #expect(target.decidingExperiment == nil)
    }

    @Test func anExperimentWithVariantsDecides() throws {
        let body = #""experiment":{"id":"exp","key":"k","variants":[{"variantId":"v","weight":1,"paywall":\#(Agreement.paywall("pw"))}]}"#
        #expect(try Self.entry(body).offlineTarget.decidingExperiment?.id == "exp")
    }

    // MARK: One set of wordings, on OfflineTarget

    @Test(arguments: OfflineTarget.NothingReason.allCases)
    func nothingIsWordedByItsReasonInEveryStyle(reason: OfflineTarget.NothingReason) {
        let target = OfflineTarget.nothing(reason)
        #expect(target.phrase(spellingIds: { "«\($0)»" }) == reason.summary)
        #expect(target.overviewPhrase(spellingIds: { "«\($0)»" }) == reason.summary)
        #expect(target.identity.description == reason.summary)
    }

    @Test func aTargetIsItsKindAndItsIdSpelledAsAsked() throws {
        let target = try Self.entry(#""paywall":\#(Agreement.paywall("pw"))"#).offlineTarget
        #expect(target.phrase(spellingIds: { "«\($0)»" }) == "paywall «pw»")
        #expect(target.overviewPhrase(spellingIds: { "«\($0)»" }) == "paywall «pw»")
        #expect(target.identity.description == "paywall pw")
    }

    @Test func theOverviewCountsWhatAnExperimentsVariantsServe() throws {
        let variants = [("a", "funnel", Agreement.funnel("f1")), ("b", "paywall", Agreement.paywall("p")), ("c", "funnel", Agreement.funnel("f2"))]
            .map { #"{"variantId":"\#($0.0)","weight":0.3,"\#($0.1)":\#($0.2)}"# }
        let body = #""experiment":{"id":"exp","key":"k","variants":[\#(variants.joined(separator: ","))]}"#
        let target = try Self.entry(body).offlineTarget
        #expect(target.overviewPhrase(spellingIds: { $0 }) == "experiment over 2 funnels and 1 paywall")
        #expect(target.phrase(spellingIds: { "«\($0)»" }) == "experiment «exp»")
    }

    // MARK: resolve says what is served

    @Test func resolveSaysNothingIsServedAndTheFallbackDidNotAnswer() throws {
        let text = Agreement.snapshot(generatedAt: 1_780_000_000_000, [("a", 1, Agreement.emptyExperiment)])
        try Agreement.withFolder(["1.json": text]) { folder, _ in
            let result = run(["resolve", folder + "/1.json", "a", "--format", "json"])
            #expect(result.status == 0)
            let report = try jsonObject(result.output)
            #expect(report["served"] as? String == "nothing")
            #expect(report["reason"] as? String == OfflineTarget.NothingReason.noVariants.description)
            #expect(report["servedFromFallback"] as? Bool == false)
            #expect(report["funnel"] is NSNull && report["paywall"] is NSNull && report["experiment"] is NSNull)

            let words = run(["resolve", folder + "/1.json", "a"]).output
            #expect(words.contains("served      nothing (an experiment with no variants)\n"), "\(words)")
            #expect(words.contains("servedFromFallback = false"), "\(words)")
            #expect(words.contains("the app gets nothing offline"), "\(words)")
        }
    }

    @Test func resolveOfAServedTargetStillAnswersFromTheFallback() throws {
        let text = Agreement.snapshot(generatedAt: 1_780_000_000_000, [("a", 1, #""paywall":\#(Agreement.paywall("pw"))"#)])
        try Agreement.withFolder(["1.json": text]) { folder, _ in
            let report = try jsonObject(run(["resolve", folder + "/1.json", "a", "--format", "json"]).output)
            #expect(report["served"] as? String == "paywall")
            #expect(report["servedFromFallback"] as? Bool == true)
            #expect(report["reason"] == nil)
        }
    }

    @Test func aResolutionOfNothingIsNotServedFromTheFallback() throws {
        let resolution = try Self.entry(Agreement.emptyExperiment).resolve(subscriberId: "rov_1")
        #expect(!resolution.servedFromFallback)
        let served = try Self.entry(#""funnel":\#(Agreement.funnel("f"))"#).resolve(subscriberId: "rov_1")
        #expect(served.servedFromFallback)
    }

    // MARK: diff does not nest parentheses

    @Test func diffSentencesAboutNothingDoNotNestParentheses() throws {
        let old = Agreement.snapshot(generatedAt: 1_780_000_000_000, [("gone", 1, Agreement.emptyExperiment)])
            .replacingOccurrences(of: #""placements":{"#, with: #""placements":{"skipped":{"placement":7},"#)
        let new = Agreement.snapshot(generatedAt: 1_781_000_000_000, [("a", 3, Agreement.emptyExperiment), ("skipped", 3, Agreement.emptyExperiment)])
        try Agreement.withFolder(["1.json": old, "2.json": new]) { folder, _ in
            let diff = run(["diff", folder + "/1.json", folder + "/2.json"]).output
            let summary = OfflineTarget.NothingReason.noVariants.summary
            #expect(diff.contains("New placement \"a\" (revision 3) serves \(summary)."), "\(diff)")
            #expect(diff.contains("Placement \"skipped\" decodes again (revision 3): it serves \(summary) where"), "\(diff)")
            #expect(diff.contains("gets nothing offline; it served \(summary)."), "\(diff)")
            #expect(!diff.contains("))"), "\(diff)")
        }
    }
}
