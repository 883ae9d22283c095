import FallbackAudit
import FallbackDiff
import Foundation
import RovenueFallback
import Testing

@testable import fallback_bench

/// The scaling table's inputs load as the SDK would and grow exactly the dimension they are named after.
@Suite struct BenchInputTests {
    private func load(_ text: String) throws -> (file: FallbackFile, funnel: Funnel) {
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == 1)
        let funnel = try #require(file.loadedEntries.first?.entry.funnel)
        return (file, funnel)
    }

    private func findings(_ file: FallbackFile, _ rule: Rule) -> Int {
        Audit().findings(in: file).count { $0.ruleId == rule.id }
    }

    @Test(arguments: [1, 7, 300])
    func optionsGrowOnePage(count: Int) throws {
        let (_, funnel) = try load(ScalingInputs.options(count))
        #expect(funnel.pages.count == 2)
        let options = try #require(funnel.pages[0].options)
        #expect(options.count == count)
        #expect(options.allSatisfy { $0.imageUrl != nil })
    }

    /// The audit reports one loop of all the pages, closed by every page's rule and the last default_next.
    @Test(arguments: [2, 10, 120])
    func everyLoopingPageGoesBackToTheFirst(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.loopingPages(count))
        #expect(funnel.pages.count == count)
        #expect(funnel.pages.allSatisfy { $0.nextRules?.first?.goto == "page_0" })
        let cycles = Audit().findings(in: file).filter { $0.ruleId == Rule.cycle.id }
        #expect(cycles.count == 1)
        #expect(cycles.first?.message.contains("\(count) pages (") == true)
        #expect(cycles.first?.message.contains("through \(count + 1) steps back") == true)
        #expect(findings(file, .gotoUnknown) == 0)
    }

    @Test(arguments: [1, 10, 150])
    func unknownTargetsGiveOneFindingAPage(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.unknownTargets(count))
        #expect(funnel.pages.count == count)
        #expect(findings(file, .gotoUnknown) == count)
        #expect(findings(file, .cycle) == 0)
    }

    /// 200 pages whose ids are N letters long, and N rules to short missing targets: one finding
    /// each, none with a suggestion (no id is within three edits of a short target).
    @Test(arguments: [1, 10, 450])
    func shortTargetsGiveOneFindingARuleAmongLongIds(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.shortTargetsAmongLongIds(count))
        #expect(funnel.pages.count == Format.suggestionCandidateLimit)
        #expect(funnel.pages.allSatisfy { $0.id.utf8.count >= count && $0.id.hasPrefix(String(repeating: "a", count: count)) })
        #expect(funnel.pages.reduce(0) { $0 + ($1.nextRules?.count ?? 0) } == count)
        let unknown = Audit().findings(in: file).filter { $0.ruleId == Rule.gotoUnknown.id }
        #expect(unknown.count == count)
        #expect(!unknown.contains { $0.message.contains("did you mean") })
    }

    @Test(arguments: [1, 2, 500])
    func theRepeatedKeyLoadsOnceAndTheLastWins(count: Int) throws {
        let text = ScalingInputs.repeatedKey(count)
        #expect(text.components(separatedBy: "\"p\":{").count - 1 == count)
        let file = FallbackFile(text: text)
        #expect(file.loadedCount == 1)
        #expect(file.loadedEntries.first?.entry.placement?.revision == Int64(count))
    }

    /// Every declared locale has its copy, in reverse order; the odd ones are blank, and one
    /// finding names them in declared order, whatever the order of the copy (the first
    /// `Format.listedLimit`, then how many more).
    @Test(arguments: [2, 9, 400])
    func reversedLocalesGiveOneGapPerBlankLocale(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.reversedLocales(count))
        #expect(funnel.locales?.count == count)
        guard case .localized(let title)? = funnel.pages[0].title else {
            Issue.record("the title is not per-locale copy")
            return
        }
        #expect(title.keys == (0..<count).reversed().map { "l" + ScalingInputs.sevenDigits($0) })
        let gaps = Audit().findings(in: file).filter { $0.ruleId == Rule.translationMissing.id }
        #expect(gaps.count == 1)
        // The gaps in declared order: the first `Format.listedLimit` named, the rest counted.
        let blank = (0..<count).filter { !$0.isMultiple(of: 2) }
        let named = blank.prefix(Format.listedLimit).map { #""l\#(ScalingInputs.sevenDigits($0))" (blank)"# }.joined(separator: ", ")
        let more = blank.count > Format.listedLimit ? ", and \(blank.count - Format.listedLimit) more" : ""
        #expect(gaps.first?.message.contains("no copy for locale\(blank.count == 1 ? "" : "s") \(named)\(more), though") == true)
    }

    /// Ten times the locales are ten times the bytes, less the file's fixed part: the row measures
    /// the number of locales, not the length of their names.
    @Test(arguments: [(1_000, 10_000), (99_999, 999_990)])
    func tenTimesTheLocalesAreTenTimesTheBytes(small: Int, large: Int) {
        let fixed = ScalingInputs.reversedLocales(1).utf8.count
        let smallBytes = ScalingInputs.reversedLocales(small).utf8.count - fixed
        let largeBytes = ScalingInputs.reversedLocales(large).utf8.count - fixed
        let growth = Double(largeBytes) / Double(smallBytes)
        #expect(abs(growth - Double(large - 1) / Double(small - 1)) < 0.01, "input grew \(growth)×")
        #expect(ScalingInputs.sevenDigits(42) == "0000042")
        #expect(ScalingInputs.sevenDigits(9_999_999) == "9999999")
    }

    /// One question page of `count` options and `count` rules after it, each comparing the answer
    /// with a value no option has: one finding a rule.
    @Test(arguments: [1, 17, 300])
    func everyClauseComparesWithAValueNoOptionHas(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.unknownOptionValues(count))
        #expect(funnel.pages.count == 2)
        #expect(funnel.pages[0].options?.count == count)
        #expect(funnel.pages[1].nextRules?.count == count)
        #expect(findings(file, .clauseOptionUnknown) == count)
        #expect(findings(file, .questionUnknown) == 0)
    }

    /// Every id and text ends with the marks; the rule's target and the clause's value name
    /// nothing, one finding each, and the finding under the marked locale key points there.
    @Test(arguments: [1, 40, 2_000])
    func everyIdCarriesTheCombiningMarks(count: Int) throws {
        let marks = String(repeating: "\u{301}\u{316}", count: count)
        let (file, funnel) = try load(ScalingInputs.combiningMarks(count))
        let key = try #require(file.loadedEntries.first?.key)
        #expect(ExactKey.same(key, "p" + marks))
        #expect(ExactKey.same(funnel.id, "fnl" + marks))
        #expect(funnel.pages.count == 2)
        #expect(funnel.pages.allSatisfy { $0.id.unicodeScalars.count == $0.id.unicodeScalars.prefix { $0.isASCII }.count + 2 * count })
        #expect(findings(file, .gotoUnknown) == 1)
        #expect(findings(file, .clauseOptionUnknown) == 1)
        #expect(file.document.bytes.count > 4 * count * 15)
    }

    @Test func emptyFileLoadsNothingAndIsNotRejected() {
        let file = FallbackFile(text: ScalingInputs.empty)
        #expect(file.loadedCount == 0)
        #expect(file.rejection == nil)
    }

    @Test func releasesChangeFromOneToTheNextAndAreTheSameEachTime() {
        var first: [String] = []
        var second: [String] = []
        ScalingInputs.forEachRelease(3, placements: 20, changes: 2) { _, text in first.append(text) }
        ScalingInputs.forEachRelease(3, placements: 20, changes: 2) { _, text in second.append(text) }
        #expect(first == second)
        #expect(Set(first).count == 3)
        #expect(first.allSatisfy { FallbackFile(text: $0).loadedCount > 0 })
    }

    /// Every page misses every locale but `en`: one finding a page, counting all of them and
    /// naming the first few.
    @Test(arguments: [1, 13, 300])
    func everyPageMissesEveryOtherLocale(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.pagesMissingLocales(count))
        #expect(funnel.pages.count == count)
        #expect(funnel.locales?.count == count + 1)
        let gaps = Audit().findings(in: file).filter { $0.ruleId == Rule.translationMissing.id }
        #expect(gaps.count == count)
        let more = count > Format.listedLimit ? ", and \(count - Format.listedLimit) more" : ""
        #expect(gaps.allSatisfy { $0.message.contains(#""l\#(ScalingInputs.sevenDigits(0))" (missing)"#) && $0.message.contains("\(more), though") })
    }

    /// The two releases differ only in every clause's value, so the diff pairs all `count` clauses.
    @Test(arguments: [1, 9, 400])
    func changedClausesDifferInEveryValue(count: Int) throws {
        let releases = ScalingInputs.changedClauses(count)
        #expect(releases.count == 2)
        let rules = try releases.map { text in try #require(load(text).funnel.pages[0].nextRules?.first) }
        let clauses = rules.map(\.condition.clauses)
        #expect(clauses.map(\.count) == [count, count])
        #expect(clauses[0].map(\.questionId) == clauses[1].map(\.questionId))
        #expect(Set(clauses[0].map(\.questionId)).count == count)
        #expect(releases[0].replacingOccurrences(of: #""value":"yes""#, with: #""value":"no""#) == releases[1])
    }

    /// Both releases load; they differ only in the last of `count` numbers, nested as deep as
    /// `deepValueLevels` says under the funnel's theme, and `diff` reports that one number.
    @Test(arguments: [1, 9, 400])
    func deepValueDiffersInItsLastNumberOnly(count: Int) throws {
        let releases = ScalingInputs.deepValue(count)
        let files = releases.map { FallbackFile(text: $0) }
        #expect(files.map(\.loadedCount) == [1, 1])
        #expect(releases[0].replacingOccurrences(of: "-1]", with: "-2]") == releases[1])
        #expect(releases[1].contains(String(repeating: "[", count: ScalingInputs.deepValueLevels) + (count == 1 ? "-2" : "0,")))
        let changes = SnapshotDiff(old: files[0], new: files[1]).changes
        #expect(changes.count == 1)
        #expect(changes.first?.field == "theme.deep" + String(repeating: "[0]", count: ScalingInputs.deepValueLevels - 1) + "[\(count - 1)]")
    }

    /// The second release serves the same experiment with every variant renamed, a day later.
    @Test(arguments: [1, 9, 400])
    func renamedVariantsShareNoId(count: Int) throws {
        let files = ScalingInputs.renamedVariants(count).map { FallbackFile(text: $0) }
        #expect(files.map(\.loadedCount) == [1, 1])
        let variants = try files.map { try #require($0.loadedEntries.first?.entry.experiment?.variants) }
        #expect(variants.map(\.count) == [count, count])
        #expect(Set(variants[0].map(\.variantId)).isDisjoint(with: variants[1].map(\.variantId)))
        #expect(files[1].generatedAt?.number?.reading != files[0].generatedAt?.number?.reading)
    }

    /// The paywall's builderConfig and the funnel's page each hold `count` image URLs under one key
    /// of `count` characters.
    @Test(arguments: [1, 9, 300])
    func oneLongKeyHoldsEveryURL(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.longKeyOverValues(count))
        let paywall = try #require(file.loadedEntries.first?.entry.paywall)
        let page = try #require(funnel.pages.first)
        let key = String(repeating: "k", count: count)
        for urls in [RemoteMedia.urls(inBuilderConfigOf: paywall, in: file), RemoteMedia.urls(on: page, in: file)] {
            #expect(urls.count == count)
            #expect(urls.allSatisfy { $0.path.hasPrefix(key + "/") && $0.url.hasPrefix("https://") })
        }
    }

    /// The first page's `count` rules, distinct ids, all go to the second page.
    @Test(arguments: [1, 9, 300])
    func everyRuleGoesToTheSamePage(count: Int) throws {
        let (file, funnel) = try load(ScalingInputs.rulesToOnePage(count))
        let rules = try #require(funnel.pages.first?.nextRules)
        #expect(rules.count == count)
        #expect(Set(rules.map(\.id)).count == count)
        #expect(rules.allSatisfy { $0.goto == "done" })
        #expect(funnel.pages.map(\.id) == ["ask", "done"])
        #expect(Audit().findings(in: file).allSatisfy { $0.severity != .error })
    }

    /// Each release loads one placement of its own, a minute after the last.
    @Test(arguments: [2, 9, 120])
    func everyReleaseReplacesTheLastPlacement(count: Int) throws {
        let files = ScalingInputs.replacedPlacements(count).map { FallbackFile(text: $0) }
        #expect(files.count == count)
        #expect(files.allSatisfy { $0.loadedCount == 1 })
        #expect(Set(files.compactMap { $0.loadedEntries.first?.key }).count == count)
        #expect(Set(files.compactMap { $0.generatedAt?.number?.reading }).count == count)
    }
}
