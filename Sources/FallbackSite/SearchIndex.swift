import Foundation
import FallbackMustache
import RovenueFallback

/// The site's search index: every identifier a reader may look for (placement keys, funnel ids,
/// page ids, experiment and variant ids, paywall and product ids, the text of skipped entries),
/// each with the most specific page that shows it. The header's search box reads it.
///
/// Pages open from `file://`, where a browser refuses to `fetch` JSON, so the index is a script
/// (`assets/search-index.js`) that the CSP's `script-src 'self'` allows: one assignment of JSON
/// data to `self.fallbackSearchIndex`, written by the project's JSON writer, with U+2028 and U+2029
/// escaped as well, so no snapshot text can end a string or the statement. Entries keep the order
/// they are found in (placements in file order), so the same snapshot gives the same bytes.
public struct SearchIndex: Sendable, Hashable {
    /// What an entry's text is. The cases' order is the order results of equal match rank in.
    public enum Kind: String, Sendable, CaseIterable {
        case placementKey = "placement key"
        case placementIdentifier = "placement identifier"
        case experimentId = "experiment id"
        case experimentKey = "experiment key"
        case variantId = "variant id"
        case funnelId = "funnel id"
        case funnelSlug = "funnel slug"
        case funnelName = "funnel name"
        case pageId = "page id"
        case paywallId = "paywall id"
        case paywallIdentifier = "paywall identifier"
        case productId = "product id"
        case skippedContent = "skipped entry"
        /// A snapshot of a series, by its release label and its name (its own page).
        case snapshot
    }

    /// One thing a search can find.
    public struct Entry: Sendable, Hashable {
        public let kind: Kind
        /// The text a query is matched against, as the snapshot spells it (a skipped entry's text
        /// bounded by `skippedTextLimit`, its runs of white space made one space).
        public let text: String
        /// What the result leads to, in words: `Calm start quiz`, `placement trial_ending`.
        public let label: String
        /// The page below the site's root, with its anchor when the page has one for it.
        public let path: String

        /// The same entry: texts compared by their bytes (`ExactKey`), as ids are. `String`'s
        /// equality is canonical equivalence, so a composed and a decomposed id were one entry,
        /// and its hashing normalises the text: an id with a run of N combining marks out of order
        /// cost N² steps to hash.
        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.kind == rhs.kind && ExactKey.same(lhs.text, rhs.text) && ExactKey.same(lhs.label, rhs.label)
                && ExactKey.same(lhs.path, rhs.path)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(ExactKey(text))
            hasher.combine(ExactKey(label))
            hasher.combine(ExactKey(path))
        }
    }

    /// Where the index is written, below the output folder.
    public static let path = "assets/search-index.js"
    /// The global the script assigns.
    public static let globalName = "fallbackSearchIndex"
    /// How many UTF-8 bytes of a skipped entry's text the index keeps.
    public static let skippedTextLimit = 2048

    public let entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    /// The script file: `self.fallbackSearchIndex = {"kinds": […], "pages": […], "targets": […], "entries": […]};`
    ///
    /// - `kinds`: each `Kind`'s name, in rank order; an entry names its kind by index.
    /// - `pages`: the paths of the pages results lead to.
    /// - `targets`: `[page, label]` pairs, `page` an index into `pages`; many entries share one
    ///   (a funnel's ids, pages and products all lead to its page, labelled with its name).
    /// - `entries`: `[kind, text, target]`, or `[kind, text, target, anchor]` where the page has an
    ///   anchor for it; an anchor of `1` stands for `"page-" + text` (a funnel page's row of a page
    ///   whose id is already a safe anchor name, most of them).
    ///
    /// Shared in tables, so a page that shows 1,000 ids and a label many ids share are written once.
    /// Written as text as the entries are read, compact, as `JSONValue.jsonText()` writes it,
    /// without building a tree of the whole index first.
    public var script: String {
        String(decoding: scriptBytes, as: UTF8.self)
    }

    /// `script` as UTF-8, as the build writes it: made as bytes, each string quoted by the JSON
    /// writer's `JSONValue.appendQuoted`, with no `String` of the index's parts (appending them to
    /// `String`s and spelling numbers by interpolation cost about 190 M instructions in the 1k
    /// build).
    var scriptBytes: [UInt8] {
        // Keyed by bytes (`ExactKey`): `String` keys hash normalised text, and a label quoting a run
        // of N combining marks out of order cost N² steps to hash.
        var pageIndex: [ExactKey: Int] = [:]
        var pages: [UInt8] = []
        var targetIndex: [ExactKey: [ExactKey: Int]] = [:]
        var targets: [UInt8] = []
        var targetCount = 0
        var rows: [UInt8] = []
        let kindIndex = Dictionary(uniqueKeysWithValues: Kind.allCases.enumerated().map { ($1, $0) })
        for entry in entries {
            let (page, anchor) = Self.split(entry.path)
            let pageNumber: Int
            if let known = pageIndex[ExactKey(page)] {
                pageNumber = known
            } else {
                pageNumber = pageIndex.count
                pageIndex[ExactKey(page)] = pageNumber
                if !pages.isEmpty { pages.append(UInt8(ascii: ",")) }
                JSONValue.appendQuoted(page, to: &pages)
            }
            let target: Int
            if let known = targetIndex[ExactKey(page)]?[ExactKey(entry.label)] {
                target = known
            } else {
                target = targetCount
                targetCount += 1
                targetIndex[ExactKey(page), default: [:]][ExactKey(entry.label)] = target
                if !targets.isEmpty { targets.append(UInt8(ascii: ",")) }
                targets.append(UInt8(ascii: "["))
                ListingBytes.appendDecimal(pageNumber, to: &targets)
                targets.append(UInt8(ascii: ","))
                JSONValue.appendQuoted(entry.label, to: &targets)
                targets.append(UInt8(ascii: "]"))
            }
            if !rows.isEmpty { rows.append(UInt8(ascii: ",")) }
            rows.append(UInt8(ascii: "["))
            ListingBytes.appendDecimal(kindIndex[entry.kind]!, to: &rows)
            rows.append(UInt8(ascii: ","))
            JSONValue.appendQuoted(entry.text, to: &rows)
            rows.append(UInt8(ascii: ","))
            ListingBytes.appendDecimal(target, to: &rows)
            if let anchor {
                if ExactKey.same(anchor, "page-" + entry.text) {
                    rows.append(UInt8(ascii: ","))
                    rows.append(UInt8(ascii: "1"))
                } else {
                    rows.append(UInt8(ascii: ","))
                    JSONValue.appendQuoted(anchor, to: &rows)
                }
            }
            rows.append(UInt8(ascii: "]"))
        }
        var json: [UInt8] = []
        json.reserveCapacity(pages.count + targets.count + rows.count + 512)
        json.append(#"{"kinds":["#)
        for (index, kind) in Kind.allCases.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONValue.appendQuoted(kind.rawValue, to: &json)
        }
        json.append(#"],"pages":["#)
        json.append(bytes: pages)
        json.append(#"],"targets":["#)
        json.append(bytes: targets)
        json.append(#"],"entries":["#)
        json.append(bytes: rows)
        json.append("]}")
        var script: [UInt8] = []
        script.reserveCapacity(json.count + Self.globalName.utf8.count + 16)
        script.append("self.")
        script.append(Self.globalName)
        script.append(" = ")
        // U+2028 and U+2029 are the bytes E2 80 A8 and E2 80 A9; most indexes have neither.
        if Self.containsLineSeparator(json) {
            script.append(Self.scriptSafe(String(decoding: json, as: UTF8.self)))
        } else {
            script.append(bytes: json)
        }
        script.append(";\n")
        return script
    }

    /// True when the UTF-8 `bytes` hold U+2028 or U+2029, which `scriptSafe` escapes.
    static func containsLineSeparator(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 2 < bytes.count {
                if bytes[index] == 0xE2, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 { return true }
                index += 1
            }
            return false
        }
    }

    /// `path` apart at its `#`: the page and the anchor.
    static func split(_ path: String) -> (page: String, anchor: String?) {
        // An ASCII path (every path the site makes) splits at its first `#` byte, without reading
        // it Character by Character (13,000 instructions a path, 214 M for the 1k sample's index).
        // In other text a `#` can be part of a larger Character, which the search must not match.
        // Both read from the String's storage: through the generic UTF-8 view they cost about
        // 2,300 instructions a path (37 M for the 1k sample's 15,975 entries).
        var path = path
        let (isASCII, hashOffset) = path.withUTF8 { bytes in (bytes.allSatisfy { $0 < 0x80 }, bytes.firstIndex(of: UInt8(ascii: "#"))) }
        if isASCII {
            guard let hashOffset else { return (path, nil) }
            let hash = path.utf8.index(path.utf8.startIndex, offsetBy: hashOffset)
            return (String(path[..<hash]), String(path[path.utf8.index(after: hash)...]))
        }
        guard let hash = path.firstIndex(of: "#") else { return (path, nil) }
        return (String(path[..<hash]), String(path[path.index(after: hash)...]))
    }

    /// JSON text that is also safe as JavaScript source: U+2028 and U+2029, which JSON allows raw
    /// in strings but older JavaScript reads as line ends, escaped. They occur only inside strings.
    static func scriptSafe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0 == "\u{2028}" || $0 == "\u{2029}" }) else { return json }
        // Written as UTF-8 bytes: appending a sequence to a `String.UnicodeScalarView` copies the
        // whole view each time, so N separators cost N² bytes copied.
        var output: [UInt8] = []
        output.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "\u{2028}": output.append(contentsOf: "\\u2028".utf8)
            case "\u{2029}": output.append(contentsOf: "\\u2029".utf8)
            default: Unicode.UTF8.encode(scalar) { output.append($0) }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension SiteModel {
    /// Everything the header's search finds on this site.
    public var searchIndex: SearchIndex {
        var collector = SearchIndexCollector(model: self)
        collector.collect()
        return SearchIndex(entries: collector.entries)
    }
}

/// Walks a model's snapshot and gathers the search entries, each once.
struct SearchIndexCollector {
    let model: SiteModel
    private(set) var entries: [SearchIndex.Entry] = []
    private var seen: Set<SeenEntry> = []
    /// Every copy of a funnel that its page counts among its uses, looked up once per copy found.
    private let shownCopies: Set<ShownCopy>

    /// An entry with its hash, made once: the set rehashes every entry it holds each time it
    /// grows, and an entry's hash reads its three strings (in the 1k build, 16,000 entries cost
    /// about 58 M instructions to insert, half of them in the set's growth).
    struct SeenEntry: Hashable {
        let entry: SearchIndex.Entry
        let hash: Int

        init(_ entry: SearchIndex.Entry) {
            self.entry = entry
            hash = entry.hashValue
        }

        static func == (lhs: SeenEntry, rhs: SeenEntry) -> Bool {
            lhs.hash == rhs.hash && lhs.entry == rhs.entry
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A funnel as served by a placement, directly (no variant) or through a variant.
    struct ShownCopy: Hashable {
        let funnelId: ExactKey
        let placementKey: ExactKey
        let variantId: ExactKey?
    }

    init(model: SiteModel) {
        self.model = model
        shownCopies = Set(
            model.funnels.lazy.flatMap { info in
                info.uses.lazy.map { ShownCopy(funnelId: ExactKey(info.funnel.id), placementKey: ExactKey($0.placementKey), variantId: $0.variantId.map(ExactKey.init)) }
            })
    }

    mutating func add(_ kind: SearchIndex.Kind, _ text: String, label: String, path: String) {
        guard !text.isEmpty else { return }
        // As every page shows snapshot text: hidden characters (bidi overrides, zero-width
        // characters) spelled out, so a result reads in order and shows what is there.
        let entry = SearchIndex.Entry(
            kind: kind, text: SnapshotText.spelledOut(text, oneLine: true), label: SnapshotText.spelledOut(label, oneLine: true), path: path)
        if seen.insert(SeenEntry(entry)).inserted { entries.append(entry) }
    }

    mutating func collect() {
        collectPlacements()
        // The snapshots of a series, each leading to its own page (issue 9 point 8).
        if let walk = model.walk {
            for (index, summary) in walk.snapshots.enumerated() {
                let label = SeriesWalk.label(summary.stamp)
                add(.snapshot, label, label: "snapshot \(SnapshotText.shortened(label))", path: walk.snapshotPath(index))
                add(.snapshot, summary.stamp.name, label: "snapshot \(SnapshotText.shortened(label))", path: walk.snapshotPath(index))
            }
        }
    }

    mutating func collectPlacements() {
        let file = model.snapshot.file
        for record in file.entries {
            let key = record.key
            let placementPath = model.placementPath(key)
            let placementLabel = "placement \(SnapshotText.shortened(key))"
            add(.placementKey, key, label: placementLabel, path: placementPath)
            guard let entry = record.entry else {
                add(.skippedContent, skippedText(of: record.value.node), label: "skipped \(placementLabel)", path: placementPath)
                addSkippedExperiment(of: key, placementLabel: placementLabel)
                continue
            }
            if let placement = entry.placement, !ExactKey.same(placement.identifier, key) {
                add(.placementIdentifier, placement.identifier, label: placementLabel, path: placementPath)
            }
            if let paywall = entry.paywall {
                addPaywall(paywall, label: "paywall \(SnapshotText.shortened(paywall.id)) on \(placementLabel)", path: placementPath)
            }
            if let funnel = entry.funnel {
                addFunnel(funnel, placementKey: key, variantId: nil, fallback: placementPath)
            }
            if let experiment = entry.experiment {
                let decides = entry.offlineTarget.decidingExperiment != nil
                let experimentPath = decides ? model.experimentInfo(placementKey: key).map { "experiments/\($0.fileName).html" } : nil
                let path = experimentPath ?? placementPath
                let label = "experiment on \(placementLabel)"
                add(.experimentId, experiment.id, label: label, path: path)
                add(.experimentKey, experiment.key, label: label, path: path)
                let variantsPath = experimentPath.map { $0 + "#variants" } ?? placementPath
                for variant in experiment.variants {
                    let variantLabel = "variant \(SnapshotText.shortened(variant.variantId)) of the experiment on \(placementLabel)"
                    add(.variantId, variant.variantId, label: label, path: variantsPath)
                    if let paywall = variant.paywall {
                        addPaywall(paywall, label: "paywall \(SnapshotText.shortened(paywall.id)) of \(variantLabel)", path: variantsPath)
                    }
                    if let funnel = variant.funnel {
                        addFunnel(funnel, placementKey: decides ? key : nil, variantId: variant.variantId, fallback: experimentPath ?? placementPath)
                    }
                }
            }
        }
    }

    /// The id and key of the experiment a skipped entry carries, as written (when they are strings),
    /// leading to the page that says why the entry fails.
    mutating func addSkippedExperiment(of key: String, placementLabel: String) {
        guard let index = model.skippedExperimentIndex[ExactKey(key)] else { return }
        let info = model.skippedExperiments[index]
        let value = model.snapshot.file.document.value(at: info.experimentNode)
        let path = "experiments/\(info.fileName).html"
        let label = "skipped experiment on \(placementLabel)"
        if let id = SiteModel.member(Experiment.Field.id, of: value)?.string { add(.experimentId, id, label: label, path: path) }
        if let experimentKey = SiteModel.member(Experiment.Field.key, of: value)?.string { add(.experimentKey, experimentKey, label: label, path: path) }
    }

    /// A funnel's ids, pages and paywalls: on the funnel's page when this copy is one its page
    /// counts among its uses (served by `placementKey`, through `variantId`), else on `fallback`.
    mutating func addFunnel(_ funnel: Funnel, placementKey: String?, variantId: String?, fallback: String) {
        SiteModel.record(.funnelUseLookup, 1)
        let served = placementKey.map {
            shownCopies.contains(ShownCopy(funnelId: ExactKey(funnel.id), placementKey: ExactKey($0), variantId: variantId.map(ExactKey.init)))
        }
        let shown = served == true ? model.funnelInfo(id: funnel.id) : nil
        let funnelPath = shown.map { "funnels/\($0.fileName).html" }
        let name = SnapshotText.shortened(funnel.name ?? funnel.slug)
        let label = "funnel \(name)"
        add(.funnelId, funnel.id, label: name, path: funnelPath ?? fallback)
        add(.funnelSlug, funnel.slug, label: name, path: funnelPath ?? fallback)
        if let funnelName = funnel.name { add(.funnelName, funnelName, label: SnapshotText.shortened(funnel.id), path: funnelPath ?? fallback) }
        // Rows are anchored as the funnel page anchors them: by the shown copy's page ids.
        let rows = shown.map(model.pageRows)
        for page in funnel.pages {
            var path = fallback
            if let funnelPath, let anchor = rows?.anchor(of: page.id) { path = funnelPath + "#" + anchor }
            add(.pageId, page.id, label: name, path: path)
        }
        for (paywallKey, paywall) in zip(funnel.paywalls?.keys ?? [], funnel.paywalls?.values ?? []) {
            let path = funnelPath ?? fallback
            let paywallLabel = "paywall \(SnapshotText.shortened(paywallKey)) in \(label)"
            if !ExactKey.same(paywallKey, paywall.id) { add(.paywallId, paywallKey, label: paywallLabel, path: path) }
            addPaywall(paywall, label: paywallLabel, path: path)
        }
    }

    /// A paywall's id, identifier and the store product ids of its offering's packages: on the
    /// paywall's page, else on `path`.
    mutating func addPaywall(_ paywall: Paywall, label: String, path fallback: String) {
        let path = model.paywallPath(paywall.id) ?? fallback
        add(.paywallId, paywall.id, label: label, path: path)
        add(.paywallIdentifier, paywall.identifier, label: label, path: path)
        for package in paywall.offering?.packages ?? [] {
            for product in [package.storeIds.apple, package.storeIds.google].compactMap({ $0 }) {
                add(.productId, product, label: label, path: path)
            }
        }
    }

    /// The first `skippedTextLimit` bytes of a skipped entry's text as written, its runs of white
    /// space made one space, cut at a character.
    func skippedText(of node: Int) -> String {
        let range = model.snapshot.file.document.value(at: node).byteRange
        let bytes = model.snapshot.bytes
        var output: [UInt8] = []
        output.reserveCapacity(min(range.count, SearchIndex.skippedTextLimit))
        var index = range.lowerBound
        while index < range.upperBound, output.count < SearchIndex.skippedTextLimit {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if output.last != 0x20 { output.append(0x20) }
            } else {
                output.append(byte)
            }
            index += 1
        }
        // Never end inside a UTF-8 sequence: drop a lead byte's incomplete tail.
        while let last = output.last, last & 0xC0 == 0x80 || last >= 0xC0 {
            let start = output.lastIndex { $0 & 0xC0 != 0x80 } ?? 0
            let length = output.count - start
            let lead = output[start]
            let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if length >= needed { break }
            output.removeSubrange(start...)
        }
        return String(decoding: output, as: UTF8.self)
    }
}
