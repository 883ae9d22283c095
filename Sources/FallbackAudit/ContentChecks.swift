import RovenueFallback

extension AuditRun {
    // MARK: Translations

    /// For a funnel that declares `locales`: every localized text, text list and option label must
    /// have non-blank copy for each declared locale. Plain strings and lists serve every locale.
    mutating func checkTranslations(_ context: FunnelContext, key: String) {
        let funnel = context.funnel
        guard let locales = funnel.locales, !locales.isEmpty else { return }
        for page in funnel.pages {
            for (field, text) in page.texts {
                guard case .localized(let map) = text else { continue }
                let gaps = locales.compactMap { locale in Self.textGap(map[locale]).map { (locale, $0) } }
                reportTranslationGaps(
                    gaps, what: "Page \(Format.quoted(page.id)) \(field)", funnel: funnel,
                    fieldNode: node(of: field, in: page), key: key)
            }
            for (field, list) in page.textLists {
                guard case .localized(let map) = list else { continue }
                let gaps = locales.compactMap { locale in Self.listGap(map[locale]).map { (locale, $0) } }
                reportTranslationGaps(
                    gaps, what: "Page \(Format.quoted(page.id)) \(field)", funnel: funnel,
                    fieldNode: node(of: field, in: page), key: key)
            }
            for option in page.options ?? [] {
                guard case .localized(let map) = option.label else { continue }
                let gaps = locales.compactMap { locale in Self.textGap(map[locale]).map { (locale, $0) } }
                reportTranslationGaps(
                    gaps, what: "Page \(Format.quoted(page.id)) option \(Format.quoted(option.value)) label",
                    funnel: funnel, fieldNode: node(of: "label", in: option), key: key)
            }
        }
    }

    private static func textGap(_ text: String?) -> String? {
        guard let text else { return "missing" }
        return text.allSatisfy(\.isWhitespace) ? "blank" : nil
    }

    private static func listGap(_ list: [String]?) -> String? {
        guard let list else { return "missing" }
        if list.isEmpty { return "an empty list" }
        return list.contains { $0.allSatisfy(\.isWhitespace) } ? "a blank item" : nil
    }

    private mutating func reportTranslationGaps(
        _ gaps: [(locale: String, gap: String)], what: String, funnel: Funnel, fieldNode: Int, key: String
    ) {
        guard !gaps.isEmpty else { return }
        let listed = gaps.map { "\(Format.quoted($0.locale)) (\($0.gap))" }.joined(separator: ", ")
        let plural = gaps.count == 1 ? "locale" : "locales"
        var anchor = fieldNode
        if gaps.count == 1, let localeNode = document.value(at: fieldNode)[gaps[0].locale] {
            anchor = localeNode.index
        }
        report(
            .translationMissing,
            "\(what) has no copy for \(plural) \(listed), though funnel \(Format.quoted(funnel.id)) declares "
                + "\(Format.quotedList(funnel.locales ?? [])): a first launch in "
                + "\(gaps.count == 1 ? "that locale" : "those locales") shows it blank or in another language. Add the "
                + "translation or use a plain string.",
            key: key, at: anchor)
    }

    // MARK: Remote media

    /// Keys whose values are links a user may open, not media a screen loads.
    static let linkKeys: Set<String> = [
        "action", "href", "link", "deepLink", "termsUrl", "privacyUrl", "privacyPolicyUrl", "termsOfServiceUrl",
        "termsOfUseUrl", "supportUrl", "websiteUrl", "app_store_url", "play_store_url",
    ]
    /// Keys whose (non-empty, non-`data:`) strings are media URLs, whatever their scheme.
    static let mediaKeys: Set<String> = [
        "mediaUrl", "imageUrl", "videoUrl", "logoUrl", "iconUrl", "posterUrl", "thumbnailUrl", "backgroundImage",
        "backgroundUrl", "url", "src",
    ]
    /// Keys of a page that hold copy or branching, never media.
    static let copyKeys: Set<String> = Set(Page.textFieldNames + Page.textListFieldNames).union([
        "label", "next_rules", "default_next", "question_id", "paywallId",
    ])
    static let listedURLLimit = 5

    mutating func checkPageMedia(_ page: Page, funnel: Funnel, key: String) {
        var urls: [(path: String, url: String)] = []
        Self.collectMedia(in: document.value(at: page.source.node), path: "", isMedia: false, skipping: Self.copyKeys, into: &urls)
        guard !urls.isEmpty else { return }
        report(
            .remoteMedia,
            "Page \(Format.quoted(page.id)) of funnel \(Format.quoted(funnel.id)) loads \(Self.urlCount(urls)) that an "
                + "offline first launch cannot fetch: \(Self.listURLs(urls)). Bundle the asset or make the page work "
                + "without it.",
            key: key, at: page.source.node)
    }

    mutating func checkThemeMedia(_ funnel: Funnel, key: String) {
        guard let themeRef = file.fieldRef("theme", in: funnel) else { return }
        var urls: [(path: String, url: String)] = []
        Self.collectMedia(in: document.value(at: themeRef.node), path: "", isMedia: false, skipping: [], into: &urls)
        guard !urls.isEmpty else { return }
        report(
            .remoteMedia,
            "The theme of funnel \(Format.quoted(funnel.id)) loads \(Self.urlCount(urls)) that an offline first launch "
                + "cannot fetch: \(Self.listURLs(urls)). Every page shows it; bundle the asset or leave it empty.",
            key: key, at: themeRef.node)
    }

    /// A paywall's `builderConfig` images. `remoteConfig.data` is the app's own data and is not read.
    mutating func checkPaywallMedia(_ paywall: Paywall, key: String, checked: inout CheckedContent) {
        guard isEnabled(.remoteMedia) else { return }
        if checked.paywalls.contains(where: { $0.id == paywall.id && sameJSON($0.node, paywall.source.node) }) { return }
        checked.paywalls.append((paywall.id, paywall.source.node))
        guard let configRef = file.fieldRef("builderConfig", in: paywall) else { return }
        var urls: [(path: String, url: String)] = []
        Self.collectMedia(in: document.value(at: configRef.node), path: "", isMedia: false, skipping: [], into: &urls)
        guard !urls.isEmpty else { return }
        report(
            .remoteMedia,
            "Paywall \(Format.quoted(paywall.id)) loads \(Self.urlCount(urls)) in its builderConfig that an offline first "
                + "launch cannot fetch: \(Self.listURLs(urls)). The paywall renders without them; bundle the assets or "
                + "design for their absence.",
            key: key, at: configRef.node)
    }

    /// Collects media URLs under `value`: strings under a media key, and http(s) URLs anywhere, except
    /// under link keys and `skipping` keys.
    static func collectMedia(
        in value: JSONDocument.Value, path: String, isMedia: Bool, skipping: Set<String>,
        into urls: inout [(path: String, url: String)]
    ) {
        switch value.kind {
        case .object:
            for member in value.members {
                let key = member.key
                if linkKeys.contains(key) || skipping.contains(key) { continue }
                let childPath = path.isEmpty ? key : path + "/" + key
                collectMedia(
                    in: member.value, path: childPath, isMedia: isMedia || mediaKeys.contains(key), skipping: skipping,
                    into: &urls)
            }
        case .array:
            for (index, element) in value.elements.enumerated() {
                let childPath = path.isEmpty ? String(index) : path + "/" + String(index)
                collectMedia(in: element, path: childPath, isMedia: isMedia, skipping: skipping, into: &urls)
            }
        case .string:
            // Most strings are neither under a media key nor start with "h": skip them without decoding.
            if !isMedia {
                let first = value.byteRange.lowerBound + 1
                guard first < value.byteRange.upperBound, value.document.bytes[first] | 0x20 == UInt8(ascii: "h") else { return }
            }
            guard let text = value.string, !text.isEmpty else { return }
            let lowered = text.prefix(8).lowercased()
            let isWebURL = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
            if isWebURL || (isMedia && !lowered.hasPrefix("data:") && !text.allSatisfy(\.isWhitespace)) {
                urls.append((path, text))
            }
        default:
            return
        }
    }

    private static func urlCount(_ urls: [(path: String, url: String)]) -> String {
        urls.count == 1 ? "1 remote URL" : "\(urls.count) remote URLs"
    }

    private static func listURLs(_ urls: [(path: String, url: String)]) -> String {
        var listed = urls.prefix(listedURLLimit).map { "\($0.path) \($0.url)" }
        if urls.count > listedURLLimit { listed.append("and \(urls.count - listedURLLimit) more") }
        return listed.joined(separator: ", ")
    }
}
