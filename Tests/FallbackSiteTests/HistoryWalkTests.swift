import FallbackAudit
import FallbackDiff
import FallbackHistory
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// History you can walk (issue 9 point 8): a page per snapshot of a series with its verdict, a
/// changes page per consecutive pair, findings new / still present / fixed by identity, and a chart
/// that names releases and has a legend.
@Suite("History you can walk")
struct HistoryWalkTests {
    /// Snapshots in memory, in the order given (their names untrusted).
    struct Snapshots: SnapshotSource {
        let snapshots: [(name: String, text: String)]

        func references() throws -> [SnapshotReference] {
            snapshots.enumerated().map { SnapshotReference(name: $1.name, location: String($0)) }
        }

        func bytes(of reference: SnapshotReference) throws -> [UInt8] {
            Array(snapshots[Int(reference.location)!].text.utf8)
        }
    }

    /// The site of a series, through every step of a build but the writing.
    static func build(_ source: some SnapshotSource) throws -> (model: SiteModel, files: [String: String]) {
        let loaded = try SiteBuild.loadSeries(.series(source), baseline: nil, readFile: { _ in [] })
        let model = SiteBuild.model(SiteBuild.diff(try SiteBuild.audit(loaded, settings: SiteBuild.AuditSettings())), title: nil, referenceDate: nil)
        let files = try SiteBuild.render(model, theme: try SiteBuild.loadTheme(templates: nil, assets: nil))
        return (model, files.compactMapValues { String(bytes: $0, encoding: .utf8) })
    }

    static let examples = [
        "2026-03-03-release-3.0", "2026-04-14-release-3.1", "2026-05-19-release-3.2", "2026-06-23-release-3.3", "2026-07-21-release-3.4",
    ]

    static func examplesSite() throws -> (model: SiteModel, files: [String: String]) {
        try build(SnapshotFolder(path: repositoryRoot.appendingPathComponent("Examples").path))
    }

    /// A snapshot whose placements are written one per line, in the order given, after `padding` empty lines.
    static func snapshot(_ placements: [(key: String, entry: String)], padding: Int = 0) -> String {
        let body = placements.map { "\"\($0.key)\": \($0.entry)" }.joined(separator: ",\n")
        return String(repeating: "\n", count: padding) + "{\"formatVersion\": 1, \"placements\": {\n\(body)\n}}"
    }

    /// An entry that loads and serves nothing: a `serves-nothing` warning about its placement.
    static func servesNothing(_ key: String, revision: Int = 1) -> String {
        "{\"placement\": {\"identifier\": \"\(key)\", \"revision\": \(revision)}}"
    }

    // MARK: Pages

    /// A long series can have a history finding for every placement of every release: the history
    /// page lists the first 500 and counts the rest (the whole list made a long series' page pass
    /// its render budget and fail the build).
    /// When it cuts, the errors and warnings are kept first: here the one error comes last.
    @Test func theHistoryPageListsTheFirstFindingsAndCountsTheRest() throws {
        let releases = (0..<3).map { release in
            (name: "r\(release).json", text: Self.snapshot((0..<300).map { index in
                // p299's revision goes down in the last release: an error after 599 infos.
                let revision = index == 299 ? (release == 2 ? 2 : 5) : 1
                return (key: "p\(index)", entry: #"{"placement":{"identifier":"p\#(index)","revision":\#(revision)},"paywall":{"id":"pw","identifier":"pw","name":"v\#(release)","configFormatVersion":1}}"#)
            }))
        }
        let (model, files) = try Self.build(Snapshots(snapshots: releases))
        let timeline = try #require(model.timeline)
        let rules = timeline.findings.map(\.finding.ruleId.rawValue)
        #expect(rules.count { $0 == "content-changed-same-revision" } == 599)
        #expect(rules.last == "revision-regressed" && rules.count == 600)
        let page = try #require(files["history.html"])
        #expect(page.components(separatedBy: "<li class=\"finding ").count - 1 == SiteModel.listedFindingLimit)
        #expect(page.contains("data-rule=\"revision-regressed\""))
        #expect(page.contains("… and 100 more: <code>fallback-site history</code> lists them all."))
        // The listed infos are the first 499, in the timeline's order.
        let listedIds = page.components(separatedBy: "<li class=\"finding ").dropFirst().compactMap { $0.components(separatedBy: "data-rule=\"").dropFirst().first?.prefix(while: { $0 != "\"" }) }
        #expect(listedIds.last == "revision-regressed")
    }

    @Test func eachSnapshotOfTheExamplesHasAPageWithItsOwnVerdict() throws {
        let (model, files) = try Self.examplesSite()
        let walk = try #require(model.walk)
        #expect(walk.snapshots.map { SeriesWalk.label($0.stamp) } == Self.examples)
        var previous: FallbackFile?
        for (index, name) in Self.examples.enumerated() {
            let file = FallbackFile(bytes: try example("Examples/\(name).json"))
            let errors = Audit().findings(in: file).count { $0.severity == .error }
            let breaking = previous.map { SnapshotDiff(old: $0, new: file).count(.breaking) }
            previous = file
            let page = try #require(files[walk.snapshotPath(index)], "\(name)")
            #expect(page.contains("<h1>Snapshot \(name)"))
            let ready = errors == 0 && (breaking ?? 0) == 0
            #expect(page.contains(">\(ready ? "Ready to ship" : "Not ready")</h2>"), "\(name)")
            #expect(page.contains(errors == 0 ? "no errors" : ">\(errors) error\(errors == 1 ? "" : "s")</a>"), "\(name)")
            if let breaking, breaking > 0 {
                #expect(page.contains(#"href="../\#(walk.pairPath(index - 1))#breaking">\#(breaking) breaking change"#), "\(name)")
            }
            #expect(page.contains("Snapshot \(index + 1) of \(Self.examples.count)"))
        }
        // Release 3.4, as the overview says: 1 error, 2 breaking changes since 3.3.
        let newest = try #require(files[walk.snapshotPath(4)])
        #expect(newest.contains(">1 error</a>") && newest.contains(">2 breaking changes</a>"))
    }

    @Test func eachConsecutivePairHasAChangesPageLinkedBothWays() throws {
        let (model, files) = try Self.examplesSite()
        let walk = try #require(model.walk)
        #expect(walk.pairs.count == Self.examples.count - 1)
        for (index, pair) in walk.pairs.enumerated() {
            #expect(pair.older == index && pair.newer == index + 1)
            let path = walk.pairPath(index)
            #expect(path == "diffs/\(walk.snapshots[index].fileName)--\(walk.snapshots[index + 1].fileName).html")
            let page = try #require(files[path])
            #expect(page.contains("<h1>Changes from \(Self.examples[index]) to \(Self.examples[index + 1])</h1>"))
            let old = FallbackFile(bytes: try example("Examples/\(Self.examples[index]).json"))
            let new = FallbackFile(bytes: try example("Examples/\(Self.examples[index + 1]).json"))
            #expect(page.contains("<strong>\(SnapshotDiff(old: old, new: new).count(.breaking)) breaking</strong>"))
            // Each side's snapshot page links here, and this page links back to both.
            #expect(files[walk.snapshotPath(index)]?.contains(#"href="../\#(path)""#) == true)
            #expect(files[walk.snapshotPath(index + 1)]?.contains(#"href="../\#(path)"#) == true)
            #expect(page.contains(#"href="../\#(walk.snapshotPath(index))""#) && page.contains(#"href="../\#(walk.snapshotPath(index + 1))""#))
        }
        // The history's rows lead to both kinds of page.
        let history = try #require(files["history.html"])
        for index in walk.snapshots.indices {
            #expect(history.contains(#"<a href="\#(walk.snapshotPath(index))">"#))
            if index > 0 { #expect(history.contains(#"<a class="pair-link" href="\#(walk.pairPath(index - 1))""#)) }
        }
        // The site's own changes page is unchanged: no pair walk on it.
        #expect(files["changes.html"]?.contains(#"<nav class="walk""#) == false)
    }

    @Test func everyLinkOfTheWalkedExamplesSeriesResolves() throws {
        let (_, files) = try Self.examplesSite()
        #expect(files.keys.contains { $0.hasPrefix("snapshots/") } && files.keys.contains { $0.hasPrefix("diffs/") })
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test func searchFindsEachSnapshotByItsReleaseLabelAndLeadsToItsPage() throws {
        let (model, files) = try Self.examplesSite()
        let walk = try #require(model.walk)
        let entries = model.searchIndex.entries.filter { $0.kind == .snapshot }
        for (index, label) in Self.examples.enumerated() {
            let entry = try #require(entries.first { $0.text == label }, "\(label)")
            #expect(entry.path == walk.snapshotPath(index))
            #expect(entry.label == "snapshot \(label)")
            #expect(files[entry.path] != nil)
        }
        #expect(entries.contains { $0.text == "2026-07-21-release-3.4.json" })
    }

    @Test func onlyTheNewestPairLinksThePlacementPagesOfTheSnapshotTheSiteShows() throws {
        let (model, files) = try Self.examplesSite()
        let walk = try #require(model.walk)
        for index in walk.pairs.indices {
            let page = try #require(files[walk.pairPath(index)])
            #expect(page.contains(#"href="../placements/"#) == (index == walk.pairs.count - 1), "pair \(index)")
        }
    }

    // MARK: New, still present, fixed

    @Test func findingsAreMatchedByRuleSubjectAndPointerNotByLine() throws {
        // b serves nothing in all three; a appears in the second, before b, so b's line moves.
        let first = Self.snapshot([("b", Self.servesNothing("b"))])
        let second = Self.snapshot([("a", Self.servesNothing("a")), ("b", Self.servesNothing("b"))], padding: 3)
        let third = Self.snapshot([("a", Self.servesNothing("a", revision: 2))])
        let findings = [first, second, third].map { Audit().findings(in: FallbackFile(bytes: Array($0.utf8))).filter { $0.ruleId == Rule.servesNothing.id } }
        let b = try #require(findings[0].first)
        let movedB = try #require(findings[1].first { $0.placementKey == "b" })
        #expect(b.line != movedB.line)
        #expect(b.identity == movedB.identity)

        let secondAgainstFirst = FindingComparison(previous: findings[0], current: findings[1])
        #expect(zip(findings[1], secondAgainstFirst.statuses).map { "\($0.placementKey ?? "") \($1.label)" } == ["a new", "b still present"])
        #expect(secondAgainstFirst.fixed.isEmpty)
        let thirdAgainstSecond = FindingComparison(previous: findings[1], current: findings[2])
        #expect(thirdAgainstSecond.statuses == [.stillPresent])
        #expect(thirdAgainstSecond.fixed.map(\.placementKey) == ["b"])
        #expect((thirdAgainstSecond.newCount, thirdAgainstSecond.stillPresentCount) == (0, 1))
    }

    /// A page inserted in front moves every later page's index in its pointer: its problems stay
    /// the same problems, while two pages' (or two options') problems stay two.
    @Test func aPageInsertedInFrontLeavesEveryProblemStillPresent() throws {
        func entry(_ pages: [String]) -> String {
            #"{"placement": {"identifier": "k", "revision": 1}, "funnel": {"id": "f", "slug": "f", "pages": ["#
                + pages.joined(separator: ",") + "]}}"
        }
        let media = [
            #"{"id": "p1", "type": "info", "mediaUrl": "https://x.test/a.png"}"#,
            #"{"id": "p2", "type": "info", "mediaUrl": "https://x.test/b.png"}"#,
        ]
        let before = Self.snapshot([("k", entry(media))])
        let after = Self.snapshot([("k", entry([#"{"id": "p0", "type": "info"}"#] + media))])
        let findings = [before, after].map { text in
            Audit().findings(in: FallbackFile(bytes: Array(text.utf8))).filter { $0.ruleId == Rule.remoteMedia.id }
        }
        #expect(findings[0].count == 2 && findings[1].count == 2)
        #expect(findings[0].map(\.pointer) != findings[1].map(\.pointer), "the pages' indices moved")
        let comparison = FindingComparison(previous: findings[0], current: findings[1])
        #expect(comparison.statuses == [.stillPresent, .stillPresent])
        #expect(comparison.fixed.isEmpty)
        #expect(Set(findings[1].map(\.identity)).count == 2, "p1's and p2's images are two problems")
    }

    /// A funnel that moves from a variant to the entry itself keeps its pages' problems; the
    /// variant's index is no part of a problem's identity, its id is.
    @Test func identityUsesIdsNotIndicesOrRoutes() {
        let funnel = FindingSubject.ServedFunnel(placementKey: ExactKey("k"), route: .variant(index: 2, id: ExactKey("v")), id: ExactKey("f"))
        let direct = FindingSubject.ServedFunnel(placementKey: ExactKey("k"), route: .direct, id: ExactKey("f"))
        func finding(_ subject: FindingSubject, _ pointer: String) -> Finding {
            Finding(ruleId: Rule.remoteMedia.id, severity: .info, message: "m", subject: subject, pointer: pointer, line: 1, column: 1)
        }
        let inVariant = finding(.page(of: funnel, index: 1, id: ExactKey("p")), "/placements/k/experiment/variants/2/funnel/pages/1/options/0/imageUrl")
        let moved = finding(.page(of: direct, index: 4, id: ExactKey("p")), "/placements/k/funnel/pages/4/options/0/imageUrl")
        let otherOption = finding(.page(of: direct, index: 4, id: ExactKey("p")), "/placements/k/funnel/pages/4/options/1/imageUrl")
        let otherPage = finding(.page(of: direct, index: 1, id: ExactKey("q")), "/placements/k/funnel/pages/1/options/0/imageUrl")
        #expect(inVariant.identity == moved.identity)
        #expect(moved.identity.pointer == ExactKey("/options/0/imageUrl"))
        #expect(moved.identity != otherOption.identity)
        #expect(moved.identity != otherPage.identity)
        // Ids compare by their bytes: a composed and a decomposed page id are two pages.
        let composed = finding(.page(of: direct, index: 0, id: ExactKey("caf\u{E9}")), "/placements/k/funnel/pages/0/mediaUrl")
        let decomposed = finding(.page(of: direct, index: 0, id: ExactKey("cafe\u{301}")), "/placements/k/funnel/pages/0/mediaUrl")
        #expect(composed.identity != decomposed.identity)
        // A key holding `/` or `~` is found in the pointer as RFC 6901 writes it.
        let slashed = finding(.placement(key: ExactKey("a/b~c")), "/placements/a~1b~0c/placement/revision")
        #expect(slashed.identity.pointer == ExactKey("/placement/revision"))
    }

    @Test func aProblemReportedTwiceIsMatchedOncePerReport() {
        let finding = Finding(ruleId: Rule.servesNothing.id, severity: .warning, message: "m", placementKey: "k", pointer: "/placements/k", line: 1, column: 1)
        let moved = Finding(ruleId: Rule.servesNothing.id, severity: .warning, message: "m", placementKey: "k", pointer: "/placements/k", line: 9, column: 3)
        let comparison = FindingComparison(previous: [finding, finding], current: [moved])
        #expect(comparison.statuses == [.stillPresent])
        #expect(comparison.fixed.count == 1)
        let grown = FindingComparison(previous: [finding], current: [moved, moved])
        #expect(grown.statuses == [.stillPresent, .new])
        // Another pointer or another rule is another problem.
        let elsewhere = Finding(ruleId: Rule.servesNothing.id, severity: .warning, message: "m", placementKey: "k", pointer: "/placements/k/x", line: 1, column: 1)
        #expect(FindingComparison(previous: [finding], current: [elsewhere]).statuses == [.new])
    }

    /// A series keeps of each snapshot what its page lists: the first `listedFindingLimit`
    /// findings and statuses, the first fixed ones, and the counts of all; the page still counts
    /// the rest ("… and 100 more").
    @Test func aSnapshotKeepsTheFindingsItsPageListsAndCountsTheRest() throws {
        let limit = SiteModel.listedFindingLimit
        func keys(_ range: Range<Int>) -> [(key: String, entry: String)] {
            range.map { ("k\($0)", Self.servesNothing("k\($0)")) }
        }
        // 600 findings each; the second drops k0..<k50 and adds k600..<k650.
        let texts = [("one.json", Self.snapshot(keys(0..<600))), ("two.json", Self.snapshot(keys(50..<650)))]
        let all = texts.map { Audit().findings(in: FallbackFile(bytes: Array($0.1.utf8))) }
        #expect(all.allSatisfy { $0.count > limit })
        let (model, files) = try Self.build(Snapshots(snapshots: texts))
        let walk = try #require(model.walk)
        for (summary, findings) in zip(walk.snapshots, all) {
            #expect(summary.findingCount == findings.count)
            #expect(summary.listedFindings == Array(findings.prefix(limit)))
        }
        let comparison = try #require(walk.snapshots[1].comparison)
        let full = FindingComparison(previous: all[0], current: all[1])
        #expect(comparison.statuses == Array(full.statuses.prefix(limit)))
        #expect(comparison.fixed == full.fixed && comparison.fixedCount == 50)
        #expect((comparison.newCount, comparison.stillPresentCount) == (full.newCount, full.stillPresentCount))
        #expect(full.newCount == 50 && full.stillPresentCount == all[1].count - 50)
        let page = try #require(files[walk.snapshotPath(1)])
        #expect(page.contains("… and \(all[1].count - limit) more"))
        #expect(page.contains("\(full.newCount) new</span>") && page.contains("\(full.stillPresentCount) still present</span>"))
        #expect(page.contains("50 fixed</span>"))
    }

    /// A series keeps each pair's diff cut to the changes its page lists
    /// (`SiteModel.listedChangeLimit` a class), and the page still counts every change: the same
    /// rows a full diff gives.
    @Test func aPairKeepsTheChangesItsPageListsAndCountsTheRest() throws {
        let limit = SiteModel.listedChangeLimit
        func keys(_ prefix: String, _ count: Int) -> [(key: String, entry: String)] {
            (0..<count).map { ("\(prefix)\($0)", Self.servesNothing("\(prefix)\($0)")) }
        }
        // 260 placements removed (breaking) and 230 added.
        let texts = [("one.json", Self.snapshot(keys("a", 260))), ("two.json", Self.snapshot(keys("b", 230)))]
        let (model, files) = try Self.build(Snapshots(snapshots: texts))
        let walk = try #require(model.walk)
        let kept = try #require(walk.pairs.first).diff
        let full = SnapshotDiff(old: FallbackFile(text: texts[0].1), new: FallbackFile(text: texts[1].1))
        #expect(full.count(.breaking) == 260)
        for changeClass in ChangeClass.allCases {
            #expect(kept.count(changeClass) == full.count(changeClass))
            #expect(kept.changes(changeClass).count == min(full.count(changeClass), limit))
        }
        let page = try #require(files[walk.pairPath(0)])
        #expect(page.contains("(260)</span></h2>"))
        #expect(page.contains("… and 60 more Breaking changes"))
        // The changes page of the same two snapshots, from the full diff, lists the same rows.
        let changes = try #require(files["changes.html"])
        func rows(_ html: String) -> Int { html.components(separatedBy: #"<li class="finding">"#).count - 1 }
        #expect(rows(page) == 2 * limit && rows(changes) == 2 * limit)
    }

    /// A finding still present from the snapshot before holds that one's strings: a series of
    /// releases repeats the same problems, and keeps their text once.
    @Test func aFindingStillPresentSharesTheTextOfTheSnapshotBefore() throws {
        // b's line moves (a is added before it), so only its text is shared.
        let texts = [
            ("one.json", Self.snapshot([("bb_long_enough_key_b", Self.servesNothing("bb_long_enough_key_b"))])),
            ("two.json", Self.snapshot([("a", Self.servesNothing("a")), ("bb_long_enough_key_b", Self.servesNothing("bb_long_enough_key_b"))], padding: 2)),
        ]
        let (model, _) = try Self.build(Snapshots(snapshots: texts))
        let walk = try #require(model.walk)
        let first = try #require(walk.snapshots[0].listedFindings.first { $0.placementKey == "bb_long_enough_key_b" })
        let second = try #require(walk.snapshots[1].listedFindings.first { $0.placementKey == "bb_long_enough_key_b" })
        #expect(first.line != second.line)
        #expect(ExactKey.sameRepresentation(first.message, second.message))
        #expect(ExactKey.sameRepresentation(first.placementKey ?? "", second.placementKey ?? ""))
        #expect(ExactKey.sameRepresentation(first.jsonPointer.tail, second.jsonPointer.tail))
    }

    /// Sharing keeps every finding equal to itself, and leaves a text past `sharedTextLimit`
    /// bytes uncompared: its own storage, never a comparison of its whole length per finding.
    @Test(arguments: [20, Finding.sharedTextLimit, Finding.sharedTextLimit + 1])
    func sharingTextKeepsTheFindingAndSkipsLongTexts(length: Int) {
        let key = String(repeating: "k", count: length)
        func finding(line: Int) -> Finding {
            // Each built apart, so no two share storage to begin with.
            let ownKey = String(decoding: Array(key.utf8), as: UTF8.self)
            return Finding(
                ruleId: Rule.servesNothing.id, severity: .warning, message: "Placement \(ownKey) serves nothing",
                subject: .placement(key: ExactKey(ownKey)), pointer: "/placements/\(ownKey)", line: line, column: 1)
        }
        let earlier = finding(line: 1)
        let current = finding(line: 2)
        // Keys of 16 bytes or more are stored apart (shorter ones inline, alike whether shared or not).
        #expect(!ExactKey.sameRepresentation(earlier.message, current.message))
        #expect(!ExactKey.sameRepresentation(earlier.placementKey ?? "", current.placementKey ?? ""))
        let shared = current.sharingText(with: earlier)
        #expect(shared == current)
        let short = length <= Finding.sharedTextLimit
        #expect(ExactKey.sameRepresentation(shared.placementKey ?? "", earlier.placementKey ?? "") == short)
        if length + 12 <= Finding.sharedTextLimit {
            #expect(ExactKey.sameRepresentation(shared.jsonPointer.tail, earlier.jsonPointer.tail))
        } else {
            // A pointer past the limit keeps its own links (its long token is in the head).
            #expect(shared.jsonPointer.head != nil && shared.jsonPointer.head === current.jsonPointer.head)
        }
        // A finding with other text keeps its own.
        let other = Finding(
            ruleId: Rule.servesNothing.id, severity: .warning, message: "other", subject: .placement(key: ExactKey("x")), pointer: "/placements/x",
            line: 2, column: 1)
        #expect(ExactKey.sameRepresentation(other.sharingText(with: earlier).message, other.message))
    }

    /// The comparison names each still-present finding's match: the first previous report of its
    /// identity not yet taken, as the statuses count them.
    @Test func theComparisonNamesEachMatchInOrder() {
        func finding(_ key: String, line: Int) -> Finding {
            Finding(ruleId: Rule.servesNothing.id, severity: .warning, message: "m", placementKey: key, pointer: "/placements/\(key)", line: line, column: 1)
        }
        let previous = [finding("a", line: 1), finding("b", line: 2), finding("a", line: 3), finding("c", line: 4)]
        let current = [finding("a", line: 5), finding("d", line: 6), finding("a", line: 7), finding("a", line: 8), finding("c", line: 9)]
        var matches: [[Int]] = []
        let comparison = FindingComparison(previous: previous, current: current) { matches.append([$0, $1]) }
        #expect(matches == [[0, 0], [2, 2], [4, 3]])
        #expect(comparison.statuses == [.stillPresent, .new, .stillPresent, .new, .stillPresent])
        #expect(comparison.fixed.map(\.placementKey) == ["b"] && comparison.fixedCount == 1)
        let listed = comparison.listing(first: 2)
        #expect(listed.statuses == [.stillPresent, .new] && listed.fixed.count == 1)
        #expect((listed.newCount, listed.stillPresentCount, listed.fixedCount) == (2, 3, 1))

        // More fixed findings than listed: the first ones in order, and the count of all.
        let gone = (0..<7).map { finding("g\($0)", line: $0) }
        let fewer = FindingComparison(previous: gone + previous, current: current).listing(first: 3)
        #expect(fewer.fixed.map(\.placementKey) == ["g0", "g1", "g2"] && fewer.fixedCount == 8)
        #expect(fewer.statuses.count == 3 && fewer.newCount == 2 && fewer.stillPresentCount == 3)
    }

    @Test func snapshotPagesAndTheChecksPageBadgeFindingsAgainstTheSnapshotBefore() throws {
        let texts = [
            ("one.json", Self.snapshot([("b", Self.servesNothing("b"))])),
            ("two.json", Self.snapshot([("a", Self.servesNothing("a")), ("b", Self.servesNothing("b"))], padding: 3)),
            ("three.json", Self.snapshot([("a", Self.servesNothing("a", revision: 2))])),
        ]
        let (model, files) = try Self.build(Snapshots(snapshots: texts))
        let walk = try #require(model.walk)
        func badges(_ page: String) -> [String] {
            page.matches(
                of: #/<span class="badge finding-status status-[a-z-]+">([a-z ]+)</span> <span class="badge sev-warning"><img [^>]*>warning</span> <a class="rule-link" href="[^"]*"><code class="rule-id">serves-nothing</code>/#
            ).map { String($0.output.1) }
        }
        #expect(badges(try #require(files[walk.snapshotPath(0)])).isEmpty)
        #expect(badges(try #require(files[walk.snapshotPath(1)])) == ["new", "still present"])
        let third = try #require(files[walk.snapshotPath(2)])
        #expect(badges(third) == ["still present", "fixed"])
        #expect(third.contains(#"id="fixed-title""#))
        // The checks page of the newest: against two.json, filterable by status.
        let checks = try #require(files["checks.html"])
        #expect(badges(checks) == ["still present", "fixed"])
        #expect(checks.contains(#"data-status="still-present""#) && checks.contains(#"id="checks-finding-status""#))
        // Every finding of three.json was in two.json too (the file's own findings among them).
        #expect(checks.contains(#">0 new</span>"#) && checks.contains(">\(model.snapshot.findings.count) still present</span>"))
        #expect(checks.contains(#">1 fixed</a>"#))
        #expect(checks.contains(#"href="\#(walk.snapshotPath(1))""#))
    }

    @Test func aSingleSnapshotSiteHasNoWalkAndNoBadges() throws {
        let files = try site(for: try example("Examples/2026-07-21-release-3.4.json"))
        #expect(!files.keys.contains { $0.hasPrefix("snapshots/") || $0.hasPrefix("diffs/") })
        #expect(files["checks.html"]?.contains("finding-status") == false)
    }

    // MARK: Names

    @Test func untrustedNamesMakeSafeDistinctPageNames() throws {
        let text = Self.snapshot([("b", Self.servesNothing("b"))])
        let names = ["../../<script>x.json", "a/same.json", "b/same.json", "CON.json", "same.json"]
        let (model, files) = try Self.build(Snapshots(snapshots: names.map { ($0, text) }))
        let walk = try #require(model.walk)
        let paths = walk.snapshots.indices.map(walk.snapshotPath) + walk.pairs.indices.map(walk.pairPath)
        #expect(Set(paths).count == names.count * 2 - 1)
        for path in paths {
            let name = path.split(separator: "/").last.map(String.init) ?? ""
            #expect(path.split(separator: "/").count == 2 && !name.hasPrefix("."), "\(path)")
            #expect(name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || "-_.".contains($0)) }, "\(path)")
            #expect(files[path] != nil, "\(path)")
        }
        // No page carries the name as markup (the search index, a script of JSON data, holds it as text).
        #expect(files.filter { $0.key.hasSuffix(".html") }.values.allSatisfy { !$0.contains("<script>x") })
    }

    /// Two pairs of snapshots whose names hold `--`, or start or end with `-`, could spell one page
    /// name (`x` then `y--z`, and `x--y` then `z`): each pair still gets a page of its own.
    @Test(arguments: [["x", "y--z", "x--y", "z"], ["x-", "y", "x", "-y"]])
    func pairsOfNamesThatSpellOneNameGetPagesOfTheirOwn(labels: [String]) throws {
        let text = Self.snapshot([("b", Self.servesNothing("b"))])
        let (model, files) = try Self.build(Snapshots(snapshots: labels.map { ("\($0).json", text) }))
        let walk = try #require(model.walk)
        #expect(walk.snapshots.map(\.fileName) == labels, "the snapshots keep their own names")
        let pairPaths = walk.pairs.indices.map(walk.pairPath)
        #expect(pairPaths.count == labels.count - 1)
        #expect(Set(pairPaths).count == pairPaths.count, "\(pairPaths)")
        for (index, path) in pairPaths.enumerated() {
            let page = try #require(files[path], "\(path)")
            let pair = walk.pairs[index]
            // Each pair's page links the two snapshots it compares.
            #expect(page.contains("\(walk.snapshotPath(pair.older))\""), "\(path)")
            #expect(page.contains("\(walk.snapshotPath(pair.newer))\""), "\(path)")
        }
    }

    @Test func pairNamesStayOlderDashDashNewerWhileTheyReadBackAsOnePair() {
        #expect(SeriesWalk.pairFileNames([("a", "b"), ("b", "c-d"), ("c-d", "e_f")]) == ["a--b", "b--c-d", "c-d--e_f"])
        let ambiguous = SeriesWalk.pairFileNames([("x", "y--z"), ("y--z", "x--y"), ("x--y", "z")])
        #expect(Set(ambiguous).count == 3)
        #expect(ambiguous.allSatisfy { SiteWriter.isSafe("diffs/\($0).html") && !$0.contains("/") })
        #expect(SeriesWalk.pairFileNames([]) == [])
    }

    // MARK: The chart

    static func records(_ count: Int) throws -> [SnapshotRecord] {
        let texts = (0..<count).map { Self.snapshot([("k", Self.servesNothing("k", revision: $0 + 1))]) }
        return try SnapshotSeries(Snapshots(snapshots: texts.enumerated().map { ("release-\($0).json", $1) })).timeline(HistoryOptions()).snapshots
    }

    @Test(arguments: [1, 2, 5, 12, 13, 40, 200])
    func theChartNamesReleasesWithoutCrowdingTheAxis(_ count: Int) throws {
        let records = try Self.records(count)
        let labels = records.map { SeriesWalk.label($0.stamp) }
        let svg = HistoryChart.svg(for: records, labels: labels, paths: records.indices.map { "snapshots/\($0).html" })
        let shown = svg.matches(of: #/<a href="snapshots/(\d+)\.html"><text class="hc-tick hc-release" x="([0-9.]+)"[^>]*rotate\(-45 [^>]*><title>([^<]*)</title>([^<]*)</text></a>/#)
        #expect(shown.count <= HistoryChart.labelLimit + 1)
        #expect(shown.count == min(count, HistoryChart.labelLimit) || count > HistoryChart.labelLimit)
        #expect(shown.last.map { Int($0.output.1) } == count - 1, "the newest is always named")
        for match in shown {
            let index = Int(match.output.1)!
            #expect(match.output.3.hasPrefix(labels[index] + " ("), "the whole label is in the title")
            #expect(match.output.4 == labels[index])
        }
        // Turned 45°, labels at least 20 units apart never overlap at a 12-unit font.
        let xs = shown.map { Double($0.output.2)! }
        for (a, b) in zip(xs, xs.dropFirst()) { #expect(b - a >= 20, "\(a) and \(b)") }
    }

    /// An image may hold nothing interactive (axe-core's nested-interactive, serious): with release
    /// labels that link, the chart is a labelled group; without links it stays one image.
    @Test func aChartWithLinksIsAGroupNotAnImage() throws {
        let records = try Self.records(3)
        let linked = HistoryChart.svg(for: records, paths: records.indices.map { "snapshots/\($0).html" })
        let plain = HistoryChart.svg(for: records)
        #expect(linked.contains("<a href=\"snapshots/0.html\">"))
        #expect(linked.hasPrefix("<div class=\"chart-scroll\" role=\"region\" aria-label=\"History chart\"><svg class=\"history-chart\"") && linked.contains(#"role="group" aria-labelledby="hc-title""#))
        #expect(!linked.contains(#"role="img""#))
        #expect(!plain.contains("<a ") && plain.contains(#"role="img" aria-labelledby="hc-title""#))
    }

    @Test func theLegendNamesEachLineWithItsOwnDashAndMarker() throws {
        let svg = HistoryChart.svg(for: try Self.records(3))
        let legend = try #require(svg.firstMatch(of: #/<ul class="hc-legend"[^>]*>(.*)</ul>/#)).output.1
        let items = legend.matches(of: #/<li>(.*?)</li>/#).map { String($0.output.1) }
        #expect(items.map { $0.replacing(#/<[^>]*>/#, with: "") } == ["placements", "errors", "warnings", "infos"])
        let dashes = items.map { $0.firstMatch(of: #/stroke-dasharray="([^"]*)"/#).map { String($0.output.1) } ?? "solid" }
        // A marker is its element, and for a path its number of corners.
        let markers = items.map { item in
            (item.firstMatch(of: #/<(circle|rect|path) /#).map { String($0.output.1) } ?? "")
                + (item.firstMatch(of: #/<path [^>]*d="([^"]*)"/#).map { String($0.output.1.split(separator: "L").count) } ?? "")
        }
        #expect(Set(dashes).count == 4, "\(dashes)")
        #expect(Set(markers).count == 4, "\(markers)")
        // Each line of the chart carries its legend's dash.
        for (name, dash) in zip(["placements", "errors", "warnings", "infos"], dashes) {
            let line = try #require(svg.firstMatch(of: try Regex("<polyline class=\"hc-line is-\(name)\"( stroke-dasharray=\"([^\"]*)\")? points")))
            #expect((line.output[2].substring.map(String.init) ?? "solid") == dash, "\(name)")
        }
    }

    // MARK: Scale

    @Test func aSeriesOf200SnapshotsHasAPageForEachAndEachPair() throws {
        let texts = (0..<200).map { index in
            ("release-\(index).json", Self.snapshot([("k", Self.servesNothing("k", revision: index + 1)), ("x\(index % 3)", Self.servesNothing("x\(index % 3)"))]))
        }
        let (model, files) = try Self.build(Snapshots(snapshots: texts))
        let walk = try #require(model.walk)
        #expect(walk.snapshots.count == 200 && walk.pairs.count == 199)
        #expect(files.keys.count { $0.hasPrefix("snapshots/") } == 200)
        #expect(files.keys.count { $0.hasPrefix("diffs/") } == 199)
        // Each snapshot after the first: x(i) is new, k still present, x(i - 1) fixed.
        for (index, summary) in walk.snapshots.enumerated().dropFirst() {
            let comparison = try #require(summary.comparison)
            let statuses = zip(summary.listedFindings, comparison.statuses).filter { $0.0.ruleId == Rule.servesNothing.id }
                .map { "\($0.0.placementKey ?? "") \($0.1.label)" }
            #expect(statuses.sorted() == ["k still present", "x\(index % 3) new"])
            #expect(comparison.fixed.filter { $0.ruleId == Rule.servesNothing.id }.map(\.placementKey) == ["x\((index - 1) % 3)"])
        }
    }
}
