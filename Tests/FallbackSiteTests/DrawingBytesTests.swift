import FallbackAudit
import FallbackSample
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// The funnel drawing written as bytes (issue 10, page contexts: the SVG was built by `String`
/// appends and interpolation, 15% of a site build). It must stay byte for byte what the `String`
/// writer (kept below as the reference, with `fitted` as it was) wrote: on every funnel of every
/// Example, fixture and fuzz input, and on hostile funnels (markup and quotes in ids, titles and
/// conditions, non-Latin and bidi text, combining marks, cycles, unknown targets, a huge funnel).
@Suite("Drawing written as bytes")
struct DrawingBytesTests {
    /// The reference drawing of `funnel`, made as `FunnelDrawing` makes its own.
    static func reference(
        _ funnel: Funnel, unreachable: Set<Int>, locale: String?, idPrefix: String?, anchors: [String]?
    ) -> (svg: String, width: Int, height: Int) {
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        let layout = GraphLayout(graph: flow)
        var writer = StringDrawingWriter(
            funnel: funnel, flow: flow, layout: layout, prefix: FunnelDrawing.elementIdPrefix(idPrefix, funnelId: funnel.id),
            unreachablePages: unreachable, locale: locale, pageAnchors: anchors)
        let svg = writer.write()
        return (svg, writer.width, writer.height)
    }

    /// Draws `funnel` as a funnel page does (its unreachable pages marked, boxes linked) and bare,
    /// and compares each with the reference.
    static func expectSameAsReference(_ funnel: Funnel, _ comment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let unreachable = Set(FunnelGraph(funnel).pagesReachedFromFirstPage().enumerated().compactMap { $1 ? nil : $0 })
        let anchors = funnel.pages.map { "page-" + $0.id }
        for (marks, links, locale, prefix) in [(unreachable, anchors, "fr" as String?, "fd" as String?), ([], nil, nil, nil)] {
            let drawing = FunnelDrawing(funnel: funnel, unreachablePageIndices: marks, locale: locale, idPrefix: prefix, pageAnchors: links)
            let expected = reference(funnel, unreachable: marks, locale: locale, idPrefix: prefix, anchors: links)
            #expect(drawing.svg == expected.svg, "\(comment)", sourceLocation: sourceLocation)
            #expect(drawing.width == expected.width && drawing.height == expected.height, "\(comment)", sourceLocation: sourceLocation)
        }
    }

    /// Every funnel of a file: its entries' and their variants'.
    static func funnels(in file: FallbackFile) -> [Funnel] {
        file.loadedEntries.flatMap { ([$0.entry.funnel] + ($0.entry.experiment?.variants ?? []).map(\.funnel)).compactMap { $0 } }
    }

    @Test func everyFunnelOfEveryCorpusFileIsDrawnAsTheReferenceDraws() throws {
        var count = 0
        for path in ListingBytesTests.files {
            let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            for funnel in Self.funnels(in: file) {
                Self.expectSameAsReference(funnel, path)
                count += 1
            }
        }
        #expect(count >= 10)
    }

    @Test(arguments: [2, 7, 60, 400])
    func generatedFunnelsAreDrawnAsTheReferenceDraws(pageCount: Int) throws {
        Self.expectSameAsReference(try Build.generatedFunnel(pageCount: pageCount), "\(pageCount) pages")
    }

    static let hostileTexts: [String] = [
        "<script>alert('x')</script> & \"quoted\"", "Caf\u{E9} \u{E0} la cr\u{E8}me \u{B7} \u{AB}gr\u{FC}n\u{BB}", "\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{30BF}\u{30A4}\u{30C8}\u{30EB}",
        "\u{41F}\u{440}\u{438}\u{432}\u{435}\u{442} \u{43C}\u{438}\u{440}", "e\u{301}t\u{301}e\u{301} a\u{300}", "a \u{301}b", "\u{202E}evil\u{202C} text",
        "tab\there\nline\r\nbreak", "  spaced   out  ", "nbsp\u{A0}and\u{2003}em", "\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} family",
        "soft\u{AD}hyphen", "x\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}", "\u{7F}\u{0}\u{1B}[31m", "age \u{2265} 40 \u{2192} next",
        String(repeating: "Wide label with many words ", count: 30), String(repeating: "\u{4E2D}", count: 300), "",
        "\u{FFFD}\u{FFFE}\u{FEFF}", "\u{2028}\u{2029}", "W" + String(repeating: "m", count: 60),
    ]

    @Test func hostileFunnelsAreDrawnAsTheReferenceDraws() throws {
        for (index, text) in Self.hostileTexts.enumerated() {
            let id = "p<\(index)>&\"'" + text.prefix(8)
            let pages: [JSONValue] = [
                Build.page(id, title: .string(text), rules: [
                    Build.rule("r\(index)<&>", goto: "second", clauses: [Build.clause("q\"\(text)", "eq", .string(text))]),
                    Build.rule("r2", goto: "nowhere<&>\(text)"),
                    Build.rule("r3", goto: "paywall"),
                ], defaultNext: id),
                Build.page("second", "question", title: .object([.init("fr", .string(text)), .init("en", "second")]),
                    rules: [Build.rule("back", goto: id, op: "any", clauses: [Build.clause("age", "gte", 40)])]),
                Build.page("orphan \(text)", "statement", title: .string(text), defaultNext: "end"),
                Build.page("pay", "paywall", defaultNext: "second"),
            ]
            Self.expectSameAsReference(try Build.funnel(id: "f\(text)", name: text, pages), text.debugDescription)
        }
        Self.expectSameAsReference(try Build.funnel([]), "no pages")
        // A long cycle, every page a step back to the first and a skip ahead.
        let cycle = (0..<80).map { index in
            Build.page("c\(index)", title: .string(Self.hostileTexts[index % Self.hostileTexts.count]), rules: [
                Build.rule("back", goto: "c0", clauses: [Build.clause("x", "eq", .string("<\(index)>"))]),
                Build.rule("skip", goto: "c\((index * 7 + 3) % 80)"),
            ])
        }
        Self.expectSameAsReference(try Build.funnel(cycle), "cycle")
    }

    /// `fitsUnchanged` says a text fits as it is only when the per-character path gives it back
    /// unchanged, and `fitted` always gives what that path gives.
    @Test(arguments: [0.0, 20, 60, 192, 600, 2400])
    func textThatFitsUnchangedIsWhatTheCharacterPathGives(maxWidth: Double) {
        var unchanged = 0
        for text in Self.hostileTexts + FittedTextBytesTests.texts + ["Caf\u{E9}", "a b", "a  b", " a", "a ", "\u{E9} \u{E9}", "\u{24F}\u{250}"] {
            for fontSize in [11.0, 12.72] {
                let reference = DrawingText.fittedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize)
                #expect(DrawingText.fitted(text, maxWidth: maxWidth, fontSize: fontSize) == reference, "\(text.debugDescription) in \(maxWidth)")
                if DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: fontSize) {
                    unchanged += 1
                    #expect(Array(reference.utf8) == Array(text.utf8), "\(text.debugDescription) in \(maxWidth)")
                }
                if DrawingText.fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize) {
                    #expect(Array(reference.utf8) == Array(text.utf8), "\(text.debugDescription) in \(maxWidth)")
                }
            }
        }
        if maxWidth >= 600 { #expect(unchanged > 100) }
    }

    /// The byte path takes dashes and the ellipsis (three bytes each) as characters of their own
    /// and hands any other three-byte scalar, or one that joins them into a larger character, to
    /// the character path: both say the same of random texts of them, at every width.
    @Test func dashesAndEllipsesFitAsTheCharacterPathSays() {
        var generator = SplitMix64(seed: 0x2026)
        let pieces = [
            "a", "Z", " ", "  ", "\u{E9}", "\u{2013}", "\u{2014}", "\u{2026}", "\u{2012}", "\u{2015}", "\u{2025}", "\u{2027}",
            "\u{2265}", "\u{202E}", "\u{2028}", "\u{200D}", "\u{301}", "\u{FE0F}", "\u{1F44D}", "\u{65E5}", "\t",
        ]
        var fastPathTexts = 0
        for _ in 0..<4_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &generator) { text += pieces.randomElement(using: &generator)! }
            if text.unicodeScalars.allSatisfy({ $0.value < 0x7F || [0xE9, 0x2013, 0x2014, 0x2026].contains($0.value) }) { fastPathTexts += 1 }
            for maxWidth in [0.0, 20, 35, 60, 600] {
                #expect(
                    DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: 11)
                        == DrawingText.fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: 11), "\(text.debugDescription) in \(maxWidth)")
            }
        }
        #expect(fastPathTexts > 100)
    }

    /// A text exactly as wide as the room (summed as `FittingLine` sums it) fits unchanged; a hair
    /// narrower room cuts it.
    @Test func theBoundaryIsTheSameSum() {
        for text in ["Plan builder", "Caf\u{E9} cr\u{E8}me", "age \u{2265} 40", "\u{65E5}\u{672C} x"] {
            var width = 0.0
            for character in text { width += DrawingText.advance(of: character.unicodeScalars.first) * 11 }
            #expect(DrawingText.fitsUnchangedByCharacter(text, maxWidth: width, fontSize: 11))
            #expect(!DrawingText.fitsUnchangedByCharacter(text, maxWidth: width.nextDown, fontSize: 11))
            // The byte path decides Latin text and hands any other (here "≥" and CJK, three bytes each) to the character path.
            #expect(DrawingText.fitsUnchanged(text, maxWidth: width, fontSize: 11))
            #expect(!DrawingText.fitsUnchanged(text, maxWidth: width.nextDown, fontSize: 11))
            #expect(DrawingText.fitted(text, maxWidth: width.nextDown, fontSize: 11) == DrawingText.fittedByCharacter(text, maxWidth: width.nextDown, fontSize: 11))
            #expect(DrawingText.fitted(text, maxWidth: width.nextDown, fontSize: 11) != text)
        }
    }
}

/// `PaywallPreview.texts(in:)` spells each path as it walks down; the reference asks the document
/// for each text's pointer, as it did before.
@Suite("Paywall texts' paths")
struct PaywallTextPathTests {
    static func reference(_ config: JSONDocument.Value) -> ([PaywallPreview.ConfigText], Int) {
        var texts: [PaywallPreview.ConfigText] = []
        var more = 0
        let base = config.pointer
        var stack = [config]
        while let value = stack.popLast() {
            switch value.kind {
            case .string:
                guard let text = value.string, !text.isEmpty else { continue }
                guard texts.count < PaywallPreview.textLimit else {
                    more += 1
                    continue
                }
                let path = String(value.pointer.utf8.dropFirst(base.utf8.count)) ?? ""
                texts.append(PaywallPreview.ConfigText(path: SnapshotText.shortenedPointer(path.isEmpty ? "/" : path), text: text))
            case .array: stack.append(contentsOf: value.elements.reversed())
            case .object: stack.append(contentsOf: value.members.reversed().map(\.value))
            default: continue
            }
        }
        return (texts, more)
    }

    static func expectSame(_ value: JSONDocument.Value, _ comment: String) {
        let (texts, more) = PaywallPreview.texts(in: value)
        let (expected, expectedMore) = reference(value)
        #expect(texts.map(\.path) == expected.map(\.path), "\(comment)")
        #expect(texts.map(\.text) == expected.map(\.text), "\(comment)")
        #expect(more == expectedMore, "\(comment)")
    }

    @Test func hostileValuesHaveTheDocumentsPaths() {
        let many = (0..<250).map { #"{"k\#($0)/~":"v\#($0)","n":[\#($0),"x"]}"# }.joined(separator: ",")
        let texts = [
            #"{"config":{"a/b":{"~0":["x",{"":"<script>"}],"~1":"t"},"":"empty key","dup":"1","dup":"2","\u00fc\/~1":"esc","arr":[[],{},["deep",["deeper"]]]}}"#,
            #"{"config":"just a string"}"#, #"{"config":[]}"#, #"{"config":{"list":[\#(many)]}}"#,
            #"{"config":{"a":{"b":{"c":{"d":{"e":"\u202Eevil"}}}},"\ud83d\ude00":"emoji key","k\"q":"quote"}}"#,
            // Keys past the shortening length, with escaped characters, over several values and levels.
            #"{"config":{"\#(Self.longKey)":["a","b",{"\#(Self.longKey)":["c",{"":"d"}]}],"\#(String(repeating: "x", count: 81))":"e"}}"#,
        ]
        for text in texts {
            let document = JSONDocument(text: text)
            Self.expectSame(document.root.members[0].value, text)
        }
    }

    /// A key longer than a page shows, with characters a pointer escapes and a non-ASCII one.
    static let longKey = String(repeating: "long/key~\u{00E9}", count: 12)

    /// A page and a builderConfig's remote media, their keys spelled as a page shows a path's
    /// parts (`keySpelling`), once per key: the same paths as shortening each whole path, for
    /// long keys, keys with slashes, empty keys and positions.
    @Test func remoteMediaPathsSpelledKeyByKeyAreTheShortenedPaths() throws {
        let slashes = String(repeating: "a", count: 100) + "/" + String(repeating: "b", count: 90) + "/c"
        let urls = (0..<3).map { #""https://cdn.example/\#($0).png""# }.joined(separator: ",")
        let nested = #"{"\#(Self.longKey)":[\#(urls),{"\#(slashes)":[\#(urls)],"":{"":"https://cdn.example/e.png"}}]}"#
        let paywallText = #"{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"builderConfig":\#(nested)}"#
        let text = #"""
            {"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},"paywall":\#(paywallText),
            "funnel":{"id":"f","slug":"f","pages":[{"id":"a","type":"info","\#(Self.longKey)":\#(nested),"media":{"\#(slashes)":[\#(urls)]}}]}}}}
            """#
        let file = FallbackFile(text: text)
        let entry = try #require(file.loadedEntries.first?.1)
        let page = try #require(entry.funnel?.pages.first)
        let paywall = try #require(entry.paywall)
        let pagePaths = RemoteMedia.urls(on: page, in: file).map { SnapshotText.shortenedPointer($0.path) }
        let configPaths = RemoteMedia.urls(inBuilderConfigOf: paywall, in: file).map { SnapshotText.shortenedPointer($0.path) }
        #expect(pagePaths.count > 6 && configPaths.count > 6)
        #expect(pagePaths.contains { $0.contains("… (") }, "a key is shortened")
        #expect(RemoteMedia.urls(on: page, in: file, keySpelling: SnapshotText.shortenedPointer).map(\.path) == pagePaths)
        #expect(RemoteMedia.urls(inBuilderConfigOf: paywall, in: file, keySpelling: SnapshotText.shortenedPointer).map(\.path) == configPaths)
        // The site's spelling cuts no key whose parts, once shortened, are short enough.
        #expect(RemoteMedia.urls(on: page, in: file, keySpelling: SnapshotText.shortenedKey).map(\.path) == pagePaths)
        #expect(RemoteMedia.urls(inBuilderConfigOf: paywall, in: file, keySpelling: SnapshotText.shortenedKey).map(\.path) == configPaths)
    }

    /// A key of many short parts is shown whole by the parts' shortening; the site cuts it after
    /// `SnapshotText.pathKeyLength` characters, so that a URL's path does not repeat all of it.
    @Test func aKeyOfManyShortPartsIsCutOnce() throws {
        let key = String(repeating: "k/ab", count: 2_000)
        let text = #"""
            {"formatVersion":1,"placements":{"p":{"placement":{"identifier":"p","revision":1},
            "funnel":{"id":"f","slug":"f","pages":[{"id":"a","type":"info","media":{"\#(key)":["https://cdn.example/0.png","https://cdn.example/1.png"]}}]}}}}
            """#
        let file = FallbackFile(text: text)
        let page = try #require(file.loadedEntries.first?.entry.funnel?.pages.first)
        let paths = RemoteMedia.urls(on: page, in: file, keySpelling: SnapshotText.shortenedKey).map(\.path)
        #expect(SnapshotText.shortenedPointer(key) == key)
        let cut = SnapshotText.shortened(key, limit: SnapshotText.pathKeyLength)
        #expect(cut.hasPrefix(String(key.prefix(SnapshotText.pathKeyLength)) + "… (8,000 bytes, #"))
        #expect(paths == ["media/" + cut + "/0", "media/" + cut + "/1"])
    }

    /// A site reads each config's texts once (`PaywallPreview.TextsMemo`), by the config's bytes:
    /// configs met again, in one document or another, at other offsets, get the texts a walk of
    /// their own gives, and configs of the same length but other bytes their own.
    @Test func configsMetAgainHaveTheirOwnTexts() {
        let memo = PaywallPreview.TextsMemo()
        let documents = [
            #"{"a":{"t":"one","n":["x",{"k/~":"y"}]},"b":{"t":"two","n":["x",{"k/~":"y"}]},"c":{"t":"one","n":["x",{"k/~":"y"}]}}"#,
            #"[{"t":"two","n":["x",{"k/~":"y"}]}, "", {"t":"one","n":["x",{"k/~":"y"}]}, {}, {}]"#,
        ].map { JSONDocument(text: $0) }
        for _ in 0..<2 {
            for document in documents {
                let configs = document.root.kind == .object ? document.root.members.map(\.value) : document.root.elements
                for config in configs {
                    let (texts, more) = memo.texts(in: config)
                    let (expected, expectedMore) = PaywallPreview.texts(in: config)
                    #expect(texts.map(\.path) == expected.map(\.path))
                    #expect(texts.map(\.text) == expected.map(\.text))
                    #expect(more == expectedMore)
                }
            }
        }
    }

    @Test func everyPaywallOfEveryCorpusFileHasTheDocumentsPaths() throws {
        var count = 0
        for path in ListingBytesTests.files {
            let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
            for (_, entry) in file.loadedEntries {
                for paywall in [entry.paywall] + (entry.experiment?.variants ?? []).map(\.paywall) {
                    guard let config = paywall?.remoteConfig?.data else { continue }
                    Self.expectSame(config, path)
                    count += 1
                }
            }
        }
        #expect(count >= 5)
    }
}

/// The drawing as a `String` writer made it before it was written as bytes: the reference.
struct StringDrawingWriter {
    let funnel: Funnel
    let flow: FunnelFlow
    let layout: GraphLayout
    let prefix: String
    /// Positions of the pages drawn in the error style.
    let unreachablePages: Set<Int>
    let locale: String?
    /// Per page position, the id of the page's row the page's box links to; none: boxes are not links.
    let pageAnchors: [String]?
    private(set) var width = 0
    private(set) var height = 0
    private var output = ""
    private var offsetX = 0.0
    private var offsetY = 0.0

    static let margin = 16.0
    /// The longest tooltip, in pixels at the label font size.
    static let tooltipWidth = 2400.0

    init(
        funnel: Funnel, flow: FunnelFlow, layout: GraphLayout, prefix: String, unreachablePages: Set<Int>,
        locale: String?, pageAnchors: [String]?
    ) {
        self.funnel = funnel
        self.flow = flow
        self.layout = layout
        self.prefix = prefix
        self.unreachablePages = unreachablePages
        self.locale = locale
        self.pageAnchors = pageAnchors.flatMap { $0.count == funnel.pages.count ? $0 : nil }
    }

    mutating func write() -> String {
        let empty = flow.nodes.isEmpty
        let contentWidth = empty ? 160 : layout.maxX - layout.minX
        let contentHeight = empty ? 24 : layout.totalHeight
        width = Int((contentWidth + 2 * Self.margin).rounded(.up))
        height = Int((contentHeight + 2 * Self.margin).rounded(.up))
        offsetX = Self.margin - (empty ? 0 : layout.minX)
        offsetY = Self.margin
        output.reserveCapacity(4096 + flow.nodes.count * 600 + flow.steps.count * 400)

        output += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"fd\" width=\"\(width)\" height=\"\(height)\" "
        output +=
            "viewBox=\"0 0 \(width) \(height)\" role=\"\(pageAnchors == nil ? "img" : "group")\" aria-labelledby=\"\(prefix)-title \(prefix)-desc\">\n"
        output += "<title id=\"\(prefix)-title\">\(text("Flow of funnel \(funnelName)", width: 600))</title>\n"
        output += "<desc id=\"\(prefix)-desc\">\(text(summary, width: Self.tooltipWidth))</desc>\n"
        writeMarkers()
        if empty {
            output += "<text class=\"fd-empty\" x=\"\(number(0))\" y=\"\(number(16))\">No pages</text>\n"
        } else {
            writeEdges()
            writeNodes()
            writeLabels()
            writeBadges()
        }
        output += "</svg>\n"
        return output
    }

    private var funnelName: String {
        if let name = funnel.name, !name.isEmpty { return name }
        return funnel.id
    }

    private var summary: String {
        let unreachable = funnel.pages.indices.count { unreachablePages.contains($0) }
        let unknown = flow.steps.count { step in
            if case .unknown = flow.nodes[step.to] { return true }
            return false
        }
        let back = layout.backStepCount
        var parts = [counted(flow.pageCount, "page"), counted(flow.ruleCount, "rule")]
        if unreachable > 0 { parts.append(counted(unreachable, "unreachable page")) }
        if unknown > 0 {
            parts.append(counted(unknown, "step to an unknown target", plural: "steps to an unknown target"))
        }
        if back > 0 {
            parts.append(counted(back, "step back to an earlier page", plural: "steps back to an earlier page"))
        }
        return parts.joined(separator: ", ") + "."
    }

    private func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    private enum ArrowKind: String, CaseIterable {
        case plain, rule, paywall, back, unknown
    }

    private mutating func writeMarkers() {
        let used = Set(flow.steps.indices.map(arrow))
        if used.isEmpty { return }
        output += "<defs>\n"
        for kind in ArrowKind.allCases where used.contains(kind) {
            let modifier = kind == .plain ? "" : " is-\(kind.rawValue)"
            output += "<marker id=\"\(prefix)-arrow-\(kind.rawValue)\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
            output += "markerWidth=\"8\" markerHeight=\"8\" markerUnits=\"userSpaceOnUse\" orient=\"auto\">"
            output += "<path class=\"fd-arrow\(modifier)\" d=\"M0,1L10,5L0,9z\"/></marker>\n"
        }
        output += "</defs>\n"
    }

    private func nodeId(_ node: Int) -> String {
        switch flow.nodes[node] {
        case .page(let index): "\(prefix)-page-\(index)"
        case .end: "\(prefix)-end-\(node - flow.pageCount)"
        case .unknown: "\(prefix)-unknown-\(node - flow.pageCount)"
        }
    }

    private func stepClasses(_ index: Int) -> String {
        let step = flow.steps[index]
        var classes: String
        switch step.kind {
        case .rule: classes = "is-rule"
        case .defaultNext: classes = "is-default"
        case .sequential: classes = "is-sequential"
        }
        if layout.runsBack(LayoutStepID(index)) { classes += " is-back" }
        if step.jumpsToPaywall { classes += " is-paywall" }
        switch flow.nodes[step.to] {
        case .unknown: classes += " is-unknown"
        case .end: classes += " is-end"
        case .page: break
        }
        return classes
    }

    private func arrow(_ index: Int) -> ArrowKind {
        let step = flow.steps[index]
        if layout.runsBack(LayoutStepID(index)) { return .back }
        if case .unknown = flow.nodes[step.to] { return .unknown }
        if step.jumpsToPaywall { return .paywall }
        return step.kind == .rule ? .rule : .plain
    }

    private mutating func writeEdges() {
        output += "<g class=\"fd-edges\">\n"
        for index in flow.steps.indices {
            output += "<path class=\"fd-edge \(stepClasses(index))\" \(ends(index)) "
            output += "d=\"\(pathData(layout.path(of: LayoutStepID(index))))\" "
            output += "marker-end=\"url(#\(prefix)-arrow-\(arrow(index).rawValue))\"/>\n"
        }
        output += "</g>\n"
    }

    private mutating func writeNodes() {
        output += "<g class=\"fd-nodes\">\n"
        for node in flow.nodes.indices {
            switch flow.nodes[node] {
            case .page(let index):
                writePage(index, node: node)
            case .end:
                writeTerminal(node, isError: false, tooltip: "The funnel ends")
            case .unknown(let source, let target, let reason):
                let page = funnel.pages[source].id
                let tooltip =
                    switch reason {
                    case .noPaywallPage: "\(page) goes to \"paywall\", but no page has type paywall"
                    case .noSuchPage: "\(page) goes to \(JSONValue.quoted(target)), which is not a page id, \"end\" or \"paywall\""
                    }
                writeTerminal(node, isError: true, tooltip: tooltip)
            }
        }
        output += "</g>\n"
    }

    /// A box with the page's id, type (and paywall) and copy.
    private mutating func writePage(_ index: Int, node: Int) {
        let page = funnel.pages[index]
        let isUnreachable = unreachablePages.contains(index)
        var classes = "fd-page"
        if index == 0 { classes += " is-start" }
        if FunnelGraph.isPaywallPage(page) { classes += " is-paywall" }
        if isUnreachable { classes += " is-unreachable" }
        var kind = page.type
        if let paywallId = page.paywallId, !paywallId.isEmpty { kind += " · " + paywallId }
        let copy = pageText(page)
        var tooltip = "\(page.id) · \(kind)"
        if let copy { tooltip += " · " + copy }
        if isUnreachable { tooltip += " · unreachable from the first page" }

        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let inner = GraphLayout.Metrics.pageWidth - 2 * GraphLayout.Metrics.textPadding
        let textX = number(left + GraphLayout.Metrics.textPadding + offsetX)
        let anchor = pageAnchors.map { $0[index] }
        if let anchor {
            let name = "Page \(index + 1) of \(funnel.pages.count): \(tooltip). Go to its row in the pages table"
            output += "<a class=\"fd-link\" href=\"#\(DrawingText.escaped(anchor))\" data-node=\"\(nodeId(node))\" "
            output += "aria-label=\"\(text(name, width: Self.tooltipWidth))\">"
        }
        output += "<g class=\"\(classes)\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(x: left, y: top, width: frame.width, height: frame.height, radius: 6)
        output += "<text class=\"fd-page-id\" x=\"\(textX)\" y=\"\(number(top + 18 + offsetY))\">"
        output += text(page.id, width: inner, fontSize: GraphLayout.Metrics.idFontSize * GraphLayout.Metrics.boldWidening)
        output += "</text><text class=\"fd-page-type\" x=\"\(textX)\" y=\"\(number(top + 35 + offsetY))\">"
        output += text(kind, width: inner) + "</text>"
        if let copy {
            output += "<text class=\"fd-page-title\" x=\"\(textX)\" y=\"\(number(top + 51 + offsetY))\">"
            output += text(copy, width: inner) + "</text>"
        }
        output += anchor == nil ? "</g>\n" : "</g></a>\n"
    }

    /// A pill with `end`, or in the error style, the unknown target.
    private mutating func writeTerminal(_ node: Int, isError: Bool, tooltip: String) {
        let frame = layout.frame(of: LayoutNodeID(node))
        let left = frame.centerX - frame.width / 2
        let top = frame.top
        let label = frame.terminalText
        let labelX = frame.centerX - DrawingText.width(of: label, fontSize: GraphLayout.Metrics.fontSize) / 2
        output += "<g class=\"fd-terminal\(isError ? " is-error" : "")\" id=\"\(nodeId(node))\">"
        output += "<title>\(text(tooltip, width: Self.tooltipWidth))</title>"
        output += rect(
            x: left, y: top, width: frame.width, height: frame.height, radius: frame.height / 2)
        output += "<text x=\"\(number(labelX + offsetX))\" y=\"\(number(top + 17 + offsetY))\">"
        output += DrawingText.escaped(label) + "</text></g>\n"
    }

    private mutating func writeLabels() {
        output += "<g class=\"fd-labels\">\n"
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            var classes = "fd-label"
            switch step.kind {
            case .rule: classes += " is-rule"
            case .defaultNext: classes += " is-default"
            case .sequential: classes += " is-sequential"
            }
            if layout.runsBack(label.step) { classes += " is-back" }
            output += "<g class=\"\(classes)\" \(ends(label.step.index))>"
            output += "<title>\(text(step.summary, width: Self.tooltipWidth))</title>"
            output += rect(x: label.x, y: label.y, width: label.width, height: label.height, radius: 3)
            let x = number(label.x + GraphLayout.Metrics.labelPadding + offsetX)
            output += "<text>"
            for (row, line) in label.lines.enumerated() {
                let baseline = label.y + GraphLayout.Metrics.labelVerticalPadding + 11 + Double(row) * GraphLayout.Metrics.labelLine
                output += "<tspan x=\"\(x)\" y=\"\(number(baseline + offsetY))\">\(DrawingText.escaped(line))</tspan>"
            }
            output += "</text></g>\n"
        }
        output += "</g>\n"
    }

    /// A numbered bead where each labelled step leaves its page: its priority, so a step can be
    /// told from its neighbours and matched with its label however the labels stack.
    private mutating func writeBadges() {
        output += "<g class=\"fd-badges\" aria-hidden=\"true\">\n"
        for label in layout.labels {
            let step = flow.steps[label.step.index]
            output += "<g class=\"fd-badge \(stepClasses(label.step.index))\" \(ends(label.step.index))>"
            output += "<circle cx=\"\(number(label.port.x + offsetX))\" cy=\"\(number(label.port.y + offsetY))\" "
            output += "r=\"\(number(GraphLayout.Metrics.badgeRadius))\"/>"
            output += "<text x=\"\(number(label.port.x + offsetX))\" y=\"\(number(label.port.y + 3.5 + offsetY))\" "
            output += "text-anchor=\"middle\">\(step.priority)</text></g>\n"
        }
        output += "</g>\n"
    }

    /// The `data-from` and `data-to` attributes of step `index`: the ids of the nodes it joins.
    private func ends(_ index: Int) -> String {
        "data-from=\"\(nodeId(flow.steps[index].from))\" data-to=\"\(nodeId(flow.steps[index].to))\""
    }

    /// The copy a page box shows: its title, else headline, body or subtitle.
    private func pageText(_ page: Page) -> String? {
        for candidate in [page.title, page.headline, page.body, page.subtitle] {
            if let candidate, let text = localized(candidate) { return text }
        }
        return nil
    }

    private func localized(_ text: LocalizedText) -> String? {
        func shown(_ text: String?) -> String? {
            guard let text, text.contains(where: { !$0.isWhitespace }) else { return nil }
            return text
        }
        switch text {
        case .plain(let string): return shown(string)
        case .localized(let map):
            if let locale, let text = shown(map[locale]) { return text }
            if let defaultLocale = funnel.defaultLocale, let text = shown(map[defaultLocale]) { return text }
            return map.values.lazy.compactMap(shown).first
        }
    }

    /// `DrawingText.fitted` as it was before `fitsUnchanged`, escaped.
    private func text(_ raw: String, width: Double, fontSize: Double = GraphLayout.Metrics.fontSize) -> String {
        let fitted = DrawingText.fittedPlainASCII(raw, maxWidth: width, fontSize: fontSize)
            ?? DrawingText.fittedLatinScalars(raw, maxWidth: width, fontSize: fontSize)
            ?? DrawingText.fittedByCharacter(raw, maxWidth: width, fontSize: fontSize)
        return DrawingText.escaped(fitted)
    }

    /// A `<rect>` at layout coordinates.
    private func rect(x: Double, y: Double, width: Double, height: Double, radius: Double) -> String {
        "<rect x=\"\(number(x + offsetX))\" y=\"\(number(y + offsetY))\" width=\"\(number(width))\" "
            + "height=\"\(number(height))\" rx=\"\(number(radius))\"/>"
    }

    private func pathData(_ path: GraphLayout.Path) -> String {
        var data = "M" + point(path.start)
        for segment in path.segments {
            switch segment {
            case .line(let to): data += "L" + point(to)
            case .quad(let control, let to): data += "Q" + point(control) + " " + point(to)
            case .cubic(let first, let second, let to):
                data += "C" + point(first) + " " + point(second) + " " + point(to)
            }
        }
        return data
    }

    private func point(_ point: GraphLayout.Point) -> String {
        number(point.x + offsetX) + "," + number(point.y + offsetY)
    }

    /// `value` rounded to tenths, without the decimal when it is whole.
    func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        let magnitude = tenths.magnitude
        return "\(tenths < 0 ? "-" : "")\(magnitude / 10)" + (magnitude % 10 == 0 ? "" : ".\(magnitude % 10)")
    }
}

/// `GraphLayout.packRows` gives each label the first row it fits in, keeping the rows that end in
/// heaps; the reference looks through every row for each label, as it did before.
@Suite("Label rows")
struct LabelRowTests {
    static func reference(_ band: [GraphLayout.PendingLabel]) -> (rows: [Int], offsets: [Double], total: Double) {
        let band = band.sorted { ($0.center - $0.width / 2, $0.step) < ($1.center - $1.width / 2, $1.step) }
        var rowEnds: [Double] = []
        var rowHeights: [Double] = []
        var rows: [Int] = []
        for label in band {
            let start = label.center - label.width / 2
            let row = rowEnds.firstIndex { $0 + GraphLayout.Metrics.labelSpacing <= start } ?? rowEnds.count
            if row == rowEnds.count {
                rowEnds.append(0)
                rowHeights.append(0)
            }
            rowEnds[row] = start + label.width
            rowHeights[row] = max(rowHeights[row], label.height)
            rows.append(row)
        }
        // Each row below the rows before it, 3 apart, added up in the same order.
        let offsets = rowHeights.indices.map { row in rowHeights[..<row].reduce(0.0) { $0 + $1 + 3 } }
        return (rows, rows.map { offsets[$0] }, rowHeights.reduce(0.0) { $0 + $1 + 3 })
    }

    @Test(arguments: 0..<40)
    func randomBandsGetTheFirstRowThatFits(seed: UInt64) {
        var generator = SplitMix64(seed: 0x1abe1 &+ seed)
        let count = Int.random(in: 0...400, using: &generator)
        // Few distinct centres and widths: many labels start together, or just where a row ends.
        let centers = (0..<Int.random(in: 1...12, using: &generator)).map { _ in Double(Int.random(in: 0...200, using: &generator)) }
        let widths = [10.0, 20, 24, 37.5, 60, 120]
        let band = (0..<count).map { step in
            GraphLayout.PendingLabel(
                step: step, lines: [], center: centers.randomElement(using: &generator)!, width: widths.randomElement(using: &generator)!,
                height: Double(Int.random(in: 1...3, using: &generator)) * 11)
        }
        var packed = band
        let total = GraphLayout.packRows(&packed)
        let expected = Self.reference(band)
        #expect(packed.map(\.row) == expected.rows)
        #expect(packed.map(\.offset) == expected.offsets)
        #expect(total == expected.total)
    }
}
