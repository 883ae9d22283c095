import FallbackAudit
import Foundation
import RovenueFallback

// MARK: - Previews of what a user sees offline (issue 9, point 4)

/// One line of a phone preview: a text as a device shows it, with a mark when the device shows
/// it blank or in another locale's words.
struct PreviewLine: TemplateContext {
    /// The part of the screen (`headline`, `title`, `subtitle`, `body`, `option`, `item`,
    /// `placeholder`, `suffix`, `agreement`, `cta`, `image`, `paywall`, `config`, `package`).
    var role: String
    /// What the device shows; nil when it shows nothing.
    var text: String?
    /// Why the line is blank or not in the locale's words (`not translated: shows the en text in de`); nil when it reads as written.
    var mark: String?

    static let fields: TemplateFields<Self> = [.init("role", \.role), .init("text", \.text), .init("mark", \.mark)]
}

/// The funnel previews: one phone screen per page and previewed locale.
struct FunnelPreviews {
    /// At most this many locales are previewed; the translations table counts every declared one.
    static let localeLimit = 16
    /// At most this many pages are previewed, the first ones in page order; the pages table and the
    /// outline list every page. A screen weighs about 300 bytes of HTML, and a funnel of 5,000 pages
    /// in 16 locales made 80,000 screens: a funnel page of 27 MB, 41 times its 648 KB of JSON, that
    /// no browser scrolls through. At this limit the previews stay under about 1.6 MB, as many pages
    /// as a funnel's drawing shows (`FunnelPage.drawnPagesLimit`).
    static let pageLimit = 300

    /// A locale of the locale switch.
    struct Locale: TemplateContext {
        var locale: String
        var isDefault: Bool

        static let fields: TemplateFields<Self> = [.init("locale", \.locale), .init("isDefault", \.isDefault)]
    }

    /// What a device in one locale shows on one page.
    struct Screen: TemplateContext {
        var locale: String
        /// The locale for the screen's `lang` attribute; nil for a funnel that names no locale.
        var lang: String?
        var isDefault: Bool
        var lines: [PreviewLine]
        /// How many lines carry a mark.
        var marks: Int

        static let fields: TemplateFields<Self> = [
            .init("locale", \.locale), .init("lang", \.lang), .init("isDefault", \.isDefault), .init("lines", \.lines),
            .init("marks", \.marks),
        ]
    }

    /// The preview of one page of the funnel, in every previewed locale.
    struct Page: TemplateContext {
        var number: Int
        var id: String
        var anchor: String
        var type: String
        var screens: [Screen]

        static let fields: TemplateFields<Self> = [
            .init("number", \.number), .init("id", \.id), .init("anchor", \.anchor), .init("type", \.type), .init("screens", \.screens),
        ]
    }

    /// The locales a preview shows, in order: the distinct declared locales (by their bytes, as
    /// the SDK compares them), else `defaultLocale`, else the locales the funnel's per-locale
    /// copy is written in; at most `localeLimit`. Empty for a funnel whose copy is all plain and
    /// that names no locale: its previews show one screen, for any locale.
    static func locales(of funnel: Funnel) -> [String] {
        var seen: Set<ExactKey> = []
        var locales: [String] = []
        func add(_ locale: String) {
            if locales.count < localeLimit, seen.insert(ExactKey(locale)).inserted { locales.append(locale) }
        }
        (funnel.locales ?? []).forEach(add)
        if locales.isEmpty, let locale = funnel.defaultLocale { add(locale) }
        guard locales.isEmpty else { return locales }
        for page in funnel.pages {
            for (_, text) in page.texts { if case .localized(let map) = text { map.keys.forEach(add) } }
            for (_, list) in page.textLists { if case .localized(let map) = list { map.keys.forEach(add) } }
            for option in page.options ?? [] { if case .localized(let map) = option.label { map.keys.forEach(add) } }
            if locales.count == localeLimit { break }
        }
        return locales
    }

    let funnel: Funnel
    let locales: [String]
    /// The locale whose screen shows first: the one plain copy is written in, else the first previewed.
    let defaultLocale: String?
    private let written: String?
    private let untranslated: Set<ExactKey>

    init(funnel: Funnel) {
        self.funnel = funnel
        locales = Self.locales(of: funnel)
        written = PlainCopy.writtenLocale(of: funnel)
        untranslated = Set(PlainCopy.untranslatedLocales(of: funnel).map(ExactKey.init))
        let written = written
        defaultLocale = locales.first { locale in written.map { ExactKey.same($0, locale) } ?? false } ?? locales.first
    }

    /// How many of the funnel's pages are previewed: the first ones, up to `pageLimit`.
    var previewedPageCount: Int { min(funnel.pages.count, Self.pageLimit) }
    /// How many of the funnel's pages are past `pageLimit`, not previewed.
    var unpreviewedPageCount: Int { funnel.pages.count - previewedPageCount }

    /// How many distinct locales the funnel declares.
    var declaredLocaleCount: Int { Set((funnel.locales ?? []).map(ExactKey.init)).count }

    /// The lines a device with `locale` (nil: a funnel that names no locale) shows on `page`, in
    /// screen order: the page's image placeholders, headline, title, subtitle, body, options
    /// (each after its own image), lists, input hints, agreement, paywall, call to action.
    func lines(of page: RovenueFallback.Page, locale: String?, images: [String]) -> [PreviewLine] {
        lines(of: page, locale: locale, placed: PlacedImages(images))
    }

    /// A page's remote media paths as its screens show them, the same in every locale: an
    /// option's own image (`options/2/imageUrl`) stands with its option; the page's on top.
    struct PlacedImages {
        var top: [PreviewLine] = []
        var options: [Int: [PreviewLine]] = [:]
        var count = 0

        init(_ paths: [String]) {
            count = paths.count
            for path in paths {
                let line = PreviewLine(role: "image", text: "image: \(path) (remote, not bundled)")
                let tokens = path.split(separator: "/", maxSplits: 2)
                if tokens.count == 3, tokens[0] == "options", let index = Int(tokens[1]) {
                    options[index, default: []].append(line)
                } else {
                    top.append(line)
                }
            }
        }
    }

    /// `lines(of:locale:images:)` with the page's images already placed (once for all its screens).
    func lines(of page: RovenueFallback.Page, locale: String?, placed images: PlacedImages) -> [PreviewLine] {
        var lines: [PreviewLine] = []
        // Room for most pages' lines (the images, an option each, the texts): grown from empty,
        // the array was copied five or six times a page (37,790 times, 14 M in the 1k build).
        lines.reserveCapacity(images.count + (page.options?.count ?? 0) + 16)
        lines += images.top
        func add(_ role: String, _ text: LocalizedText?) {
            guard let text else { return }
            lines.append(line(role, text.copy(for: locale ?? ""), locale: locale, needsTranslation: PlainCopy.needsTranslation(text)))
        }
        func add(_ list: LocalizedTextList?) {
            guard let list else { return }
            let copy = list.copy(for: locale ?? "")
            let head = line("item", copy.map { $0.isEmpty ? "" : " " }, locale: locale, needsTranslation: PlainCopy.needsTranslation(list))
            guard let items = copy.value, !items.isEmpty else {
                lines.append(head)
                return
            }
            for (index, item) in items.enumerated() {
                lines.append(
                    PreviewLine(
                        role: "item", text: item.isEmpty ? nil : item,
                        mark: item.isEmpty ? "blank item on device" : index == 0 ? head.mark.map { $0 + " (the whole list)" } : nil))
            }
        }
        add("headline", page.headline)
        add("title", page.title)
        add("subtitle", page.subtitle)
        add("body", page.body)
        for (index, option) in (page.options ?? []).enumerated() {
            if let optionImages = images.options[index] { lines += optionImages }
            add("option", option.label)
        }
        add(page.benefits)
        add(page.features)
        add(page.steps)
        add("placeholder", page.placeholder)
        add("suffix", page.suffix)
        add("agreement", page.agreementLabel)
        if let paywallId = page.paywallId {
            let bundled = funnel.paywalls?[paywallId] != nil
            lines.append(
                PreviewLine(
                    role: "paywall", text: "paywall " + SiteModel.name(paywallId),
                    mark: bundled ? nil : "not in the funnel's paywalls: blank on device"))
        }
        add("cta", page.cta)
        return lines
    }

    /// A line for one text as a device with `locale` shows it.
    private func line(_ role: String, _ copy: DeviceCopy<String>, locale: String?, needsTranslation: Bool) -> PreviewLine {
        let name = locale.map { SiteModel.name($0) } ?? "any"
        switch copy {
        case .missing:
            return PreviewLine(role: role, text: nil, mark: "blank on device: no \(name) copy")
        case .localized(let text) where text.isEmpty:
            return PreviewLine(role: role, text: nil, mark: "blank on device: the \(name) copy is empty")
        case .localized(let text):
            return PreviewLine(role: role, text: text, mark: nil)
        case .plain(let text) where text.isEmpty:
            return PreviewLine(role: role, text: nil, mark: "blank on device: the text is empty")
        case .plain(let text):
            guard needsTranslation, let locale, untranslated.contains(ExactKey(locale)), let written else {
                return PreviewLine(role: role, text: text, mark: nil)
            }
            return PreviewLine(role: role, text: text, mark: "not translated: shows the \(SiteModel.name(written)) text in \(name)")
        }
    }

    /// The preview of each of the first `pageLimit` pages; `anchor` names a page's row, `images`
    /// gives the remote media paths of the page at a position in `funnel.pages`.
    func pages(anchor: (String) -> String, images: (Int) -> [String]) -> [Page] {
        let screenLocales: [String?] = locales.isEmpty ? [nil] : locales
        // Each locale's name and whether it shows first, found once rather than on every page.
        let names = screenLocales.map { locale in locale.map { SiteModel.name($0) } }
        let defaults = screenLocales.map { locale in locale.map { locale in defaultLocale.map { ExactKey.same($0, locale) } ?? false } ?? true }
        return funnel.pages.prefix(previewedPageCount).enumerated().map { index, page in
            let media = PlacedImages(images(index))
            let screens = screenLocales.indices.map { screen in
                let lines = lines(of: page, locale: screenLocales[screen], placed: media)
                return Screen(
                    locale: names[screen] ?? "any locale", lang: names[screen], isDefault: defaults[screen],
                    lines: lines, marks: lines.count { $0.mark != nil })
            }
            return Page(number: index + 1, id: SiteModel.name(page.id), anchor: anchor(page.id), type: SiteModel.name(page.type), screens: screens)
        }
    }

    /// The locale switch, empty when there is nothing to switch between.
    var switchLocales: [Locale] {
        guard locales.count > 1 else { return [] }
        return locales.map { locale in
            Locale(locale: SiteModel.name(locale), isDefault: defaultLocale.map { ExactKey.same($0, locale) } ?? false)
        }
    }
}

extension DeviceCopy {
    /// The same kind of copy with `transform` applied to its value.
    func map<Other>(_ transform: (Value) -> Other) -> DeviceCopy<Other> {
        switch self {
        case .localized(let value): .localized(transform(value))
        case .plain(let value): .plain(transform(value))
        case .missing: .missing
        }
    }
}

// MARK: - Paywall preview

/// What a paywall shows as text: its name, its packages, and the text of its remote config (in
/// the config's one locale) and builderConfig.
struct PaywallPreview: TemplateContext {
    /// At most this many texts of a config are shown.
    static let textLimit = 200

    /// A package as the paywall lists it.
    struct Package: TemplateContext {
        var displayName: String
        var type: String
        /// The store product ids of `storeIds`, each nil when absent.
        var apple: String?
        var google: String?
        var hasProduct: Bool { apple != nil || google != nil }

        static let fields: TemplateFields<Self> = [
            .init("displayName", \.displayName), .init("type", \.type), .init("apple", \.apple), .init("google", \.google),
            .init("hasProduct", \.hasProduct),
        ]
    }

    /// A string in a config, with the path to it below the config.
    struct ConfigText: TemplateContext {
        var path: String
        var text: String

        static let fields: TemplateFields<Self> = [.init("path", \.path), .init("text", \.text)]
    }

    var name: String
    /// `remoteConfig.locale`: the one locale of the remote config's text, whatever the device's.
    var configLocale: String?
    var configTexts: [ConfigText]
    var moreConfigTexts: Int
    var builderTexts: [ConfigText]
    var hasBuilderTexts: Bool { !builderTexts.isEmpty }
    var moreBuilderTexts: Int
    var images: [PreviewLine]
    var packages: [Package]
    var hasPackages: Bool

    static let fields: TemplateFields<Self> = [
        .init("name", \.name), .init("configLocale", \.configLocale), .init("configTexts", \.configTexts),
        .init("moreConfigTexts", \.moreConfigTexts), .init("builderTexts", \.builderTexts), .init("hasBuilderTexts", \.hasBuilderTexts),
        .init("moreBuilderTexts", \.moreBuilderTexts),
        .init("images", \.images), .init("packages", \.packages), .init("hasPackages", \.hasPackages),
    ]

    init(_ paywall: Paywall, in file: FallbackFile, memo: TextsMemo? = nil) {
        name = paywall.name
        configLocale = paywall.remoteConfig.map { SiteModel.name($0.locale) }
        let texts = { (config: JSONDocument.Value) in memo?.texts(in: config) ?? Self.texts(in: config) }
        (configTexts, moreConfigTexts) = paywall.remoteConfig.map { texts($0.data) } ?? ([], 0)
        (builderTexts, moreBuilderTexts) = paywall.builderConfig.map(texts) ?? ([], 0)
        // Each key shortened once (`SnapshotText.shortenedKey`), not each whole path.
        images = RemoteMedia.urls(inBuilderConfigOf: paywall, in: file, keySpelling: SnapshotText.shortenedKey).map { path, _ in
            PreviewLine(role: "image", text: "image: \(path) (remote, not bundled)")
        }
        packages = (paywall.offering?.packages ?? []).map { package in
            Package(
                displayName: package.displayName, type: SiteModel.name(package.type), apple: package.storeIds.apple.map { SiteModel.name($0) },
                google: package.storeIds.google.map { SiteModel.name($0) })
        }
        hasPackages = !packages.isEmpty
    }

    /// `texts(in:)` of configs already read, by the config's bytes, on which alone it depends:
    /// an export repeats a few builder configs across many paywalls (the 1k sample: 936
    /// paywall pages), and a walk cost about 180,000 instructions. Safe from any thread; keeps
    /// at most `byteLimit` bytes of configs. Keyed by the bytes themselves with a hash seeded per
    /// process (`ExactBytes(seededHashOf:)`): the configs are snapshot text, and a hash anyone can
    /// compute lets a crafted snapshot pile many configs onto one hash and make each lookup
    /// compare them all. (Keyed by `[UInt8]`, whose hash combines each byte on its own, the lookups
    /// cost about 38 M instructions of the 1k build.)
    final class TextsMemo: @unchecked Sendable {
        static let byteLimit = 16 << 20
        private let lock = NSLock()
        private var texts: [ExactBytes: ([ConfigText], Int)] = [:]
        private var keptBytes = 0

        func texts(in config: JSONDocument.Value) -> ([ConfigText], Int) {
            let key = ExactBytes(seededHashOf: Array(config.document.bytes[config.byteRange]))
            if let found = lock.withLock({ texts[key] }) { return found }
            let found = PaywallPreview.texts(in: config)
            lock.withLock {
                if keptBytes + key.bytes.count <= Self.byteLimit {
                    keptBytes += key.bytes.count
                    texts[key] = found
                }
            }
            return found
        }
    }

    /// The non-empty strings under `value` with their paths, in text order: the first
    /// `textLimit`, and how many more there are. Walks with a stack, so depth costs no recursion.
    static func texts(in config: JSONDocument.Value) -> ([ConfigText], Int) {
        var texts: [ConfigText] = []
        var more = 0
        // Each value's path below `config` is its JSON Pointer (a member's escaped key, an
        // element's position), each part shortened as `SnapshotText.shortenedPointer` shortens
        // it. It is kept as the value's own part and the index of its parent's path (-1 for
        // `config`), and spelled only for a text shown: spelling every value's path on the way
        // down copied a long key into the path of each value under it (a 100,000-character key
        // over 10,000 values: a gigabyte).
        var parts: [(parent: Int, part: String)] = []
        func spelled(_ path: Int) -> String {
            guard path >= 0 else { return "/" }
            var chain: [String] = []
            var at = path
            while at >= 0 {
                chain.append(parts[at].part)
                at = parts[at].parent
            }
            return "/" + chain.reversed().joined(separator: "/")
        }
        var stack: [(value: JSONDocument.Value, path: Int)] = [(config, -1)]
        while let (value, path) = stack.popLast() {
            switch value.kind {
            case .string:
                guard let text = value.string, !text.isEmpty else { continue }
                guard texts.count < textLimit else {
                    more += 1
                    continue
                }
                texts.append(ConfigText(path: spelled(path), text: text))
            case .array:
                guard texts.count < textLimit else {
                    stack.append(contentsOf: value.elements.reversed().map { ($0, -1) })
                    continue
                }
                let elements = value.elements
                let first = parts.count
                for index in elements.indices { parts.append((path, String(index))) }
                for index in elements.indices.reversed() { stack.append((elements[index], first + index)) }
            case .object:
                guard texts.count < textLimit else {
                    stack.append(contentsOf: value.members.reversed().map { ($0.value, -1) })
                    continue
                }
                let members = value.members
                let first = parts.count
                for member in members { parts.append((path, SnapshotText.shortened(JSONDocument.escapePointerToken(member.key)))) }
                for index in members.indices.reversed() { stack.append((members[index].value, first + index)) }
            default:
                continue
            }
        }
        return (texts, more)
    }
}
