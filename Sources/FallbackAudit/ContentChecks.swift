import Foundation
import RovenueFallback

extension AuditRun {
    // MARK: Translations and plain copy

    /// The copy of a funnel's pages, each text, text list and option label read once for both rules:
    ///
    /// - `translation-missing`, for a funnel that declares `locales`: every localized text, text
    ///   list and option label must have non-blank copy for each declared locale;
    /// - `text-not-localized`, for a funnel that declares several locales: one finding per page
    ///   listing its plain texts, text lists and option labels that have letters (`PlainCopy`), at
    ///   the first of them in the file.
    ///
    /// Findings are sorted by place and rule afterwards (`Audit.sorted`), so reporting both rules
    /// page by page gives the order that reporting one rule over every page, then the other, gives.
    mutating func checkCopy(_ context: FunnelContext) {
        let funnel = context.funnel
        let translations = isEnabled(.translationMissing) && !(funnel.locales?.isEmpty ?? true)
        let plainCopy = isEnabled(.textNotLocalized) && PlainCopy.hasUntranslatedLocales(funnel)
        guard translations || plainCopy else { return }
        // Indexed only when the translations are checked (a funnel whose copy is checked for plain
        // texts alone does not look its locales up).
        var declared = DeclaredLocales(translations ? funnel.locales ?? [] : [])
        // Spelled for the first page reported: most funnels have none.
        var wording: PlainCopyWording?
        let pages = context.pages
        for index in pages.indices {
            // `pages[index]` each time, not a copy of the page: a page has many fields to retain.
            var plainFields: [(name: String, node: Int)] = []
            for field in Page.Field.textFields {
                switch pages[index].text(field) {
                case .localized(let map)?:
                    guard translations, let gaps = declared.gaps(in: map, Self.textGap) else { continue }
                    reportTranslationGaps(gaps, of: field, onPage: index, context)
                case .plain(let text)?:
                    if plainCopy, !PlainCopy.isLanguageNeutral(text) { plainFields.append((field.rawValue, node(of: field, in: pages[index]))) }
                case nil:
                    continue
                }
            }
            for field in Page.Field.textListFields {
                switch pages[index].textList(field) {
                case .localized(let map)?:
                    guard translations, let gaps = declared.gaps(in: map, Self.listGap) else { continue }
                    reportTranslationGaps(gaps, of: field, onPage: index, context)
                case .plain(let list)?:
                    if plainCopy, list.contains(where: { !PlainCopy.isLanguageNeutral($0) }) {
                        plainFields.append((field.rawValue, node(of: field, in: pages[index])))
                    }
                case nil:
                    continue
                }
            }
            if let options = pages[index].options {
                for option in options.indices {
                    switch options[option].label {
                    case .localized(let map):
                        guard translations, let gaps = declared.gaps(in: map, Self.textGap) else { continue }
                        reportTranslationGaps(
                            gaps, what: "Page \(Format.quoted(pages[index].id)) option \(Format.quoted(options[option].value)) label",
                            funnel: funnel, fieldNode: node(of: .label, in: options[option]), about: context.page(index))
                    case .plain(let text):
                        if plainCopy, !PlainCopy.isLanguageNeutral(text) {
                            plainFields.append(("option \(Format.quoted(options[option].value)) label", node(of: .label, in: options[option])))
                        }
                    }
                }
            }
            if !plainFields.isEmpty {
                let words = wording ?? PlainCopyWording(funnel)
                wording = words
                reportPlainCopy(plainFields, on: index, context, words)
            }
        }
    }

    private static func textGap(_ text: String?) -> String? {
        guard let text else { return "missing" }
        return Format.isBlank(text) ? "blank" : nil
    }

    private static func listGap(_ list: [String]?) -> String? {
        guard let list else { return "missing" }
        if list.isEmpty { return "an empty list" }
        return list.contains(where: Format.isBlank) ? "a blank item" : nil
    }

    /// Reports the gaps of the text or text list `field` of page `index`.
    private mutating func reportTranslationGaps(
        _ gaps: TranslationGaps, of field: Page.Field, onPage index: Int, _ context: FunnelContext
    ) {
        reportTranslationGaps(
            gaps, what: "Page \(Format.quoted(context.pages[index].id)) \(field.rawValue)", funnel: context.funnel,
            fieldNode: node(of: field, in: context.pages[index]), about: context.page(index))
    }

    private mutating func reportTranslationGaps(
        _ gaps: TranslationGaps, what: String, funnel: Funnel, fieldNode: Int, about subject: FindingSubject
    ) {
        guard gaps.count > 0, let first = gaps.listed.first else { return }
        // The first few of each list: pasted whole into each page's finding, N pages' gaps in N
        // declared locales made N² of text.
        let more = gaps.count > Format.listedLimit ? ", and \(gaps.count - Format.listedLimit) more" : ""
        let listed = gaps.listed.prefix(Format.listedLimit).map { "\(Format.quoted($0.locale)) (\($0.gap))" }.joined(separator: ", ") + more
        let plural = gaps.count == 1 ? "locale" : "locales"
        var anchor = fieldNode
        if gaps.count == 1, let localeNode = document.value(at: fieldNode)[first.locale] {
            anchor = localeNode.index
        }
        report(
            .translationMissing,
            "\(what) has no copy for \(plural) \(listed), though funnel \(Format.quoted(funnel.id)) declares "
                + "\(Format.quotedList(funnel.locales ?? [], limit: Format.listedLimit)): a first launch in "
                + "\(gaps.count == 1 ? "that locale" : "those locales") shows it blank or in another language. Add the "
                + "translation.",
            about: subject, at: anchor)
    }

    /// The declared locales, the devices that show plain copy untranslated and the locale it is
    /// written in, as a `text-not-localized` message names them: the first `Format.listedLimit` of
    /// each list, as each page's finding repeats them.
    struct PlainCopyWording {
        let declared: String
        let devices: String
        let written: String

        init(_ funnel: Funnel) {
            declared = Format.quotedList(funnel.locales ?? [], limit: Format.listedLimit)
            let untranslated = PlainCopy.untranslatedLocales(of: funnel)
            devices = untranslated.prefix(Format.listedLimit).map(Format.quoted).joined(separator: " or ")
                + (untranslated.count > Format.listedLimit ? " or \(untranslated.count - Format.listedLimit) more" : "")
            written = PlainCopy.writtenLocale(of: funnel).map { " (\(Format.quoted($0)))" } ?? ""
        }
    }

    /// Reports the plain texts `fields` of page `index`, at the first of them in the file.
    private mutating func reportPlainCopy(
        _ fields: [(name: String, node: Int)], on index: Int, _ context: FunnelContext, _ wording: PlainCopyWording
    ) {
        guard let first = fields.min(by: { $0.node < $1.node }) else { return }
        let (declared, devices, written) = (wording.declared, wording.devices, wording.written)
        var listed = fields.prefix(Self.listedPlainCopy).map(\.name)
        if fields.count > Self.listedPlainCopy { listed.append("and \(fields.count - Self.listedPlainCopy) more") }
        let one = fields.count == 1
        report(
            .textNotLocalized,
            "Page \(Format.quoted(context.pages[index].id)) of funnel \(Format.quoted(context.funnel.id)) has \(fields.count) plain "
                + "\(one ? "text" : "texts") (\(listed.joined(separator: ", "))) in a funnel that declares \(declared): "
                + "a first launch in \(devices) shows \(one ? "it" : "them") as written, in the default locale's "
                + "words\(written). Write \(one ? "it" : "each") as an object with the copy for every declared locale.",
            about: context.page(index), at: first.node)
    }

    /// How many plain texts a `text-not-localized` message names before it counts the rest.
    static let listedPlainCopy = 5

    // MARK: Remote media

    /// Keys whose values are links a user may open, not media a screen loads.
    static let linkKeys: Set<String> = [
        "action", "href", "link", "deepLink", "termsUrl", "privacyUrl", "privacyPolicyUrl", "termsOfServiceUrl",
        "termsOfUseUrl", "supportUrl", "websiteUrl", "app_store_url", "play_store_url",
    ]
    /// Keys whose (non-empty, non-`data:`) strings are media URLs, whatever their scheme.
    package static let mediaKeys: Set<String> = [
        "mediaUrl", "imageUrl", "videoUrl", "logoUrl", "iconUrl", "posterUrl", "thumbnailUrl", "backgroundImage",
        "backgroundUrl", "url", "src",
    ]
    /// Keys of a page that hold copy or branching, never media.
    static let copyKeys: Set<String> = Set(
        (Page.Field.textFields + Page.Field.textListFields + [.nextRules, .defaultNext, .questionId, .paywallId]).map(\.rawValue)
            + [PageOption.Field.label.rawValue])

    mutating func checkPageMedia(_ context: FunnelContext, _ index: Int) {
        let pages = context.pages
        let node = pages[index].source.node
        guard let found = media.rememberedURLs(under: node, skippingCopy: true) else { return }
        report(
            .remoteMedia,
            Format.joined(
                "Page ", Format.quoted(pages[index].id), " of funnel ", Format.quoted(context.funnel.id), " loads ",
                found.countText, " that an offline first launch cannot fetch: ", found.listText,
                ". Bundle the asset or make the page work without it."),
            about: context.page(index), at: node)
    }

    mutating func checkThemeMedia(_ funnel: Funnel, about served: FindingSubject.ServedFunnel) {
        guard let theme = funnel.theme, let found = media.rememberedURLs(under: theme.index) else { return }
        report(
            .remoteMedia,
            Format.joined(
                "The theme of funnel ", Format.quoted(funnel.id), " loads ", found.countText,
                " that an offline first launch cannot fetch: ", found.listText,
                ". Every page shows it; bundle the asset or leave it empty."),
            about: .funnel(served), at: theme.index)
    }

    /// A paywall's `builderConfig` images. `remoteConfig.data` is the app's own data and is not read.
    mutating func checkPaywallMedia(_ paywall: Paywall, of owner: FindingSubject.PaywallOwner, checked: inout CheckedContent) {
        guard isEnabled(.remoteMedia) else { return }
        guard insert(id: paywall.id, node: paywall.source.node, into: &checked.paywalls) else {
            return
        }
        guard let config = paywall.builderConfig, let found = media.rememberedURLs(under: config.index) else {
            return
        }
        report(
            .remoteMedia,
            Format.joined(
                "Paywall ", Format.quoted(paywall.id), " loads ", found.countText,
                " in its builderConfig that an offline first launch cannot fetch: ", found.listText,
                ". The paywall renders without them; bundle the assets or design for their absence."),
            about: .paywall(of: owner, id: ExactKey(paywall.id)), at: config.index)
    }
}

/// A text's `translation-missing` gaps: how many declared locales it has no usable copy for
/// (one per declaration: a locale declared twice and missing is two), and the first
/// `Format.listedLimit` of them in declaration order, each with what is wrong (`missing`, `blank`, …).
struct TranslationGaps {
    let count: Int
    let listed: [(locale: String, gap: String)]
}

/// A funnel's declared locales, matched against each localized text's map by the keys' bytes
/// (`ExactKey`, as `OrderedMap` matches them): a text's gaps (`gaps(in:_:)`) in work that grows
/// with the text's own locales, not with every locale the funnel declares.
///
/// A funnel declaring N locales, whose N pages each have copy in one of them, has N - 1 gaps on
/// every page. Found by going through the declared locales for each text (as the check did), they
/// made its time quadratic in a file of linear size: 1.9 s of CPU for 10,000 pages and locales, 41
/// times the time of 1,000. Here each of a text's keys that is a declared locale with usable copy
/// rules out every declaration of that locale, and the rest are the gaps; the first few are then
/// found in declaration order, passing over only locales the text has.
struct DeclaredLocales {
    /// How many locales are declared, repeats included.
    private let declaredCount: Int
    /// The distinct declared locales in order of first declaration: the declared list itself when
    /// no locale repeats (then a locale's distinct index is its position).
    private let distinct: [String]
    /// The distinct locales' index, when they are more than a scan's worth (`OrderedMap.linearLimit`).
    private let lookup: OrderedMap<Int>?
    /// Only when a locale repeats: each distinct locale's first position among the declarations,
    /// how many times it is declared, and for each declaration the position of the next one of
    /// the same locale (or -1).
    private let firstPositions: [Int]
    private let declarations: [Int]
    private let nextSame: [Int]
    /// Per distinct locale: the number of the last text whose map has it, and that copy's gap (nil
    /// when usable), set only for a text with gaps. Numbers start at 1, so 0 is no text. Made at
    /// the first text with gaps.
    private var marks: [Mark] = []
    /// The number of the text last matched (internal: a test starts it near the wraparound).
    var textNumber: UInt32 = 0
    /// The keys of the last map matched, each one's distinct index (-1 for none): the decoder
    /// shares one keys array among the consecutive maps of a funnel written with the same keys, so
    /// most texts are matched without looking a key up. The array is held, so its storage is not
    /// reused for other keys while it is remembered.
    private var lastKeys: [String] = []
    private var lastIndices: [Int] = []

    private struct Mark {
        var text: UInt32
        var problem: String?
    }

    /// The index of a funnel's `locales`. Nothing is allocated for a few locales that do not
    /// repeat, as nearly every funnel declares; the marks are made at the first text with gaps.
    init(_ locales: [String]) {
        declaredCount = locales.count
        let few = locales.count <= OrderedMap<Int>.linearLimit
        if few, !locales.indices.contains(where: { position in locales[..<position].contains { ExactKey.same($0, locales[position]) } }) {
            (distinct, lookup, firstPositions, declarations, nextSame) = (locales, nil, [], [], [])
            return
        }
        // Any other list (a long one, or one that repeats) is indexed in blocks at its final size
        // (`KeyPositions.insert(keysAt:…)`), which also finds its repeats. Looked up and set one
        // locale at a time, in a table that grew as it filled, each probe missed the cache, and
        // 2,000,000 locales took 30% of their `check`.
        var index = KeyPositions(capacity: locales.count)
        // For each declaration, the position of the first of its locale; -1 for a first one.
        var firstOf: [Int] = []
        index.insert(keysAt: locales.indices, key: { locales[$0] }) { position, first in
            if firstOf.isEmpty { firstOf = [Int](repeating: -1, count: locales.count) }
            firstOf[position] = first
        }
        // Nearly every list: no locale repeats, and the index is the lookup's.
        guard !firstOf.isEmpty else {
            let lookup = OrderedMap(distinctKeys: locales, values: Array(locales.indices), index: index)
            (distinct, self.lookup, firstPositions, declarations, nextSame) = (locales, lookup, [], [], [])
            return
        }
        var distinct: [String] = []
        var firstPositions: [Int] = []
        var declarations: [Int] = []
        var lastPosition: [Int] = []
        var nextSame = [Int](repeating: -1, count: locales.count)
        // The distinct index of each first declaration, by its position.
        var distinctIndex = [Int](repeating: -1, count: locales.count)
        for position in locales.indices {
            let first = firstOf[position]
            if first < 0 {
                distinctIndex[position] = distinct.count
                distinct.append(locales[position])
                firstPositions.append(position)
                declarations.append(1)
                lastPosition.append(position)
            } else {
                let index = distinctIndex[first]
                nextSame[lastPosition[index]] = position
                lastPosition[index] = position
                declarations[index] += 1
            }
        }
        self.distinct = distinct
        lookup = distinct.count > OrderedMap<Int>.linearLimit ? OrderedMap(keys: distinct, values: firstPositions) : nil
        self.firstPositions = firstPositions
        self.declarations = declarations
        self.nextSame = nextSame
    }

    /// The distinct index of the declared locale with `key`'s bytes; nil when none is.
    private func distinctIndex(of key: String) -> Int? {
        if let lookup { return lookup.index(of: key) }
        return distinct.firstIndex { ExactKey.same($0, key) }
    }

    /// The gaps of the text whose copy per locale is `map`; nil when it has none. `gap` says what
    /// is wrong with a locale's copy (nil when it is usable), and with no copy at all (`gap(nil)`,
    /// never nil).
    mutating func gaps<Value>(in map: OrderedMap<Value>, _ gap: (Value?) -> String?) -> TranslationGaps? {
        guard declaredCount > 0 else { return nil }
        // Each key's distinct index; many keys are looked up a block at a time in a large index
        // (`OrderedMap.indices(of:)`).
        let keys = map.keys
        // The same keys: the same array, or the same string values (the decoder makes a repeated
        // locale once per thread, and a locale is short enough to be stored inline, so maps decoded
        // apart nearly always have keys of the same values).
        let sameKeys = keys.count == lastKeys.count
            && (keys.withUnsafeBufferPointer { $0.baseAddress } == lastKeys.withUnsafeBufferPointer { $0.baseAddress }
                || zip(keys, lastKeys).allSatisfy { ExactKey.sameRepresentation($0, $1) })
        if !sameKeys {
            if let lookup, keys.count > OrderedMap<Int>.linearLimit {
                lastIndices = lookup.indices(of: keys).map { $0 ?? -1 }
            } else {
                lastIndices = keys.map { distinctIndex(of: $0) ?? -1 }
            }
            lastKeys = keys
        }
        // Every declaration of a locale this text has usable copy for is not a gap. Most texts have
        // none: they are answered by this count alone.
        let values = map.values
        var usable = 0
        lastIndices.withUnsafeBufferPointer { indices in
            for (position, index) in indices.enumerated() where index >= 0 && gap(values[position]) == nil {
                usable += declarations.isEmpty ? 1 : declarations[index]
            }
        }
        let count = declaredCount - usable
        guard count > 0 else { return nil }
        // Which locales this text has, and what is wrong with their copy, for the listing.
        if marks.isEmpty { marks = [Mark](repeating: Mark(text: 0, problem: nil), count: distinct.count) }
        textNumber &+= 1
        if textNumber == 0 {
            for index in marks.indices { marks[index].text = 0 }
            textNumber = 1
        }
        for (position, index) in lastIndices.enumerated() where index >= 0 {
            marks[index] = Mark(text: textNumber, problem: gap(values[position]))
        }
        // The first few gaps in declaration order. They are among the declarations of the first
        // `limit` locales (by first declaration) that are gaps: those give `limit` gaps at or before
        // the last one's first declaration, and every other gap comes after it. Going through the
        // locales in that order passes over only the ones the text has usable copy for.
        let limit = Format.listedLimit
        let missing = gap(nil) ?? "missing"
        var found: [(position: Int, locale: String, gap: String)] = []
        var gapLocales = 0
        for index in distinct.indices {
            if gapLocales == limit { break }
            let mark = marks[index]
            let has = mark.text == textNumber
            if has, mark.problem == nil { continue }
            let what = has ? mark.problem! : missing
            var position = firstPositions.isEmpty ? index : firstPositions[index]
            var taken = 0
            while position >= 0, taken < limit {
                found.append((position, distinct[index], what))
                taken += 1
                position = nextSame.isEmpty ? -1 : nextSame[position]
            }
            gapLocales += 1
        }
        if !nextSame.isEmpty { found.sort { $0.position < $1.position } }
        return TranslationGaps(count: count, listed: found.prefix(limit).map { ($0.locale, $0.gap) })
    }
}

/// The media URLs found under one value: how many, and the first few with their paths.
struct FoundMedia {
    static let listedLimit = 5
    /// The most characters of a path or URL `listText` writes: past that, or past four times as
    /// many Unicode scalars (text heavy with combining marks), it is cut, with `…`
    /// (`Format.shortened(_:toCharacters:)`). Real URLs stay whole (2,048 is about the longest
    /// that browsers, CDNs and sitemaps accept), and a URL of megabytes does not put megabytes
    /// into the message, and so into every report. `listed` keeps them whole (`RemoteMedia`).
    static let listedTextLimit = 2048

    var count = 0
    var listed: [(path: String, url: String)] = []
    /// `listText`, spelled once for a result that `MediaScanMemory` keeps.
    private var spelledList: String?

    var countText: String {
        count == 1 ? "1 remote URL" : "\(count) remote URLs"
    }

    /// This result with its `listText` spelled, for one that is handed out again: a remembered
    /// result is only ever read as `countText` and `listText`, so it keeps the one string, not the
    /// listed paths and URLs (each remembered text's strings were destroyed one by one on the main
    /// thread when the pass let its memory go: 2-3 ms at the end of a 10,000-placement `check`).
    func withListSpelled() -> FoundMedia {
        var spelled = FoundMedia()
        spelled.count = count
        spelled.spelledList = listText
        return spelled
    }

    /// `path url, path url, and 3 more`.
    ///
    /// Written as UTF-8 into one buffer and made a string once: a string grown by `+=` reallocates
    /// and pays hundreds of instructions an append, and a result is spelled for every remembered scan.
    var listText: String {
        if let spelledList { return spelledList }
        var text: [UInt8] = []
        let items = listed.map { (Format.shortened($0.path, toCharacters: Self.listedTextLimit), Format.shortened($0.url, toCharacters: Self.listedTextLimit)) }
        text.reserveCapacity(items.reduce(24) { $0 + $1.0.utf8.count + $1.1.utf8.count + 3 })
        for (index, (path, url)) in items.enumerated() {
            if index > 0 { text.append(contentsOf: ", ".utf8) }
            text.append(contentsOf: path.utf8)
            text.append(UInt8(ascii: " "))
            text.append(contentsOf: url.utf8)
        }
        if count > Self.listedLimit {
            if !listed.isEmpty { text.append(contentsOf: ", ".utf8) }
            text.append(contentsOf: "and \(count - Self.listedLimit) more".utf8)
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Media URLs under one value: strings under a media key, and http(s) URLs anywhere, except under
/// link keys and, on a page, copy keys.
///
/// Walks the value's nodes in text order; a URL's slash-separated path (keys and element positions)
/// is spelled only for the URLs a message lists.
struct MediaScan {
    /// What a member's key says about the value under it.
    private static let excluded: UInt8 = 1
    private static let excludedOnPage: UInt8 = 2
    private static let media: UInt8 = 4

    /// The keys the scan knows (all ASCII, none with a backslash) in an open-addressed table of
    /// `slotCount` slots, found by their length and first eight bytes.
    struct KnownKeys {
        static let slotCount = 128
        /// Each slot's key length, -1 for an empty slot.
        private var lengths = [Int](repeating: -1, count: KnownKeys.slotCount)
        /// The first eight bytes, packed little-endian, zero past the end.
        private var heads = [UInt64](repeating: 0, count: KnownKeys.slotCount)
        private var bytes = [[UInt8]](repeating: [], count: KnownKeys.slotCount)
        private var flags = [UInt8](repeating: 0, count: KnownKeys.slotCount)
        /// The longest key's length.
        private(set) var longest = 0

        init() {
            var flags: [String: UInt8] = [:]
            for key in AuditRun.linkKeys { flags[key, default: 0] |= MediaScan.excluded }
            for key in AuditRun.copyKeys { flags[key, default: 0] |= MediaScan.excludedOnPage }
            for key in AuditRun.mediaKeys { flags[key, default: 0] |= MediaScan.media }
            self.init(flags: flags)
        }

        /// A table of `flags`' keys (plain ASCII, fewer than `slotCount`), each with its flags.
        init(flags: [String: UInt8]) {
            precondition(flags.count < KnownKeys.slotCount / 2, "a known-key table stays at most half full")
            for (key, keyFlags) in flags.sorted(by: { $0.key < $1.key }) {
                let keyBytes = Array(key.utf8)
                precondition(!keyBytes.contains { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }, "known keys are plain ASCII")
                let head = keyBytes.withUnsafeBufferPointer { KnownKeys.head($0, start: 0, length: keyBytes.count) }
                var slot = KnownKeys.slot(head: head, length: keyBytes.count)
                while lengths[slot] >= 0 { slot = (slot + 1) % KnownKeys.slotCount }
                lengths[slot] = keyBytes.count
                heads[slot] = head
                bytes[slot] = keyBytes
                self.flags[slot] = keyFlags
                longest = max(longest, keyBytes.count)
            }
        }

        private static func slot(head: UInt64, length: Int) -> Int {
            Int(truncatingIfNeeded: ((head &+ UInt64(length)) &* 0x9E37_79B9_7F4A_7C15) >> 57) % slotCount
        }

        /// The first eight bytes of `buffer[start..<start + length]`, packed little-endian, zero
        /// past the end: one load when eight bytes are there to read.
        static func head(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> UInt64 {
            if start + 8 <= buffer.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + start).loadUnaligned(as: UInt64.self))
                guard length < 8 else { return word }
                let kept: UInt64 = (1 << UInt64(8 * length)) &- 1
                return word & kept
            }
            var head: UInt64 = 0
            for offset in 0..<min(length, 8) { head |= UInt64(buffer[start + offset]) << (8 * offset) }
            return head
        }

        /// The flags of the known key whose bytes are `text`'s UTF-8; nil when no known key has these bytes.
        func flags(of text: String) -> UInt8? {
            var text = text
            return text.withUTF8 { flags(of: $0, start: 0, length: $0.count) }
        }

        /// The flags of the known key whose bytes are exactly `buffer[start..<start + length]`;
        /// nil when no known key has these bytes.
        func flags(of buffer: UnsafeBufferPointer<UInt8>, start: Int, length: Int) -> UInt8? {
            guard length <= longest else { return nil }
            let head = KnownKeys.head(buffer, start: start, length: length)
            var slot = KnownKeys.slot(head: head, length: length)
            while lengths[slot] >= 0 {
                if lengths[slot] == length, heads[slot] == head {
                    if length <= 8 { return flags[slot] }
                    let known = bytes[slot]
                    if (8..<length).allSatisfy({ buffer[start + $0] == known[$0] }) { return flags[slot] }
                }
                slot = (slot + 1) % KnownKeys.slotCount
            }
            return nil
        }
    }

    private static let knownKeys = KnownKeys()

    let document: JSONDocument
    private let bytes: [UInt8]
    private let knownKeys = MediaScan.knownKeys
    private var excludedMask = MediaScan.excluded
    private var found = FoundMedia()
    /// The value being scanned: where paths start.
    private var root = 0
    /// The path from `root` to the value being scanned: a member's key node, or `-(position + 1)`
    /// for an element. Kept while walking, so spelling a URL's path never walks siblings again.
    private var pathTokens: [Int] = []
    /// Earlier scans by their value's text, shared by every scan of the pass.
    private let memory: MediaScanMemory
    /// What this scan has looked up or scanned itself: asked first, without `memory`'s lock. A
    /// chunk of entries repeats its own few themes and builderConfigs, and two threads taking the
    /// shared lock for each of them slept on it dozens of times a run.
    private(set) var ownTexts = ScannedTexts()

    /// How many URLs a scan spells out with their paths (all of them are counted).
    private let listingLimit: Int
    /// How a member's key is written in a spelled path; nil: as it is.
    private let keySpelling: ((String) -> String)?
    /// `keySpelling` of each key node met, so that a key under many URLs is spelled once.
    private var spelledKeys: [Int: String] = [:]

    /// A scan of `document`'s values that remembers its results in `memory` (one of its own when
    /// nil); scans that share a memory must share the document and the listing limit. With
    /// `keySpelling`, a spelled path writes each member's key as `keySpelling` returns for the
    /// key's decoded text (and `memory` is not to be shared with scans without it).
    init(
        document: JSONDocument, listingLimit: Int = FoundMedia.listedLimit, memory: MediaScanMemory? = nil,
        keySpelling: ((String) -> String)? = nil
    ) {
        self.document = document
        self.listingLimit = listingLimit
        self.memory = memory ?? MediaScanMemory()
        self.keySpelling = keySpelling
        bytes = document.bytes
    }

    /// The media URLs under the value at `node`, nil when there are none; with `skippingCopy`,
    /// members under a page's copy keys are not read.
    mutating func urls(under node: Int, skippingCopy: Bool) -> FoundMedia? {
        excludedMask = skippingCopy ? MediaScan.excluded | MediaScan.excludedOnPage : MediaScan.excluded
        root = node
        pathTokens.removeAll(keepingCapacity: true)
        scan(node, isMedia: false)
        defer { found = FoundMedia() }
        return found.count > 0 ? found : nil
    }

    /// `urls(under:skippingCopy: false)`, remembered by the value's text: an export repeats a
    /// paywall's builderConfig in every funnel that carries it, and a theme in every funnel.
    ///
    /// What a scan finds, paths included, depends only on the value's text, so a value with the
    /// same bytes as one scanned before gets that scan's result.
    ///
    /// The results are kept in the scan's `MediaScanMemory`, which every chunk of an audit pass
    /// shares: an export repeats the same few builderConfigs across thousands of placements, more
    /// than one chunk holds.
    ///
    /// With `skippingCopy`, the same for a page: `urls(under:skippingCopy: true)`. Funnels built
    /// from one template repeat most of their pages' text.
    ///
    /// A page whose bytes cannot hold a media URL (`mayHoldMedia`), as most cannot, is answered
    /// without a scan. (A builderConfig or a theme nearly always can, and is nearly always remembered.)
    mutating func rememberedURLs(under node: Int, skippingCopy: Bool = false) -> FoundMedia? {
        let range = document.byteRange(ofNode: node)
        if skippingCopy, !bytes.withUnsafeBufferPointer({ MediaScan.mayHoldMedia($0, range) }) { return nil }
        let fingerprint = bytes.withUnsafeBytes { MediaScan.fingerprint($0, range) }
        if let earlier = ScannedTexts.found(in: ownTexts.candidates(fingerprint), skippingCopy: skippingCopy, same: { sameBytes($0, range) }) {
            return earlier
        }
        let found: FoundMedia?
        if let earlier = memory.found(fingerprint: fingerprint, skippingCopy: skippingCopy, same: { sameBytes($0, range) }) {
            found = earlier
        } else {
            found = urls(under: node, skippingCopy: skippingCopy)?.withListSpelled()
            memory.remember(found, fingerprint: fingerprint, skippingCopy: skippingCopy, range: range)
        }
        ownTexts.remember(found, fingerprint: fingerprint, skippingCopy: skippingCopy, range: range)
        return found
    }

    /// The last two bytes of each media key, packed as `pair(_:_:)` packs them, as a set of bits:
    /// bit `pair % 64` of word `pair / 64`.
    private static let mediaKeyEndings: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: 1 << 10)
        for key in AuditRun.mediaKeys {
            let bytes = Array(key.utf8)
            precondition(bytes.count >= 2, "a media key has two bytes or more")
            // `hasTellingEscape` lets escapes of anything but letters, `:` and `/` through. An
            // escaped key is compared as a `String`, by canonical equivalence, and U+212A KELVIN
            // SIGN is equivalent to `K`: a key with a `K` could be spelled with it unnoticed.
            precondition(
                bytes.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") && $0 != UInt8(ascii: "K") },
                "a media key is ASCII letters other than K")
            let ending = Int(pair(bytes[bytes.count - 2], bytes[bytes.count - 1]))
            bits[ending >> 6] |= 1 << UInt64(ending & 63)
        }
        return bits
    }()

    private static func pair(_ first: UInt8, _ second: UInt8) -> UInt16 { UInt16(first) << 8 | UInt16(second) }

    /// False when the JSON value `buffer[range]` cannot hold a URL the scan counts, whatever keys it
    /// skips, read with `memchr` rather than node by node; true when it may.
    ///
    /// Without a telling escape (`hasTellingEscape`), every `:` and `/` of the value's strings and
    /// keys is one in its bytes, and so is every ASCII letter. Then an http(s) URL has `://` in the
    /// bytes, and a media key (`AuditRun.mediaKeys`, letters only) is a key whose closing quote
    /// comes after one of the keys' last two bytes and before whitespace and a colon. So a value
    /// with no telling escape, no `://` and no colon after such a key holds none; most pages are
    /// such values, whether their copy is written as UTF-8 or escaped (`\u00e1`).
    ///
    /// Runs once per colon of most pages: the bytes are read through the base pointer (the range
    /// is checked once against the buffer), and a key's ending is one bit of `mediaKeyEndings`.
    static func mayHoldMedia(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard let base = buffer.baseAddress, !range.isEmpty, range.upperBound <= buffer.count else { return !range.isEmpty }
        let lower = range.lowerBound
        let upper = range.upperBound
        if hasTellingEscape(base, lower, upper) { return true }
        return mediaKeyEndings.withUnsafeBufferPointer { endings in
            var offset = lower
            while offset < upper {
                guard let found = memchr(base + offset, Int32(UInt8(ascii: ":")), upper - offset) else { return false }
                let colon = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                if colon + 2 < upper, base[colon + 1] == UInt8(ascii: "/"), base[colon + 2] == UInt8(ascii: "/") {
                    return true
                }
                var end = colon - 1
                // JSON's whitespace (`JSONTextScan.isWhitespace`), written out to stay in this loop.
                while end > lower, base[end] == 0x20 || base[end] == 0x0A || base[end] == 0x0D || base[end] == 0x09 {
                    end -= 1
                }
                if end - 2 >= lower, base[end] == UInt8(ascii: "\""),
                    case let ending = Int(pair(base[end - 2], base[end - 1])), endings[ending >> 6] & (1 << UInt64(ending & 63)) != 0
                {
                    return true
                }
                offset = colon + 1
            }
            return false
        }
    }

    /// True when an escape in `base[lower..<upper]` (JSON text) could decode to a byte that
    /// `mayHoldMedia` reads in the raw text: `\/`, or `\u` and four hex digits of an ASCII letter, `:` or `/` (or
    /// an escape cut off at the end, which parsed text never has). Every other escape decodes to
    /// a quote, a backslash, a control character or a scalar past ASCII (`\u00e1`, surrogates):
    /// in no media key (the only scalar past ASCII equivalent to a letter is U+212A, `K`, which
    /// no media key has), and no part of `://`.
    static func hasTellingEscape(_ base: UnsafePointer<UInt8>, _ lower: Int, _ upper: Int) -> Bool {
        var offset = lower
        while offset < upper, let found = memchr(base + offset, Int32(UInt8(ascii: "\\")), upper - offset) {
            let at = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            guard at + 1 < upper else { return true }
            switch base[at + 1] {
            case UInt8(ascii: "/"):
                return true
            case UInt8(ascii: "u"):
                guard at + 5 < upper else { return true }
                var value: UInt32 = 0
                for position in at + 2...at + 5 {
                    guard let digit = hexValue(base[position]) else { return true }
                    value = value << 4 | digit
                }
                if value < 0x80 {
                    let byte = UInt8(value)
                    let isLetter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                    if isLetter || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "/") { return true }
                }
                offset = at + 6
            default:
                offset = at + 2
            }
        }
        return false
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A 64-bit hash of the length and the first and last 64 bytes of `bytes[range]`; values with
    /// the same fingerprint are compared in full.
    private static func fingerprint(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(range.count)
        func mix(_ start: Int, _ count: Int) {
            var offset = start
            while offset + 8 <= start + count {
                hash = (hash ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
                hash ^= hash >> 32
                offset += 8
            }
            while offset < start + count {
                hash = (hash ^ UInt64(bytes[offset])) &* prime
                offset += 1
            }
        }
        guard range.count > 128 else {
            mix(range.lowerBound, range.count)
            return hash
        }
        mix(range.lowerBound, 64)
        mix(range.upperBound - 64, 64)
        return hash
    }

    private func sameBytes(_ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard lhs.lowerBound != rhs.lowerBound, !lhs.isEmpty else { return true }
        return bytes.withUnsafeBytes { buffer in
            memcmp(buffer.baseAddress! + lhs.lowerBound, buffer.baseAddress! + rhs.lowerBound, lhs.count) == 0
        }
    }

    /// Scans the value at `node`.
    ///
    /// Recurses once per level: it only scans funnels and paywalls inside `placements`, which the
    /// contract's §2 rule 4 limits to 127 levels in a file that loads.
    private mutating func scan(_ node: Int, isMedia: Bool) {
        switch document.kind(ofNode: node) {
        case .object, .array:
            var children = document.children(ofNode: node)
            while let child = children.next(in: document) {
                var childIsMedia = isMedia
                if let key = child.key {
                    let flags = keyFlags(key)
                    if flags & excludedMask != 0 { continue }
                    childIsMedia = isMedia || flags & MediaScan.media != 0
                    pathTokens.append(key)
                } else {
                    pathTokens.append(-(child.position + 1))
                }
                scan(child.value, isMedia: childIsMedia)
                pathTokens.removeLast()
            }
        case .string:
            checkString(node, isMedia: isMedia)
        default:
            break
        }
    }

    private mutating func checkString(_ node: Int, isMedia: Bool) {
        let token = document.byteRange(ofNode: node)
        if !isMedia, !mayStartWithHTTP(token) { return }
        let verdict = bytes.withUnsafeBufferPointer {
            MediaScan.isMediaURL($0, start: token.lowerBound + 1, length: token.count - 2, isMedia: isMedia)
        }
        var text: String?
        if let verdict {
            guard verdict else { return }
        } else {
            text = document.string(ofNode: node)
            guard let text, MediaScan.isMediaURL(text, isMedia: isMedia) else { return }
        }
        found.count += 1
        if found.listed.count < listingLimit {
            found.listed.append((keySpelling == nil ? spelledPath() : spelledPathWithKeySpelling(), text ?? document.string(ofNode: node) ?? ""))
        }
    }

    /// Whether a string found under a media key (`isMedia`) or elsewhere is a URL the scan counts:
    /// an http(s) URL anywhere, or under a media key any text that is not empty, blank or `data:`.
    static func isMediaURL(_ text: String, isMedia: Bool) -> Bool {
        guard !text.isEmpty else { return false }
        let isWebURL = startsWithASCII(text, "http://") || startsWithASCII(text, "https://")
        return isWebURL || (isMedia && !startsWithASCII(text, "data:") && !Format.isBlank(text))
    }

    /// True when `text`'s first characters are `prefix`'s (lowercase ASCII), letters in either case:
    /// what `text.prefix(8).lowercased().hasPrefix(prefix)` answers, in one pass over those
    /// characters. A character is one of `prefix`'s only when it is that one ASCII scalar (the one
    /// other scalar equivalent to, and lowercasing to, an ASCII letter is U+212A KELVIN SIGN, `K`,
    /// in none of the prefixes asked: `http://`, `https://`, `data:`), so a character that carries
    /// combining marks never matches; `hasPrefix` found that out by normalising the whole
    /// character, in time quadratic in a run of marks out of order.
    static func startsWithASCII(_ text: String, _ prefix: StaticString) -> Bool {
        var characters = text.makeIterator()
        for expected in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
            guard let character = characters.next() else { return false }
            let scalars = character.unicodeScalars
            guard let scalar = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex,
                scalar.isASCII
            else { return false }
            var byte = UInt8(scalar.value)
            if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) { byte += 0x20 }
            guard byte == expected else { return false }
        }
        return true
    }

    /// `isMediaURL(_:isMedia:)` of the string whose token's content is `buffer[start..<start +
    /// length]`, read from the bytes; nil when the bytes cannot tell and the text must be decoded.
    ///
    /// When the first nine bytes (or all, if fewer) are ASCII without a backslash, the text's first
    /// eight characters are its first eight bytes (an ASCII byte after them cannot join the eighth,
    /// and a JSON string has no raw line break to pair), so the prefixes are compared on bytes
    /// lowercased. Only text starting with a space or a control could be blank: that is decoded.
    static func isMediaURL(_ buffer: UnsafeBufferPointer<UInt8>, start: Int, length: Int, isMedia: Bool) -> Bool? {
        guard length > 0 else { return false }
        for offset in 0..<min(length, 9) {
            let byte = buffer[start + offset]
            if byte >= 0x80 || byte == UInt8(ascii: "\\") { return nil }
        }
        func starts(with prefix: StaticString) -> Bool {
            guard prefix.utf8CodeUnitCount <= length else { return false }
            let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            for offset in expected.indices {
                let byte = buffer[start + offset]
                let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                if lowered != expected[offset] { return false }
            }
            return true
        }
        if starts(with: "http://") || starts(with: "https://") { return true }
        guard isMedia else { return false }
        if starts(with: "data:") { return false }
        let first = buffer[start]
        return first == 0x20 || (0x09...0x0D).contains(first) ? nil : true
    }

    /// False when the string token cannot decode to text starting with `http` in any case: its
    /// first four bytes spell something else, without an escape that could stand for a letter.
    private func mayStartWithHTTP(_ token: Range<Int>) -> Bool {
        let start = token.lowerBound + 1
        guard token.upperBound - 1 - start >= 7 else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            for offset in 0..<4 {
                let byte = buffer[start + offset]
                if byte == UInt8(ascii: "\\") { return true }
                let letter = offset == 0 ? UInt8(ascii: "h") : offset == 3 ? UInt8(ascii: "p") : UInt8(ascii: "t")
                if byte | 0x20 != letter { return false }
            }
            return true
        }
    }

    /// The flags of the key at `node`: from its bytes unless it has an escape, else from the
    /// decoded key (`referenceKeyFlags`).
    ///
    /// A key without an escape decodes to its bytes, so it is a known key exactly when its bytes
    /// are one's; a key with non-ASCII bytes is none (every known key is ASCII). Whether the key
    /// has an escape is the parser's flag on its node (`stringHasEscapes(ofNode:)`): the key's bytes are
    /// not searched for a backslash again.
    func keyFlags(_ node: Int) -> UInt8 {
        if document.stringHasEscapes(ofNode: node) { return Self.referenceKeyFlags(document.string(ofNode: node) ?? "") }
        let range = document.byteRange(ofNode: node)
        let start = range.lowerBound + 1
        let length = range.upperBound - 1 - start
        return bytes.withUnsafeBufferPointer { buffer in knownKeys.flags(of: buffer, start: start, length: length) } ?? 0
    }

    /// The flags of a decoded key, from the three key sets.
    static func referenceKeyFlags(_ key: String) -> UInt8 {
        var flags: UInt8 = 0
        if AuditRun.linkKeys.contains(key) { flags |= MediaScan.excluded }
        if AuditRun.copyKeys.contains(key) { flags |= MediaScan.excludedOnPage }
        if AuditRun.mediaKeys.contains(key) { flags |= MediaScan.media }
        return flags
    }

    /// The path from the scanned value to the value being scanned: member keys and element
    /// positions joined by `/`. A key without a backslash or non-ASCII byte is copied from the
    /// document's bytes (its decoded text); any other is decoded.
    ///
    /// When every key is plain ASCII, as nearly all are, the path is written once into a string of
    /// its length (`spelledPlainPath`); else it is built as described.
    private func spelledPath() -> String {
        if let plain = spelledPlainPath() { return plain }
        var spelled: [UInt8] = []
        for token in pathTokens {
            if !spelled.isEmpty { spelled.append(UInt8(ascii: "/")) }
            guard token >= 0 else {
                spelled.append(contentsOf: String(-token - 1).utf8)
                continue
            }
            let range = document.byteRange(ofNode: token)
            let copied = bytes.withUnsafeBufferPointer { buffer in
                let key = UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + 1)..<(range.upperBound - 1)])
                guard !key.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) else { return false }
                spelled.append(contentsOf: key)
                return true
            }
            if !copied { spelled.append(contentsOf: (document.string(ofNode: token) ?? "").utf8) }
        }
        return String(decoding: spelled, as: UTF8.self)
    }

    /// `spelledPath()` with each key written as `keySpelling` writes its text, each key spelled once
    /// per scan: a path is as long as its keys, and a long key over many URLs, copied into each
    /// URL's path, cost the key's length times their number.
    private mutating func spelledPathWithKeySpelling() -> String {
        var spelled = ""
        for token in pathTokens {
            if !spelled.isEmpty { spelled += "/" }
            guard token >= 0 else {
                spelled += String(-token - 1)
                continue
            }
            if let key = spelledKeys[token] {
                spelled += key
            } else {
                let key = keySpelling?(document.string(ofNode: token) ?? "") ?? ""
                spelledKeys[token] = key
                spelled += key
            }
        }
        return spelled
    }

    /// `spelledPath()` written straight into a string of its length, nil when a key has a
    /// backslash or a non-ASCII byte. A slash goes before each part but when nothing is written
    /// yet, as `spelledPath()` writes them (so an empty first key adds no slash).
    private func spelledPlainPath() -> String? {
        bytes.withUnsafeBufferPointer { buffer -> String? in
            var length = 0
            for token in pathTokens {
                guard token >= 0 else {
                    length += 1 + Self.decimalDigits(-token - 1)
                    continue
                }
                let range = document.byteRange(ofNode: token)
                let key = UnsafeBufferPointer(rebasing: buffer[(range.lowerBound + 1)..<(range.upperBound - 1)])
                if key.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\\") }) { return nil }
                length += 1 + key.count
            }
            return String(unsafeUninitializedCapacity: length) { spelled in
                var written = 0
                for token in pathTokens {
                    if written > 0 {
                        spelled[written] = UInt8(ascii: "/")
                        written += 1
                    }
                    guard token >= 0 else {
                        var position = -token - 1
                        let digits = Self.decimalDigits(position)
                        for offset in stride(from: written + digits - 1, through: written, by: -1) {
                            spelled[offset] = UInt8(ascii: "0") + UInt8(position % 10)
                            position /= 10
                        }
                        written += digits
                        continue
                    }
                    let range = document.byteRange(ofNode: token)
                    for offset in (range.lowerBound + 1)..<(range.upperBound - 1) {
                        spelled[written] = buffer[offset]
                        written += 1
                    }
                }
                return written
            }
        }
    }

    /// How many decimal digits `value` (not negative) has.
    private static func decimalDigits(_ value: Int) -> Int {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}

/// What `MediaScan.rememberedURLs(under:)` found under values of one document, by a fingerprint
/// of each value's text: the text's range and the result. One audit pass shares one memory among
/// the chunks it checks on several threads; what a scan finds depends only on the value's text,
/// so which thread scans a text first does not change any result.
///
/// Bounded, so that a hostile text costs no more than scanning every value: at most
/// `textsPerFingerprint` texts share a fingerprint (the fingerprint reads only a text's ends, so
/// texts that differ only in their middle all share one, and each lookup compares them all), and
/// at most `rememberedLimit` texts are kept. A text not kept is scanned again when met again, with
/// the same result.
final class MediaScanMemory: @unchecked Sendable {
    static let textsPerFingerprint = 8
    static let rememberedLimit = 1 << 18
    private let lock = NSLock()
    private var texts = ScannedTexts()
    /// How many texts are remembered.
    var rememberedCount: Int { lock.withLock { texts.count } }
    /// How many lookups were made (for tests: a scan answers its own repeats without one).
    var lookupCount: Int { lock.withLock { lookups } }
    private var lookups = 0

    /// The result remembered for a text with `fingerprint`, scanned with `skippingCopy`, whose
    /// range `same` says holds the same bytes; nil when none is (`.some(nil)` when that text has no
    /// media). The texts are compared outside the lock: a builderConfig runs to kilobytes.
    func found(fingerprint: UInt64, skippingCopy: Bool, same: (Range<Int>) -> Bool) -> FoundMedia?? {
        let candidates = lock.withLock {
            lookups += 1
            return texts.candidates(fingerprint)
        }
        return ScannedTexts.found(in: candidates, skippingCopy: skippingCopy, same: same)
    }

    /// Remembers what a scan of the text at `range` with `skippingCopy` found.
    func remember(_ found: FoundMedia?, fingerprint: UInt64, skippingCopy: Bool, range: Range<Int>) {
        lock.withLock { texts.remember(found, fingerprint: fingerprint, skippingCopy: skippingCopy, range: range) }
    }
}

/// Scanned texts by fingerprint, within `MediaScanMemory`'s bounds: the table behind the shared
/// memory (under its lock) and each scan's own (`MediaScan.ownTexts`, no lock).
struct ScannedTexts {
    typealias Scanned = (range: Range<Int>, skippingCopy: Bool, found: FoundMedia?)
    private var scanned: [UInt64: [Scanned]] = [:]
    /// How many texts are remembered.
    private(set) var count = 0

    /// The texts remembered with `fingerprint` (at most `MediaScanMemory.textsPerFingerprint`).
    func candidates(_ fingerprint: UInt64) -> [Scanned] { scanned[fingerprint] ?? [] }

    /// The result of the first of `candidates` scanned with `skippingCopy` whose range `same` says
    /// holds the same bytes; nil when none is (`.some(nil)` when that text has no media).
    static func found(in candidates: [Scanned], skippingCopy: Bool, same: (Range<Int>) -> Bool) -> FoundMedia?? {
        guard let earlier = candidates.first(where: { $0.skippingCopy == skippingCopy && same($0.range) }) else { return nil }
        return .some(earlier.found)
    }

    /// Remembers what a scan of the text at `range` with `skippingCopy` found, unless the table is
    /// full (`MediaScanMemory.rememberedLimit`) or `fingerprint` has its share of texts.
    mutating func remember(_ found: FoundMedia?, fingerprint: UInt64, skippingCopy: Bool, range: Range<Int>) {
        guard count < MediaScanMemory.rememberedLimit, scanned[fingerprint]?.count ?? 0 < MediaScanMemory.textsPerFingerprint else { return }
        scanned[fingerprint, default: []].append((range, skippingCopy, found))
        count += 1
    }
}

/// The remote media an offline first launch cannot load, found as the `remote-media` rule finds it.
public enum RemoteMedia {
    /// Every image or video URL a funnel page loads (its copy fields are not read), with the path of
    /// the value below the page (`mediaUrl`, `options/0/imageUrl`, …), in text order.
    ///
    /// With `keySpelling`, each member's key in a path is written as it returns for the key's text
    /// (an empty key must stay empty), computed once per key: what a page shows of a long key is
    /// made once, not copied whole into the path of every URL under it.
    public static func urls(on page: Page, in file: FallbackFile, keySpelling: ((String) -> String)? = nil) -> [(path: String, url: String)] {
        var scan = MediaScan(document: file.document, listingLimit: .max, keySpelling: keySpelling)
        return scan.urls(under: page.source.node, skippingCopy: true)?.listed ?? []
    }

    /// Every image or video URL a paywall's `builderConfig` loads, with the path of the value
    /// below the builderConfig, in text order; empty without a builderConfig. `keySpelling` as for
    /// `urls(on:in:keySpelling:)`.
    public static func urls(
        inBuilderConfigOf paywall: Paywall, in file: FallbackFile, keySpelling: ((String) -> String)? = nil
    ) -> [(path: String, url: String)] {
        guard let config = paywall.builderConfig else { return [] }
        var scan = MediaScan(document: file.document, listingLimit: .max, keySpelling: keySpelling)
        return scan.urls(under: config.index, skippingCopy: false)?.listed ?? []
    }
}
