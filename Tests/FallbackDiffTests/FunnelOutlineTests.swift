import FallbackDiff
import FallbackSample
import Foundation
import RovenueFallback
import Testing
import FallbackTestSupport

/// `SnapshotDiff.funnelChangeOutlines` (what the experiment page asks for: kinds and ids only)
/// against the outlines of `funnelChanges`' full changes: the same outlines in the same order for
/// every pair of funnels of every Example (the series' snapshots), fixture and fuzz input, and for
/// random pairs of a funnel and a mutated copy.
@Suite("Funnel change outlines match the full changes")
struct FunnelOutlineTests {
    /// Every funnel a loaded entry serves, with its placement and variant.
    static func funnels(in file: FallbackFile) -> [(key: String, variantId: String?, funnel: Funnel)] {
        file.loadedEntries.flatMap { key, entry in
            entry.offlineTarget.servedFunnels.map { (key, $0.variant?.variantId, $0.value) }
        }
    }

    /// Compares both paths for `old` → `new`; returns how many changes the pair has.
    @discardableResult
    static func check(_ old: Funnel, _ new: Funnel, in file: FallbackFile, key: String?, variantId: String?, _ label: String) -> Int {
        let full = SnapshotDiff.funnelChanges(from: old, to: new, in: file, placementKey: key, variantId: variantId)
        let outlines = SnapshotDiff.funnelChangeOutlines(from: old, to: new, in: file, placementKey: key, variantId: variantId)
        #expect(outlines == full.map(\.outline), "\(label)")
        return full.count
    }

    @Test func everyFunnelPairOfEveryCorpusFile() throws {
        #expect(corpusFiles.count >= 8)
        var pairs = 0
        var changes = 0
        for path in corpusFiles {
            let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            // Each funnel with the next 12 (the Examples serve dozens): both directions.
            let funnels = Self.funnels(in: file)
            for (index, old) in funnels.enumerated() {
                for new in funnels[index...].prefix(13) {
                    for (from, to) in [(old, new), (new, old)] {
                        changes += Self.check(
                            from.funnel, to.funnel, in: file, key: to.key, variantId: to.variantId, "\(path): \(from.funnel.id) → \(to.funnel.id)")
                        pairs += 1
                    }
                }
            }
        }
        #expect(pairs > 200)
        #expect(changes > 1000)
    }

    /// The kinds the random pairs below must reach, so that each rule of the funnel comparison is
    /// compared (paywall pages' reach is checked per entry, not between two funnels).
    static let expectedKinds: Set<ChangeKind> = [
        .pageAdded, .pageRemoved, .pagesReordered, .copyChanged, .optionsChanged, .ruleChanged, .pagePaywallChanged, .mediaChanged,
        .fieldChanged, .funnelVersionChanged, .funnelPaywallAdded, .funnelPaywallRemoved, .offeringChanged,
    ]

    @Test func randomFunnelsAndMutatedCopies() {
        var generator = SplitMix64(seed: 0xF0_11E1)
        var kinds: Set<ChangeKind> = []
        var compared = 0
        for round in 0..<400 {
            let old = RandomFunnel(generator: &generator)
            var new = old
            for _ in 0...Int.random(in: 0...4, using: &generator) { new.mutate(using: &generator) }
            let text = Snap.file(
                Snap.entry("a", #""funnel":\#(old.json(id: "f"))"#) + "," + Snap.entry("b", #""funnel":\#(new.json(id: "g"))"#))
            let file = FallbackFile(text: text)
            let funnels = Self.funnels(in: file)
            guard funnels.count == 2 else { continue }
            for (from, to) in [(funnels[0], funnels[1]), (funnels[1], funnels[0])] {
                let full = SnapshotDiff.funnelChanges(from: from.funnel, to: to.funnel, in: file, placementKey: "b", variantId: nil)
                kinds.formUnion(full.map(\.kind))
                Self.check(from.funnel, to.funnel, in: file, key: "b", variantId: round % 2 == 0 ? nil : "v", "round \(round): \(text)")
                compared += 1
            }
        }
        #expect(compared > 600)
        #expect(Self.expectedKinds.subtracting(kinds).isEmpty, "not reached: \(Self.expectedKinds.subtracting(kinds))")
    }

    /// Hostile pairs: duplicate page ids, options and rules; values that differ in more places than
    /// one change lists; array-form pages; deep nesting.
    @Test func hostilePairs() {
        let many = (0..<40).map { String($0) }.joined(separator: ",")
        let manyChanged = (0..<40).map { String($0 * 7) }.joined(separator: ",")
        let deep = String(repeating: #"{"a":"#, count: 60) + "1" + String(repeating: "}", count: 60)
        let deepChanged = String(repeating: #"{"a":"#, count: 60) + "2" + String(repeating: "}", count: 60)
        let pairs: [([String], [String])] = [
            ([Snap.page("p1"), Snap.page("p1", "statement", #""title":"x""#)], [Snap.page("p1", "statement", #""title":"y""#), Snap.page("p1")]),
            ([Snap.page("p1", "statement", #""extra":[\#(many)]"#)], [Snap.page("p1", "statement", #""extra":[\#(manyChanged)]"#)]),
            ([Snap.page("p1", "statement", #""extra":\#(deep)"#)], [Snap.page("p1", "statement", #""extra":\#(deepChanged)"#)]),
            (
                [Snap.page("p1", "single_choice", #""question_id":"q","options":[{"label":"A","value":"a"},{"label":"A2","value":"a"}]"#)],
                [Snap.page("p1", "single_choice", #""question_id":"q","options":[{"label":"B","value":"a"},{"label":"A","value":"b"}]"#)]
            ),
            (
                [Snap.page("p1", "statement", #""next_rules":[\#(Snap.rule("r", goto: "p2")),\#(Snap.rule("r", goto: "p3"))]"#), Snap.page("p2"), Snap.page("p3")],
                [Snap.page("p1", "statement", #""next_rules":[\#(Snap.rule("r", goto: "p3"))],"default_next":"p2""#), Snap.page("p3"), Snap.page("p2")]
            ),
            ([#"["p1","statement"]"#, Snap.page("p2")], [#"["p1","welcome"]"#, #"["p2","statement"]"#]),
            ([Snap.page("p1", "paywall", #""paywallId":"pw""#)], [Snap.page("p1", "paywall", #""paywallId":"gone""#)]),
            ([Snap.page("é\u{301}"), Snap.page("\u{E9}")], [Snap.page("\u{E9}"), Snap.page("e\u{301}")]),
        ]
        for (index, (oldPages, newPages)) in pairs.enumerated() {
            let text = Snap.file(
                Snap.entry("a", #""funnel":{"id":"f","slug":"f","paywalls":{"pw":\#(Snap.paywall())},"pages":[\#(oldPages.joined(separator: ","))]}"#)
                    + "," + Snap.entry("b", #""funnel":{"id":"g","slug":"g","pages":[\#(newPages.joined(separator: ","))]}"#))
            let file = FallbackFile(text: text)
            let funnels = Self.funnels(in: file)
            guard funnels.count == 2 else {
                // A pair the decoder skips compares nothing; say which, so that the list stays useful.
                Issue.record("pair \(index) does not decode: \(text)")
                continue
            }
            Self.check(funnels[0].funnel, funnels[1].funnel, in: file, key: "b", variantId: "v", "pair \(index)")
            Self.check(funnels[1].funnel, funnels[0].funnel, in: file, key: "a", variantId: nil, "pair \(index) reversed")
        }
    }
}

/// A funnel written field by field, that mutations change one field, page, option or rule at a time.
private struct RandomFunnel {
    typealias Fields = [(name: String, json: String)]
    var fields: Fields
    var pages: [Fields]
    var paywalls: [String]
    /// Which offering the paywalls sell (a mutation changes it).
    var offering = 0

    static let words = ["plan", "goal", "Start", "weiter", "é", "<b>", "a&b", "  ", "fin", "\\\"q\\\"", "week"]

    static func text<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let words = (0...Int.random(in: 0...3, using: &generator)).map { _ in Self.words.randomElement(using: &generator)! }
        return "\"" + words.joined(separator: " ") + "\""
    }

    /// Plain or per locale.
    static func localized<G: RandomNumberGenerator>(using generator: inout G) -> String {
        switch Int.random(in: 0...2, using: &generator) {
        case 0: text(using: &generator)
        case 1: #"{"en":\#(text(using: &generator)),"de":\#(text(using: &generator))}"#
        default: #"{"de":\#(text(using: &generator))}"#
        }
    }

    static func page<G: RandomNumberGenerator>(_ id: String, pageCount: Int, using generator: inout G) -> Fields {
        let type = ["welcome", "statement", "single_choice", "paywall"].randomElement(using: &generator)!
        var fields: Fields = [("id", "\"\(id)\""), ("type", "\"\(type)\"")]
        for name in ["title", "subtitle", "cta"] where Bool.random(using: &generator) {
            fields.append((name, localized(using: &generator)))
        }
        if Bool.random(using: &generator) { fields.append(("benefits", #"[\#(text(using: &generator)),\#(text(using: &generator))]"#)) }
        if type == "single_choice" {
            fields.append(("question_id", "\"q\(id)\""))
            fields.append(("options", options(using: &generator)))
        }
        if type == "paywall" { fields.append(("paywallId", ["\"pw\"", "\"pw2\"", "\"none\"", "\"\""].randomElement(using: &generator)!)) }
        if Bool.random(using: &generator) { fields.append(("next_rules", rules(pageCount: pageCount, using: &generator))) }
        if Bool.random(using: &generator) { fields.append(("default_next", "\"p\(Int.random(in: 0..<pageCount, using: &generator))\"")) }
        if Bool.random(using: &generator) { fields.append(("imageUrl", "\"https://cdn/\(Int.random(in: 0...3, using: &generator)).png\"")) }
        if Bool.random(using: &generator) { fields.append(("layout", nested(using: &generator))) }
        return fields
    }

    static func options<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let values = ["a", "b", "c", "d"].shuffled(using: &generator).prefix(Int.random(in: 0...4, using: &generator))
        return "[" + values.map { #"{"label":\#(localized(using: &generator)),"value":"\#($0)"}"# }.joined(separator: ",") + "]"
    }

    static func rules<G: RandomNumberGenerator>(pageCount: Int, using generator: inout G) -> String {
        let ids = ["r1", "r2", "r3"].shuffled(using: &generator).prefix(Int.random(in: 0...3, using: &generator))
        return "["
            + ids.map { id in
                Snap.rule(
                    id, goto: "p\(Int.random(in: 0..<pageCount, using: &generator))",
                    clauses: Bool.random(using: &generator) ? Snap.clause("q1", "eq", "\"\(Int.random(in: 0...2, using: &generator))\"") : "")
            }.joined(separator: ",") + "]"
    }

    /// An object with a few levels and arrays, so that differences nest.
    static func nested<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let numbers = (0..<Int.random(in: 0...16, using: &generator)).map { _ in String(Int.random(in: 0...3, using: &generator)) }
        return #"{"grid":[\#(numbers.joined(separator: ","))],"mediaUrl":"m\#(Int.random(in: 0...1, using: &generator))","#
            + #""colors":{"primary":"c\#(Int.random(in: 0...2, using: &generator))","n":\#(["1", "1.0", "10e-1", "2"].randomElement(using: &generator)!)}}"#
    }

    init<G: RandomNumberGenerator>(generator: inout G) {
        let count = Int.random(in: 1...6, using: &generator)
        pages = (0..<count).map { Self.page("p\($0)", pageCount: count, using: &generator) }
        fields = [("slug", "\"s\"")]
        if Bool.random(using: &generator) { fields.append(("versionNo", String(Int.random(in: 1...3, using: &generator)))) }
        if Bool.random(using: &generator) { fields.append(("theme", Self.nested(using: &generator))) }
        if Bool.random(using: &generator) { fields.append(("name", Self.text(using: &generator))) }
        paywalls = ["pw", "pw2"].filter { _ in Bool.random(using: &generator) }
    }

    func json(id: String) -> String {
        func object(_ fields: Fields) -> String { "{" + fields.map { "\"\($0.name)\":\($0.json)" }.joined(separator: ",") + "}" }
        let paywallMap = "{" + paywalls.map { "\"\($0)\":\(paywall($0))" }.joined(separator: ",") + "}"
        return object([("id", "\"\(id)\"")] + fields + [("paywalls", paywallMap), ("pages", "[" + pages.map(object).joined(separator: ",") + "]")])
    }

    func paywall(_ id: String) -> String {
        #"{"id":"\#(id)","identifier":"\#(id)","name":"P","configFormatVersion":1,"remoteConfig":null,"#
            + #""offering":{"identifier":"o\#(offering)","isDefault":true,"packages":[]}}"#
    }

    mutating func mutate<G: RandomNumberGenerator>(using generator: inout G) {
        let count = pages.count
        switch Int.random(in: 0...12, using: &generator) {
        case 0: pages.append(Self.page("p\(count + Int.random(in: 0...2, using: &generator))", pageCount: count + 1, using: &generator))
        case 1 where count > 1: pages.remove(at: Int.random(in: 0..<count, using: &generator))
        case 2 where count > 1: pages.swapAt(Int.random(in: 0..<count, using: &generator), Int.random(in: 0..<count, using: &generator))
        case 3: paywalls = paywalls.contains("pw") ? paywalls.filter { $0 != "pw" } : paywalls + ["pw"]
        case 4: paywalls = paywalls.contains("pw2") ? paywalls.filter { $0 != "pw2" } : ["pw2"] + paywalls
        case 5: fields.append(("versionNo", String(Int.random(in: 4...9, using: &generator))))
        case 6: fields = fields.filter { $0.name != "theme" } + [("theme", Self.nested(using: &generator))]
        case 7: offering += 1
        default:
            // Replace, drop or add one field of one page.
            let index = Int.random(in: 0..<count, using: &generator)
            let fresh = Self.page(pages[index].first { $0.name == "id" }.map { String($0.json.dropFirst().dropLast()) } ?? "p0", pageCount: count, using: &generator)
            let pick = fresh.filter { $0.name != "id" }.randomElement(using: &generator)
            var page = pages[index]
            if let pick, let position = page.firstIndex(where: { $0.name == pick.name }) {
                if Bool.random(using: &generator) { page[position] = pick } else { page.remove(at: position) }
            } else if let pick {
                page.append(pick)
            }
            pages[index] = page
        }
    }
}
