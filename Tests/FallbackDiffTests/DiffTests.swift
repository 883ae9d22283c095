import FallbackAudit
import FallbackDiff
import Foundation
import RovenueFallback
import Testing
import FallbackTestSupport

private func diff(_ old: String, _ new: String) -> SnapshotDiff {
    SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))
}

private let examplesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")

private func example(_ release: String) throws -> FallbackFile {
    let name = try #require(
        try FileManager.default.contentsOfDirectory(atPath: examplesFolder.path).first { $0.hasSuffix("-release-\(release).json") })
    return FallbackFile(bytes: [UInt8](try Data(contentsOf: examplesFolder.appendingPathComponent(name))))
}

/// `class kind placement` and the ids and field the change is under, in one line.
private func line(_ change: Change) -> String {
    ([change.changeClass.rawValue, change.kind.rawValue, change.placementKey ?? "-"]
        + [change.variantId, change.funnelId, change.paywallId, change.pageId, change.field].compactMap { $0 }).joined(separator: " ")
}

/// Small builders on top of `Snap`.
private enum Diff {
    static let paywallWithOffering =
        #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"#
        + #""offering":{"identifier":"default","isDefault":true,"packages":[{"packageIdentifier":"$rov_annual","identifier":"annual","#
        + #""type":"ANNUAL","displayName":"Annual","storeIds":{"apple":"a.annual","google":null}}]}}"#

    /// A paywall whose offering has a package for each of `packages` (`$id`, displayed as the id in capitals).
    static func paywall(packages: [String]) -> String {
        let listed = packages.map { id in
            #"{"packageIdentifier":"$\#(id)","identifier":"\#(id)","type":"CUSTOM","displayName":"\#(id.uppercased())","storeIds":{"apple":"a.\#(id)","google":null}}"#
        }
        return #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"#
            + #""offering":{"identifier":"default","isDefault":true,"packages":[\#(listed.joined(separator: ","))]}}"#
    }

    static func experiment(key: String = "k", _ variants: String...) -> String {
        Snap.file(Snap.entry("a", #""experiment":{"id":"exp","key":"\#(key)","variants":[\#(variants.joined(separator: ","))]}"#))
    }

    static func funnel(paywalls: String = #"{"pw":\#(Snap.paywall())}"#, _ pages: String...) -> String {
        Snap.funnelFile(extra: #""paywalls":\#(paywalls),"#, pages)
    }

    static let welcome = Snap.page("p1", "welcome", #""title":{"en":"Hi","de":"Hallo"}"#)
    static let question = Snap.page("p2", "single_choice", #""question_id":"goal",\#(Snap.options)"#)
    static let paywallPage = Snap.page("p3", "paywall", #""paywallId":"pw""#)
}

/// Two snapshots and the changes expected between them, as `line(_:)` writes them.
struct DiffCase: Sendable, CustomTestStringConvertible {
    let label: String
    let old: String
    let new: String
    let expected: [String]

    init(_ label: String, _ old: String, _ new: String, _ expected: [String]) {
        self.label = label
        self.old = old
        self.new = new
        self.expected = expected
    }

    var testDescription: String { label }
}

@Suite("Diff: one case per change kind")
struct DiffKindTests {
    static let cases: [DiffCase] = [
        DiffCase(
            "file-rejected (new)", Snap.paywallFile, #"{"formatVersion":2,"placements":{}}"#, ["breaking file-rejected -"]),
        DiffCase("file-rejected (old)", "[1,{},3]", Snap.paywallFile, ["breaking file-rejected -"]),
        DiffCase(
            "project-changed", Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#), projectId: #""proj_live""#),
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#), projectId: #""proj_staging""#),
            ["breaking project-changed - projectId"]),
        DiffCase(
            "placement-removed",
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#) + "," + Snap.entry("b", #""paywall":\#(Snap.paywall())"#)),
            Snap.paywallFile, ["breaking placement-removed b"]),
        DiffCase(
            "entry-now-skipped", Snap.paywallFile,
            Snap.file(#""a":{"placement":{"identifier":"a","revision":"2"},"paywall":\#(Snap.paywall())}"#),
            ["breaking entry-now-skipped a"]),
        DiffCase(
            "paywall-unreachable-offline", Diff.funnel(Diff.welcome, Diff.question, Diff.paywallPage),
            Diff.funnel(paywalls: "{}", Diff.welcome, Diff.question, Diff.paywallPage),
            ["breaking paywall-unreachable-offline onb f p3 paywallId", "info funnel-paywall-removed onb f pw paywalls.pw"]),
        DiffCase(
            "generated-earlier", Snap.file("", generatedAt: "1764400000000"), Snap.file("", generatedAt: "1764300000000"),
            ["notable generated-earlier - generatedAt"]),
        DiffCase(
            "placement-added", Snap.paywallFile,
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#) + "," + Snap.entry("b", #""paywall":\#(Snap.paywall())"#)),
            ["notable placement-added b"]),
        DiffCase(
            "entry-now-loads", Snap.file(#""a":{"placement":{"identifier":"a","revision":"2"},"paywall":\#(Snap.paywall())}"#),
            Snap.paywallFile, ["notable entry-now-loads a"]),
        DiffCase(
            "target-changed", Snap.paywallFile, Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall("pw2"))"#)),
            ["notable target-changed a"]),
        DiffCase(
            "identifier-changed", Snap.paywallFile,
            Snap.file(#""a":{"placement":{"identifier":"a_v2","revision":1},"paywall":\#(Snap.paywall())}"#),
            ["notable identifier-changed a placement.identifier"]),
        DiffCase(
            "experiment-started", Snap.paywallFile, Diff.experiment(Snap.variant("pw", "0.5"), Snap.variant("other", "0.5")),
            ["notable target-changed a", "notable experiment-started a"]),
        DiffCase(
            "experiment-ended", Diff.experiment(Snap.variant("pw", "0.5"), Snap.variant("other", "0.5")), Snap.paywallFile,
            ["notable target-changed a", "notable experiment-ended a"]),
        DiffCase(
            "experiment-key-changed", Diff.experiment(key: "k1", Snap.variant("x", "0.5"), Snap.variant("y", "0.5")),
            Diff.experiment(key: "k2", Snap.variant("x", "0.5"), Snap.variant("y", "0.5")),
            ["notable experiment-key-changed a experiment.key"]),
        DiffCase(
            "variant-removed", Diff.experiment(Snap.variant("x", "0.5"), Snap.variant("y", "0.5")), Diff.experiment(Snap.variant("x", "1")),
            ["notable variant-removed a y", "notable weights-changed a experiment.variants"]),
        DiffCase(
            "variant-added", Diff.experiment(Snap.variant("x", "1")), Diff.experiment(Snap.variant("x", "0.5"), Snap.variant("y", "0.5")),
            ["notable variant-added a y", "notable weights-changed a experiment.variants"]),
        DiffCase(
            "variant target-changed", Diff.experiment(Snap.variant("x", "1")),
            Diff.experiment(#"{"variantId":"x","weight":1,"paywall":\#(Snap.paywall("other"))}"#), ["notable target-changed a x"]),
        DiffCase(
            "weights-changed", Diff.experiment(Snap.variant("x", "0.5"), Snap.variant("y", "0.5")),
            Diff.experiment(Snap.variant("x", "0.6"), Snap.variant("y", "0.4")), ["notable weights-changed a experiment.variants"]),
        DiffCase(
            "page-added", Diff.funnel(Diff.welcome, Diff.paywallPage), Diff.funnel(Diff.welcome, Diff.question, Diff.paywallPage),
            ["notable page-added onb f p2"]),
        DiffCase(
            "page-removed", Diff.funnel(Diff.welcome, Diff.question, Diff.paywallPage), Diff.funnel(Diff.welcome, Diff.paywallPage),
            ["notable page-removed onb f p2"]),
        DiffCase(
            "pages-reordered", Diff.funnel(Diff.welcome, Diff.question, Diff.paywallPage),
            Diff.funnel(Diff.question, Diff.welcome, Diff.paywallPage), ["notable pages-reordered onb f pages"]),
        DiffCase(
            "rule-changed (next_rules)",
            Diff.funnel(Snap.page("p1", "welcome", #""next_rules":[\#(Snap.rule("r1", goto: "p3"))]"#), Diff.question, Diff.paywallPage),
            Diff.funnel(Snap.page("p1", "welcome", #""next_rules":[\#(Snap.rule("r1", goto: "p2"))]"#), Diff.question, Diff.paywallPage),
            [#"notable rule-changed onb f p1 next_rules[id="r1"].goto"#]),
        DiffCase(
            "rule-changed (default_next)",
            Diff.funnel(Snap.page("p1", "welcome", #""default_next":"p3""#), Diff.question, Diff.paywallPage),
            Diff.funnel(Snap.page("p1", "welcome", #""default_next":"end""#), Diff.question, Diff.paywallPage),
            ["notable rule-changed onb f p1 default_next"]),
        DiffCase(
            "page-paywall-changed", Diff.funnel(paywalls: #"{"pw":\#(Snap.paywall()),"pw2":\#(Snap.paywall("pw2"))}"#, Diff.paywallPage),
            Diff.funnel(
                paywalls: #"{"pw":\#(Snap.paywall()),"pw2":\#(Snap.paywall("pw2"))}"#, Snap.page("p3", "paywall", #""paywallId":"pw2""#)),
            ["notable page-paywall-changed onb f p3 paywallId"]),
        DiffCase(
            "paywall-reachable-offline", Diff.funnel(paywalls: "{}", Diff.welcome, Diff.paywallPage),
            Diff.funnel(Diff.welcome, Diff.paywallPage),
            ["notable paywall-reachable-offline onb f p3 paywalls", "info funnel-paywall-added onb f pw paywalls.pw"]),
        DiffCase(
            "revision-changed", Snap.paywallFile,
            Snap.file(#""a":{"placement":\#(Snap.placement("a", revision: "2")),"paywall":\#(Snap.paywall())}"#),
            ["info revision-changed a placement.revision"]),
        DiffCase(
            "funnel-version-changed", Snap.funnelFile(extra: #""versionNo":1,"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage]),
            Snap.funnelFile(extra: #""versionNo":2,"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage]),
            ["info funnel-version-changed onb f versionNo"]),
        DiffCase(
            "copy-changed", Diff.funnel(Diff.welcome, Diff.paywallPage),
            Diff.funnel(Snap.page("p1", "welcome", #""title":{"en":"Hello","de":"Hallo"}"#), Diff.paywallPage),
            ["info copy-changed onb f p1 title"]),
        DiffCase(
            "copy-changed (option label)", Diff.funnel(Diff.question, Diff.paywallPage),
            Diff.funnel(
                Snap.page("p2", "single_choice", #""question_id":"goal","options":[{"label":"A!","value":"a"},{"label":"B","value":"b"}]"#),
                Diff.paywallPage),
            [#"info copy-changed onb f p2 options[value="a"].label"#]),
        DiffCase(
            "options-changed", Diff.funnel(Diff.question, Diff.paywallPage),
            Diff.funnel(
                Snap.page(
                    "p2", "single_choice",
                    #""question_id":"goal","options":[{"label":"A","value":"a"},{"label":"B","value":"b"},{"label":"C","value":"c"}]"#),
                Diff.paywallPage),
            [#"info options-changed onb f p2 options[value="c"]"#]),
        DiffCase(
            "media-changed", Diff.funnel(Snap.page("p1", "info", #""mediaUrl":"https://cdn.example.com/a.png""#), Diff.paywallPage),
            Diff.funnel(Snap.page("p1", "info", #""mediaUrl":"https://cdn.example.com/b.png""#), Diff.paywallPage),
            ["info media-changed onb f p1 mediaUrl"]),
        DiffCase(
            "media-changed (option image)",
            Diff.funnel(
                Snap.page("p2", "picture_choice", #""question_id":"q","options":[{"label":"A","value":"a","imageUrl":"https://x/a.png"}]"#)),
            Diff.funnel(
                Snap.page("p2", "picture_choice", #""question_id":"q","options":[{"label":"A","value":"a","imageUrl":"https://x/b.png"}]"#)),
            [#"info media-changed onb f p2 options[value="a"].imageUrl"#]),
        DiffCase(
            "funnel-paywall-added", Diff.funnel(Diff.paywallPage),
            Diff.funnel(paywalls: #"{"pw":\#(Snap.paywall()),"pw2":\#(Snap.paywall("pw2"))}"#, Diff.paywallPage),
            ["info funnel-paywall-added onb f pw2 paywalls.pw2"]),
        DiffCase(
            "funnel-paywall-removed", Diff.funnel(paywalls: #"{"pw":\#(Snap.paywall()),"pw2":\#(Snap.paywall("pw2"))}"#, Diff.paywallPage),
            Diff.funnel(Diff.paywallPage), ["info funnel-paywall-removed onb f pw2 paywalls.pw2"]),
        DiffCase(
            "offering-changed", Snap.file(Snap.entry("a", #""paywall":\#(Diff.paywallWithOffering)"#)),
            Snap.file(Snap.entry("a", #""paywall":\#(Diff.paywallWithOffering.replacing(#""Annual""#, with: #""Yearly""#))"#)),
            [#"info offering-changed a pw offering.packages[packageIdentifier="$rov_annual"].displayName"#]),
        DiffCase(
            "offering-changed (packages paired by identifier: one changed, one added, one removed)",
            Snap.file(Snap.entry("a", #""paywall":\#(Diff.paywall(packages: ["a", "b", "c", "d"]))"#)),
            Snap.file(Snap.entry("a", #""paywall":\#(Diff.paywall(packages: ["a", "c", "d", "e"]).replacing(#""C""#, with: #""Cee""#))"#)),
            [
                #"info offering-changed a pw offering.packages[packageIdentifier="$c"].displayName"#,
                #"info offering-changed a pw offering.packages[packageIdentifier="$e"]"#,
                #"info offering-changed a pw offering.packages[packageIdentifier="$b"]"#,
            ]),
        DiffCase(
            "field-changed (paywall)", Snap.paywallFile,
            Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall().replacing(#""name":"P""#, with: #""name":"Q""#))"#)),
            ["info field-changed a pw name"]),
        DiffCase(
            "field-changed (page)", Diff.funnel(Snap.page("p2", "single_choice", #""question_id":"goal","required":true"#)),
            Diff.funnel(Snap.page("p2", "single_choice", #""question_id":"goal","required":false"#)),
            ["info field-changed onb f p2 required"]),
        DiffCase(
            "field-changed (projectId removed)", Snap.file("", projectId: #""proj_1""#), Snap.file("", projectId: "null"),
            ["info field-changed - projectId"]),
        DiffCase(
            "skipped-entry-removed", Snap.file(#""a":{"placement":{"identifier":"a","revision":"2"},"paywall":\#(Snap.paywall())}"#),
            Snap.file(""), ["info skipped-entry-removed a"]),
        DiffCase(
            "entry-still-skipped", Snap.file(#""a":{"placement":{"identifier":"a","revision":"2"},"paywall":\#(Snap.paywall())}"#),
            Snap.file(#""a":{"placement":{"identifier":"a","revision":"3"},"paywall":\#(Snap.paywall())}"#),
            ["info entry-still-skipped a"]),
    ]

    @Test(arguments: cases)
    func reportsTheKind(_ item: DiffCase) {
        let result = diff(item.old, item.new)
        #expect(result.changes.map(line) == item.expected, "\(result.changes.map(\.description))")
    }

    @Test func everyKindHasACase() {
        let covered = Set(Self.cases.flatMap { $0.expected.map { $0.split(separator: " ")[1] } }.map(String.init))
        #expect(covered == Set(ChangeKind.allCases.map(\.id)))
    }

    @Test func kindsHaveTheClassesTheIssueGives() {
        let breaking: Set<ChangeKind> = [.fileRejected, .projectChanged, .placementRemoved, .entryNowSkipped, .paywallUnreachableOffline]
        for kind in ChangeKind.allCases {
            if breaking.contains(kind) { #expect(kind.changeClass == .breaking) } else { #expect(kind.changeClass != .breaking, "\(kind)") }
        }
        for kind: ChangeKind in [
            .targetChanged, .experimentStarted, .experimentEnded, .variantRemoved, .weightsChanged, .pageAdded, .pageRemoved, .ruleChanged,
        ] {
            #expect(kind.changeClass == .notable)
        }
        for kind: ChangeKind in [.copyChanged, .optionsChanged, .mediaChanged, .fieldChanged, .revisionChanged] {
            #expect(kind.changeClass == .info)
        }
        #expect(ChangeClass.info < .notable && ChangeClass.notable < .breaking)
    }
}

@Suite("Diff: what is not a change, locations, values and order")
struct DiffBehaviourTests {
    @Test func identicalSnapshotsHaveNoChanges() throws {
        let file = try example("3.2")
        let result = SnapshotDiff(old: file, new: file)
        #expect(result.changes.isEmpty)
        #expect(result.rebucketing.isEmpty)
        #expect(result.mostSevereClass == nil)
        #expect(!result.reaches(.info))
    }

    @Test("Member order, whitespace, null for absent and a number's spelling change nothing")
    func equivalentSpellings() {
        let old =
            #"{"formatVersion":1,"generatedAt":1764400000000,"projectId":"proj_1","placements":{"a":{"placement":{"identifier":"a","revision":1},"experiment":{"id":"exp","key":"k","variants":[{"variantId":"x","weight":0.5,"paywall":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":{"locale":"en","data":{"a":1,"b":2}},"offering":null}},{"variantId":"y","weight":0.5,"paywall":{"id":"pw2","identifier":"pw2","name":"P","configFormatVersion":1,"offering":null}}]}}}}"#
        let new = """
            {"placements": {"a": {"experiment": {"key": "k", "id": "exp", "variants": [
                {"weight": 0.50, "variantId": "x", "paywall": {"remoteConfig": {"data": {"b": 2, "a": 1}, "locale": "en"}, "id": "pw",
                 "identifier": "pw", "name": "P", "configFormatVersion": 1, "builderConfig": null}},
                {"variantId": "y", "weight": 5e-1, "paywall": {"id": "pw2", "identifier": "pw2", "name": "P", "configFormatVersion": 1,
                 "offering": null, "remoteConfig": null}}]},
              "placement": {"revision": 1, "identifier": "a"}, "funnel": null}},
             "projectId": "proj_1", "generatedAt": 1764400000000, "formatVersion": 1}
            """
        #expect(diff(old, new).changes.map(line) == [])
    }

    @Test func theArrayQuirkReadsAsTheObjectItStandsFor() {
        let old = Snap.file(Snap.entry("a", #""paywall":\#(Snap.paywall())"#))
        let new = Snap.file(#""a":[{"identifier":"a","revision":1},["pw","pw","Q",1,null,null,null]]"#)
        #expect(diff(old, new).changes.map(line) == ["info field-changed a pw name"])
    }

    @Test func fieldChangesCarryValuesAndPointersIntoBothSnapshots() throws {
        let old = Diff.funnel(Diff.welcome, Diff.paywallPage)
        let new = Diff.funnel(Snap.page("p1", "welcome", #""title":{"en":"Hello","de":"Hallo"}"#), Diff.paywallPage)
        let change = try #require(diff(old, new).changes.first)
        #expect(change.oldValue == #"{"en":"Hi","de":"Hallo"}"#)
        #expect(change.newValue == #"{"en":"Hello","de":"Hallo"}"#)
        #expect(change.oldLocation?.pointer == "/placements/onb/funnel/pages/0/title")
        #expect(change.newLocation?.pointer == "/placements/onb/funnel/pages/0/title")
        #expect(change.pointer == "/placements/onb/funnel/pages/0/title")
        #expect(change.oldLocation?.line == 1)
        #expect(change.message.contains(#"page "p1""#))
    }

    @Test func longValuesAreShortened() throws {
        let long = String(repeating: "x", count: 300)
        let old = Diff.funnel(Snap.page("p1", "welcome", #""title":"a""#))
        let new = Diff.funnel(Snap.page("p1", "welcome", #""title":"\#(long)""#))
        let change = try #require(diff(old, new).changes.first)
        #expect(change.newValue?.count == 121)
        #expect(change.newValue?.hasSuffix("…") == true)
    }

    @Test func manyValuesUnderOneFieldBecomeOneChange() throws {
        let theme = { (color: String) in
            "{" + (0..<20).map { #""c\#($0)":"\#(color)""# }.joined(separator: ",") + "}"
        }
        let old = Snap.funnelFile(extra: #""theme":\#(theme("black")),"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage])
        let new = Snap.funnelFile(extra: #""theme":\#(theme("white")),"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage])
        let changes = diff(old, new).changes
        #expect(changes.map(line) == ["info field-changed onb f theme"])
        #expect(changes.first?.message.contains("20 values changed") == true)
        let fewer = Snap.funnelFile(
            extra: #""theme":{"c0":"white","logoUrl":"https://x/b.png"},"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage])
        let before = Snap.funnelFile(
            extra: #""theme":{"c0":"black","logoUrl":"https://x/a.png"},"paywalls":{"pw":\#(Snap.paywall())},"#, [Diff.paywallPage])
        #expect(diff(before, fewer).changes.map(line) == ["info media-changed onb f theme.logoUrl", "info field-changed onb f theme.c0"])
    }

    @Test func aPaywallPageThatWasAlreadyBrokenIsNotNewlyBroken() {
        let old = Diff.funnel(paywalls: "{}", Diff.welcome, Diff.paywallPage)
        let new = Diff.funnel(paywalls: "{}", Snap.page("p1", "welcome", #""title":"Hey""#), Diff.paywallPage)
        #expect(diff(old, new).changes.map(line) == ["info copy-changed onb f p1 title"])
    }

    @Test func aNewPlacementWithABrokenPaywallPageIsBreaking() {
        let new = Snap.file(
            Snap.entry("a", #""paywall":\#(Snap.paywall())"#) + ","
                + Snap.entry("onb", #""funnel":{"id":"f","slug":"f","paywalls":{},"pages":[\#(Diff.paywallPage)]}"#))
        let result = diff(Snap.paywallFile, new)
        #expect(result.changes.map(line) == ["breaking paywall-unreachable-offline onb f p3 paywallId", "notable placement-added onb"])
        #expect(result.changes[0].message.contains("cannot show its paywall"))
    }

    @Test func aFunnelMovingFromAVariantToTheEntryIsMatchedById() {
        let funnel = { (title: String) in
            #"{"id":"f","slug":"f","paywalls":{"pw":\#(Snap.paywall())},"pages":[\#(Snap.page("p1", "welcome", #""title":"\#(title)""#))]}"#
        }
        let old = Diff.experiment(#"{"variantId":"x","weight":0.5,"funnel":\#(funnel("A"))}"#, Snap.variant("y", "0.5"))
        let new = Snap.file(Snap.entry("a", #""funnel":\#(funnel("B"))"#))
        #expect(
            diff(old, new).changes.map(line) == [
                "notable target-changed a", "notable experiment-ended a", "info copy-changed a f p1 title",
            ])
    }

    @Test func aRejectedSnapshotStopsTheComparisonAtTheFile() throws {
        let result = diff(Snap.paywallFile, #"{"formatVersion":1,"placements":{"a":1e400}}"#)
        #expect(result.changes.map(line) == ["breaking file-rejected -"])
        #expect(result.hasRejectedSnapshot)
        #expect(result.new.isRejected)
        #expect(result.changes[0].newLocation?.pointer == "/placements/a")
        #expect(result.changes[0].message.contains("§2 rule 5"))
    }

    @Test func changesComeMostSevereFirstThenByPlacementThenKind() {
        let old = Snap.file(
            [
                Snap.entry("b", #""paywall":\#(Snap.paywall())"#), Snap.entry("c", #""paywall":\#(Snap.paywall())"#),
                #""d":{"placement":\#(Snap.placement("d")),"paywall":\#(Snap.paywall())}"#,
            ].joined(separator: ","), projectId: #""p1""#)
        let new = Snap.file(
            [
                #""d":{"placement":\#(Snap.placement("d", revision: "2")),"paywall":\#(Snap.paywall("pw9"))}"#,
                Snap.entry("a", #""paywall":\#(Snap.paywall())"#), Snap.entry("b", #""paywall":\#(Snap.paywall("q"))"#),
            ].joined(separator: ","), projectId: #""p2""#)
        let lines = diff(old, new).changes.map(line)
        #expect(
            lines == [
                "breaking project-changed - projectId", "breaking placement-removed c", "notable placement-added a",
                "notable target-changed b", "notable target-changed d", "info revision-changed d placement.revision",
            ])
        #expect(diff(old, new).changes == diff(old, new).changes)
    }
}

// MARK: - Re-bucketing against a brute-force count

/// The contract's §5 draw, written here from its words: walk the variants in order adding
/// `weight * 10000` in 64-bit floats; the first variant with `bucket < round(cum)` (half away from
/// zero) wins; if none does, the last one.
private func drawnVariant(bucket: Int, weights: [Double]) -> Int {
    var cum = 0.0
    for (index, weight) in weights.enumerated() {
        cum += weight * 10000
        if Double(bucket) < cum.rounded(.toNearestOrAwayFromZero) { return index }
    }
    return weights.count - 1
}

/// Subscribers (buckets) whose drawn variant id differs between two splits, counted one by one.
private func bruteForceMoved(old: [(String, Double)], new: [(String, Double)]) -> Int {
    (0..<10000).count { bucket in
        old[drawnVariant(bucket: bucket, weights: old.map(\.1))].0 != new[drawnVariant(bucket: bucket, weights: new.map(\.1))].0
    }
}

struct Split: Sendable, CustomTestStringConvertible {
    let old: [(String, Double)]
    let new: [(String, Double)]
    var testDescription: String {
        let text = { (split: [(String, Double)]) in split.map { "\($0.0)=\($0.1)" }.joined(separator: ",") }
        return "\(text(old)) → \(text(new))"
    }
}

@Suite("Diff: re-bucketing is exact")
struct RebucketingTests {
    private static func snapshot(_ split: [(String, Double)]) -> String {
        Diff.experiment(key: "exp_q8Zt4mWp2c", split.map { Snap.variant($0.0, "\($0.1)") }.joined(separator: ","))
    }

    @Test(arguments: [
        Split(old: [("a", 0.5), ("b", 0.5)], new: [("a", 0.34), ("b", 0.33), ("c", 0.33)]),
        Split(old: [("a", 0.5), ("b", 0.5)], new: [("b", 0.5), ("a", 0.5)]),
        Split(old: [("a", 0.1), ("b", 0.2), ("c", 0.7)], new: [("a", 0.7), ("b", 0.2), ("c", 0.1)]),
        Split(old: [("a", 0.33335), ("b", 0.33335), ("c", 0.3333)], new: [("a", 0.5), ("c", 0.5)]),
        Split(old: [("a", 0.3), ("b", 0.3)], new: [("a", 0.3), ("b", 0.3), ("c", 0)]),
        Split(old: [("a", 0.45), ("b", 0.45), ("c", 0.1)], new: [("a", 0.45), ("d", 0.45), ("c", 0.1)]),
        Split(old: [("a", 0.00005), ("b", 0.99995)], new: [("a", 0.00015), ("b", 0.99985)]),
        Split(old: [("a", 1)], new: [("a", 0.25), ("b", 0.25), ("c", 0.25), ("d", 0.25)]),
    ])
    func matchesABruteForceCount(_ split: Split) throws {
        let result = SnapshotDiff(old: FallbackFile(text: Self.snapshot(split.old)), new: FallbackFile(text: Self.snapshot(split.new)))
        let moved = try #require(result.rebucketing.first)
        let expected = bruteForceMoved(old: split.old, new: split.new)
        #expect(moved.movedBuckets == expected)
        #expect(moved.moves.flatMap(\.ranges).reduce(0) { $0 + $1.count } == expected)
        #expect(moved.movedShare == Double(expected) / 10000)
        let weights = result.changes.first { $0.kind == .weightsChanged }
        #expect(weights?.message.contains(moved.description) == true)
    }

    @Test func movesNameTheirBucketsExactly() throws {
        let split = Split(old: [("a", 0.5), ("b", 0.5)], new: [("a", 0.34), ("b", 0.33), ("c", 0.33)])
        let moved = try #require(
            SnapshotDiff(old: FallbackFile(text: Self.snapshot(split.old)), new: FallbackFile(text: Self.snapshot(split.new))).rebucketing
                .first)
        for move in moved.moves {
            for range in move.ranges {
                for bucket in range {
                    #expect(split.old[drawnVariant(bucket: bucket, weights: split.old.map(\.1))].0 == move.from)
                    #expect(split.new[drawnVariant(bucket: bucket, weights: split.new.map(\.1))].0 == move.to)
                }
            }
        }
    }

    @Test("Examples 3.1 → 3.2: 50/50 → 34/33/33 moves 49.0% of subscribers")
    func examplesExperimentGrows() throws {
        let result = SnapshotDiff(old: try example("3.1"), new: try example("3.2"))
        #expect(result.rebucketing.count == 1)
        let moved = try #require(result.rebucketing.first)
        #expect(moved.placementKey == "onboarding")
        #expect(moved.experimentId == "exp_onb_quiz_len")
        #expect(moved.experimentKey == "exp_q8Zt4mWp2c")
        let expected = bruteForceMoved(
            old: [("control", 0.5), ("short_quiz", 0.5)], new: [("control", 0.34), ("short_quiz", 0.33), ("breath_first", 0.33)])
        #expect(expected == 4900)
        #expect(moved.movedBuckets == expected)
        #expect(moved.movedPercent == "49.0%")
        #expect(moved.description == "50/50 → 34/33/33 moves 49.0% of subscribers")
        #expect(moved.moves.map { "\($0.from) → \($0.to)" } == ["control → short_quiz", "short_quiz → breath_first"])
        #expect(moved.moves.map(\.ranges) == [[3400...4999], [6700...9999]])
        let weights = try #require(result.changes.first { $0.kind == .weightsChanged })
        #expect(weights.message.contains("50/50 → 34/33/33 moves 49.0% of subscribers"))
    }

    @Test func aChangedKeyGetsNoExactCount() {
        let old = Diff.experiment(key: "k1", Snap.variant("x", "0.5"), Snap.variant("y", "0.5"))
        let new = Diff.experiment(key: "k2", Snap.variant("x", "0.6"), Snap.variant("y", "0.4"))
        let result = diff(old, new)
        #expect(result.rebucketing.isEmpty)
        #expect(
            result.changes.map(line) == [
                "notable experiment-key-changed a experiment.key", "notable weights-changed a experiment.variants",
            ])
    }
}

// MARK: - The Examples series

@Suite("Diff: the Examples series, as Examples/README.md tells it")
struct ExamplesDiffTests {
    @Test("3.0 → 3.1: funnel edit; an unpublished paywall")
    func release31() throws {
        let result = SnapshotDiff(old: try example("3.0"), new: try example("3.1"))
        #expect(
            result.changes.map(line) == [
                "breaking paywall-unreachable-offline winback fnl_winback pg_paywall paywallId",
                "notable page-added onboarding control fnl_calm_quiz pg_practice_time",
                "notable page-paywall-changed winback fnl_winback pg_paywall paywallId",
                "info funnel-version-changed onboarding control fnl_calm_quiz versionNo",
                "info copy-changed onboarding control fnl_calm_quiz pg_welcome title",
                "info revision-changed spring_sale placement.revision",
                "info funnel-version-changed winback fnl_winback versionNo",
                "info funnel-paywall-removed winback fnl_winback pwl_winback_50 paywalls.pwl_winback_50",
            ])
        let unreachable = result.changes[0]
        #expect(unreachable.message.contains(#""pwl_winback_40""#))
        #expect(unreachable.newLocation?.pointer == "/placements/winback/funnel/pages/3/paywallId")
        let copy = try #require(result.changes.first { $0.kind == .copyChanged })
        #expect(copy.oldValue == #"{"de":"Finde deine Ruhe","en":"Find your calm"}"#)
        #expect(copy.newValue == #"{"de":"In 5 Minuten am Tag ruhiger werden","en":"Feel calmer in 5 minutes a day"}"#)
        #expect(result.changes.first { $0.kind == .pageAdded }?.message.contains(#"after "pg_session_length""#) == true)
        #expect(result.changes.first { $0.kind == .revisionChanged }?.message == "Revision 1 → 2.")
        #expect(result.rebucketing.isEmpty)
    }

    @Test("3.1 → 3.2: experiment grows; branching rule; placement added and removed")
    func release32() throws {
        let result = SnapshotDiff(old: try example("3.1"), new: try example("3.2"))
        #expect(
            result.changes.map(line) == [
                "breaking placement-removed spring_sale",
                "notable variant-added onboarding breath_first",
                "notable weights-changed onboarding experiment.variants",
                #"notable rule-changed sleep_setup fnl_sleep_setup pg_trouble next_rules[id="r_racing"].condition.clauses[question_id="sleep_hours"]"#,
                "notable placement-added streak_rescue",
                "notable paywall-reachable-offline winback fnl_winback pg_paywall paywalls",
                "info revision-changed onboarding placement.revision",
                "info funnel-version-changed sleep_setup fnl_sleep_setup versionNo",
                "info funnel-paywall-added winback fnl_winback pwl_winback_40 paywalls.pwl_winback_40",
            ])
        let rule = try #require(result.changes.first { $0.kind == .ruleChanged })
        #expect(rule.oldValue == nil)
        #expect(rule.newValue == #"{"op":"lt","question_id":"sleep_hours","value":6}"#)
        #expect(result.count(.breaking) == 1 && result.count(.notable) == 5 && result.count(.info) == 3)
    }

    @Test("3.2 → 3.3: hand-patched: alias key and a skipped entry")
    func release33() throws {
        let result = SnapshotDiff(old: try example("3.2"), new: try example("3.3"))
        #expect(
            result.changes.map(line) == [
                "breaking entry-now-skipped trial_ending",
                "notable placement-added onboarding_v2",
                "info revision-changed home_banner placement.revision",
                "info funnel-version-changed onboarding control fnl_calm_quiz versionNo",
                #"info copy-changed onboarding control fnl_calm_quiz pg_practice_time options[value="morning"].label"#,
                #"info copy-changed onboarding control fnl_calm_quiz pg_practice_time options[value="midday"].label"#,
                #"info copy-changed onboarding control fnl_calm_quiz pg_practice_time options[value="evening"].label"#,
                "info copy-changed onboarding control fnl_calm_quiz pg_practice_time title",
            ])
        let skipped = result.changes[0]
        #expect(skipped.message.contains(#"expected an integer, found the string "5""#))
        #expect(skipped.newLocation?.pointer == "/placements/trial_ending/placement/revision")
        let alias = result.changes[1].message
        #expect(alias.contains(#"placement.identifier is "onboarding""#))
        #expect(alias.contains(#"shares experiment key "exp_q8Zt4mWp2c" with "onboarding""#))
    }

    @Test("3.3 → 3.4: experiment concluded; a new experiment that cannot decode")
    func release34() throws {
        let result = SnapshotDiff(old: try example("3.3"), new: try example("3.4"))
        #expect(
            result.changes.map(line) == [
                "breaking placement-removed onboarding_v2",
                "breaking entry-now-skipped paywall_settings",
                "notable target-changed onboarding",
                "notable experiment-ended onboarding",
                "notable entry-now-loads trial_ending",
                "info revision-changed onboarding placement.revision",
                "info funnel-version-changed onboarding fnl_breath_first versionNo",
                "info copy-changed onboarding fnl_breath_first pg_support body",
            ])
        #expect(result.changes[1].message.contains("/placements/paywall_settings/experiment/variants/2"))
        #expect(result.changes[3].message.contains(#"now serves funnel "fnl_breath_first""#))
        #expect(result.changes[3].message.contains("67.0% of subscribers"))
        #expect(result.changes[4].message.contains(#"decodes again (revision 5): it serves paywall "pwl_trial_end_v2""#))
        #expect(result.changes.last?.newValue?.contains("Schwieriger Tag? Probier eine 3-minütige SOS-Einheit") == true)
    }
}

@Suite("Diff: a listing keeps the first changes of each class and every count")
struct DiffListingTests {
    /// Placements that each serve nothing: for each group, `count` keyed `prefix0`, `prefix1`, …
    static func file(_ groups: [(prefix: String, count: Int, revision: Int)]) -> String {
        let entries = groups.flatMap { group in
            (0..<group.count).map { #""\#(group.prefix)\#($0)":{"placement":{"identifier":"\#(group.prefix)\#($0)","revision":\#(group.revision)}}"# }
        }
        return #"{"formatVersion":1,"placements":{\#(entries.joined(separator: ","))}}"#
    }

    @Test(arguments: [0, 1, 3, 4, 5, 7, 1_000])
    func aListingKeepsTheFirstOfEachClassInOrder(limit: Int) {
        // a0..<a6 removed (breaking), b0..<b4 added, k0..<k5 revised.
        let old = Self.file([("a", 6, 1), ("k", 5, 1)])
        let new = Self.file([("b", 4, 1), ("k", 5, 2)])
        let full = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))
        #expect(full.count(.breaking) == 6 && full.count(.notable) + full.count(.info) >= 9, "\(full.changes.map(\.kind))")
        let listed = full.listing(first: limit)
        func name(_ change: Change) -> String { "\(change.placementKey ?? "-") \(change.message)" }
        for changeClass in ChangeClass.allCases {
            #expect(listed.count(changeClass) == full.count(changeClass))
            #expect(listed.changes(changeClass).map(name) == full.changes(changeClass).prefix(limit).map(name))
        }
        // The classes stay in the full diff's order, most severe first.
        let kept = Set(ChangeClass.allCases.flatMap { full.changes($0).prefix(limit).map(name) })
        #expect(listed.changes.map(name) == full.changes.map(name).filter { kept.contains($0) })
        #expect(listed.mostSevereClass == full.mostSevereClass)
        #expect(listed.reaches(.breaking) && listed.reaches(.notable))
        #expect(listed.rebucketing.count == full.rebucketing.count && listed.old == full.old && listed.new == full.new)
        // Listed only when some class has more changes than the limit; listing again keeps the counts.
        #expect(listed.isListed == ChangeClass.allCases.contains { full.count($0) > limit } && !full.isListed)
        let again = listed.listing(first: max(limit - 1, 0))
        #expect(ChangeClass.allCases.allSatisfy { again.count($0) == full.count($0) })
    }
}
