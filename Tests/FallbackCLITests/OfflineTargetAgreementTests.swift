import Foundation
import Testing

/// Every command answers "what does this entry serve?" (the contract's §5) the same way: `resolve`,
/// `check`, `diff`, `history` and the site agree on what an entry serves, on the words for serving
/// nothing, and on which keys are one placement.
@Suite("What an entry serves: every command agrees")
struct OfflineTargetAgreementTests {
    static func paywall(_ id: String) -> String {
        #"{"id":"\#(id)","identifier":"\#(id)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
    }

    static func funnel(_ id: String) -> String {
        #"{"id":"\#(id)","slug":"\#(id)","name":"Funnel \#(id)","pages":[{"id":"p1","type":"info"}]}"#
    }

    static func snapshot(generatedAt: Int, _ placements: [(key: String, revision: Int, body: String)]) -> String {
        let members = placements.map { placement in
            #""\#(placement.key)":{"placement":{"identifier":"\#(placement.key)","revision":\#(placement.revision)},\#(placement.body)}"#
        }
        return #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"proj_1","placements":{\#(members.joined(separator: ","))}}"#
    }

    /// Writes `files` into a folder of a fresh temporary folder and runs `body` with the folder's
    /// path and a site output path beside it; everything is removed after.
    static func withFolder<T>(_ files: [String: String], _ body: (_ folder: String, _ out: String) throws -> T) throws -> T {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = root + "/snapshots"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        return try body(folder, root + "/site")
    }

    /// Every file of the site built at `out`, by path relative to it.
    static func siteFiles(_ out: String) throws -> [String: String] {
        var files: [String: String] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: out))
        while let path = enumerator.nextObject() as? String {
            if path.hasSuffix(".html") { files[path] = text(at: out + "/" + path) }
        }
        return files
    }

    // MARK: (a) An experiment with no variants

    static let emptyExperiment = #""experiment":{"id":"exp_empty","key":"k_empty","variants":[]}"#

    @Test func anExperimentWithNoVariantsReadsTheSameEverywhere() throws {
        let old = Self.snapshot(generatedAt: 1_780_000_000_000, [("a", 1, #""paywall":\#(Self.paywall("pw_old"))"#)])
        let new = Self.snapshot(generatedAt: 1_781_000_000_000, [("a", 2, Self.emptyExperiment)])
        try Self.withFolder(["1.json": old, "2.json": new]) { folder, out in
            // resolve gives the words and the reason.
            let resolved = try jsonObject(run(["resolve", folder + "/2.json", "a", "--format", "json"]).output)
            let reason = try #require(resolved["reason"] as? String)
            #expect(resolved["served"] as? String == "nothing")
            #expect(resolved["servedFromFallback"] as? Bool == false)
            let resolvedText = run(["resolve", folder + "/2.json", "a"]).output
            let servedRow = try #require(resolvedText.split(separator: "\n").first { $0.hasPrefix("served") })
            let words = String(servedRow.dropFirst("served".count).drop { $0 == " " })
            #expect(words.hasPrefix("nothing"), "\(words)")
            #expect(words.contains(reason), "\(words) does not give the reason \(reason)")

            // diff: the change of target and a new placement use the same words.
            let diff = run(["diff", folder + "/1.json", folder + "/2.json"]).output
            #expect(diff.contains("serves \(words) instead of paywall"), "\(diff)")

            // history: the revision serves nothing, for the same reason, not an experiment.
            let history = try jsonObject(run(["history", folder + "/1.json", folder + "/2.json", "--format", "json"]).output)
            let placements = try #require(history["placements"] as? [[String: Any]])
            let revisions = try #require(placements.first { $0["key"] as? String == "a" }?["revisions"] as? [[String: Any]])
            let summary = try #require(revisions.last?["summary"] as? String)
            #expect(summary.hasSuffix("paywall pw_old → \(words)"), "\(summary)")

            // Every page that says what the placement serves says it in the same words.
            #expect(run(["build", folder, "--out", out, "--quiet"]).status == 0)
            let pages = try Self.siteFiles(out)
            let placement = try #require(pages["placements/a.html"])
            #expect(placement.contains("gets \(words).</p>"), "placement page")
            #expect(placement.contains("serves \(words)<br>"), "placement revisions")
            let overview = try #require(pages["index.html"])
            #expect(overview.contains(words), "overview row")
            let experiments = pages.filter { $0.key.hasPrefix("experiments/") }
            #expect(experiments.count == 1)
            for (path, page) in experiments {
                #expect(page.contains(words), "\(path)")
            }
            // Rule pages quote docs/rules.md, whose prose ("serves nothing: no placement, …") is not a placement's wording.
            for (path, page) in pages where !path.hasPrefix("rules/") && (page.contains("exp_empty") || path.hasPrefix("placements/")) {
                #expect(!page.contains("nothing:"), "\(path) words nothing another way")
            }
        }
    }

    @Test func aNewPlacementWithAnEmptyExperimentIsAddedAsServingNothing() throws {
        let old = Self.snapshot(generatedAt: 1_780_000_000_000, [("b", 1, #""paywall":\#(Self.paywall("pw"))"#)])
        let new = Self.snapshot(
            generatedAt: 1_781_000_000_000, [("b", 1, #""paywall":\#(Self.paywall("pw"))"#), ("a", 1, Self.emptyExperiment)])
        try Self.withFolder(["1.json": old, "2.json": new]) { folder, out in
            let resolvedText = run(["resolve", folder + "/2.json", "a"]).output
            let servedRow = try #require(resolvedText.split(separator: "\n").first { $0.hasPrefix("served") })
            let words = String(servedRow.dropFirst("served".count).drop { $0 == " " })
            let diff = run(["diff", folder + "/1.json", folder + "/2.json"]).output
            #expect(diff.contains("New placement \"a\" (revision 1) serves \(words)."), "\(diff)")
            let history = try jsonObject(run(["history", folder + "/1.json", folder + "/2.json", "--format", "json"]).output)
            let placements = try #require(history["placements"] as? [[String: Any]])
            let revisions = try #require(placements.first { $0["key"] as? String == "a" }?["revisions"] as? [[String: Any]])
            #expect((revisions.first?["summary"] as? String)?.hasSuffix(": \(words)") == true, "\(revisions)")
        }
    }

    // MARK: (b) Keys that differ only by normalisation

    static let composed = "caf\u{E9}"
    static let decomposed = "cafe\u{301}"
    /// The two spellings as JSON escapes, so the file's bytes are exactly these.
    static let composedJSON = #"caf\u00e9"#
    static let decomposedJSON = #"cafe\u0301"#

    @Test func keysThatDifferOnlyByNormalisationAreTwoPlacements() throws {
        let old = Self.snapshot(generatedAt: 1_780_000_000_000, [(Self.composedJSON, 1, #""funnel":\#(Self.funnel("fnl_one"))"#)])
        let new = Self.snapshot(
            generatedAt: 1_781_000_000_000,
            [(Self.composedJSON, 1, #""funnel":\#(Self.funnel("fnl_one"))"#), (Self.decomposedJSON, 1, #""funnel":\#(Self.funnel("fnl_two"))"#)])
        try Self.withFolder(["1.json": old, "2.json": new]) { folder, out in
            // resolve: each spelling finds its own funnel.
            for (key, funnel) in [(Self.composed, "fnl_one"), (Self.decomposed, "fnl_two")] {
                let resolved = try jsonObject(run(["resolve", folder + "/2.json", key, "--format", "json"]).output)
                #expect((resolved["funnel"] as? [String: Any])?["id"] as? String == funnel)
            }
            // check: two entries load, neither is a duplicate of the other.
            let check = try jsonObject(run(["check", folder + "/2.json", "--format", "json"]).output)
            let checked = try #require((check["files"] as? [[String: Any]])?.first)
            let loaded = (checked["loaded"] as? [String] ?? []).map { Array($0.utf8) }
            #expect(loaded == [Array(Self.composed.utf8), Array(Self.decomposed.utf8)], "\(checked)")
            let rules = (checked["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
            #expect(!rules.contains("duplicate-key"), "\(rules)")

            // diff: the decomposed key is a new placement; the composed one is unchanged.
            let diff = try jsonObject(run(["diff", folder + "/1.json", folder + "/2.json", "--format", "json"]).output)
            let changes = try #require(diff["changes"] as? [[String: Any]])
            let added = changes.filter { $0["kind"] as? String == "placement-added" }
            #expect(added.count == 1, "\(changes)")
            #expect((added.first?["placement"] as? String).map { Array($0.utf8) } == Array(Self.decomposed.utf8))
            #expect(!changes.contains { ($0["placement"] as? String).map { Array($0.utf8) } == Array(Self.composed.utf8) })

            // history: two placements, the decomposed one added in the second snapshot.
            let history = try jsonObject(run(["history", folder + "/1.json", folder + "/2.json", "--format", "json"]).output)
            let placements = try #require(history["placements"] as? [[String: Any]])
            #expect(placements.count == 2)
            let second = try #require(placements.first { ($0["key"] as? String).map { Array($0.utf8) } == Array(Self.decomposed.utf8) })
            #expect((second["revisions"] as? [[String: Any]])?.count == 1)
            let first = try #require(placements.first { ($0["key"] as? String).map { Array($0.utf8) } == Array(Self.composed.utf8) })
            #expect((first["revisions"] as? [[String: Any]])?.count == 1)

            // site: two placement pages and two funnel pages, each with its own funnel.
            #expect(run(["build", folder, "--out", out, "--quiet"]).status == 0)
            let pages = try Self.siteFiles(out)
            let placementPages = pages.filter { $0.key.hasPrefix("placements/") }
            #expect(placementPages.count == 2)
            #expect(placementPages.values.contains { $0.contains("Funnel fnl_one") && !$0.contains("Funnel fnl_two") })
            #expect(placementPages.values.contains { $0.contains("Funnel fnl_two") && !$0.contains("Funnel fnl_one") })
            #expect(pages.keys.filter { $0.hasPrefix("funnels/") }.count == 2)
        }
    }

    // MARK: (c) A direct target shadows the experiment

    static let shadowedExperiment =
        #""experiment":{"id":"exp_shadowed","key":"k","variants":[{"variantId":"v1","weight":1,"funnel":\#(funnel("fnl_shadowed"))}]}"#

    @Test(arguments: [
        #""funnel":\#(funnel("fnl_direct"))"#,
        #""paywall":\#(paywall("pw_direct"))"#,
    ])
    func theSiteDoesNotListFunnelsADirectTargetShadows(direct: String) throws {
        let file = Self.snapshot(generatedAt: 1_780_000_000_000, [("a", 1, direct + "," + Self.shadowedExperiment)])
        try Self.withFolder(["s.json": file]) { folder, out in
            #expect(run(["build", folder + "/s.json", "--out", out, "--quiet"]).status == 0)
            let pages = try Self.siteFiles(out)
            let funnelPages = pages.filter { $0.key.hasPrefix("funnels/") }
            #expect(!funnelPages.values.contains { $0.contains("Funnel fnl_shadowed") }, "\(funnelPages.keys)")
            #expect(!pages.keys.contains { $0.hasPrefix("experiments/") }, "the shadowed experiment has no page")
            if direct.contains("fnl_direct") {
                #expect(funnelPages.count == 1)
                #expect(funnelPages.values.allSatisfy { $0.contains("Funnel fnl_direct") })
            } else {
                #expect(funnelPages.isEmpty)
            }
        }
    }
}
