import FallbackAudit
import RovenueFallback

/// Words for a funnel's pieces: translation coverage per locale.
enum FunnelText {
    /// How a device in one locale fares with a funnel's texts (page text fields, text lists, option labels).
    struct Coverage: Equatable {
        /// Texts the device shows non-empty in its own locale.
        var present = 0
        /// Plain texts with words (`PlainCopy`): shown as written, in the default locale's words.
        var plain = 0
        /// Every text of the funnel.
        var total = 0
        /// Texts with no copy, or blank copy, for the locale.
        var missing: Int { total - present - plain }
    }

    /// The coverage of `funnel`'s texts for a device in each declared locale, in declaration
    /// order. A plain text counts as present for the locale it is written in, for a funnel with
    /// fewer than two locales, and when it has no letters; for the funnel's other declared
    /// locales (`PlainCopy.untranslatedLocales`) it counts as `plain`.
    ///
    /// In one pass over the texts, whatever the number of locales: a plain text counts the same for
    /// every locale that shows it untranslated, and the same for every other locale; a localized
    /// text counts for the declared locales among its own keys. Counting every text again for each
    /// locale made a funnel of N pages in N locales quadratic: its page took 40% of a build.
    static func coverage(of funnel: Funnel) -> [(locale: String, coverage: Coverage)] {
        guard let locales = funnel.locales, !locales.isEmpty else { return [] }
        let untranslated = Set(PlainCopy.untranslatedLocales(of: funnel).map(ExactKey.init))
        // The distinct declared locales (a locale declared twice gets the same figures twice), in
        // order of first declaration; only the keys are read. `OrderedMap(keys:values:)` indexes a
        // list that does not repeat in blocks at its size (one that does, key by key in a table
        // of that size), rather than looking up and setting each locale in a table that grows.
        let distinct = OrderedMap(keys: locales, values: Array(locales.indices))
        /// Localized texts and lists with copy for each distinct locale.
        var localizedPresent = [Int](repeating: 0, count: distinct.count)
        /// Plain texts and lists: with words, shown untranslated where the locale is not theirs; and
        /// present (non-empty) with and without words.
        var plainWithWords = 0
        var plainPresentWithoutWords = 0
        var plainPresent = 0
        var total = 0
        func countPresent<Value>(_ map: OrderedMap<Value>, where isPresent: (Value) -> Bool) {
            for (key, value) in zip(map.keys, map.values) where isPresent(value) {
                if let index = distinct.index(of: key) { localizedPresent[index] += 1 }
            }
        }
        func countPlain(withWords: Bool, present: Bool) {
            if withWords { plainWithWords += 1 } else if present { plainPresentWithoutWords += 1 }
            if present { plainPresent += 1 }
        }
        func count(_ text: LocalizedText) {
            total += 1
            switch text {
            case .plain(let value): countPlain(withWords: PlainCopy.needsTranslation(text), present: !value.isEmpty)
            case .localized(let map): countPresent(map) { !$0.isEmpty }
            }
        }
        for page in funnel.pages {
            // The fields `texts` and `textLists` list, read in place: those make an array of
            // (name, text) pairs for each page, and the names are not wanted here.
            for field in Page.Field.textFields {
                if let text = page.text(field) { count(text) }
            }
            for field in Page.Field.textListFields {
                guard let list = page.textList(field) else { continue }
                total += 1
                let isPresent = { (values: [String]) in !values.isEmpty && values.allSatisfy { !$0.isEmpty } }
                switch list {
                case .plain(let values): countPlain(withWords: PlainCopy.needsTranslation(list), present: isPresent(values))
                case .localized(let map): countPresent(map, where: isPresent)
                }
            }
            for option in page.options ?? [] { count(option.label) }
        }
        return locales.map { locale in
            let index = distinct.index(of: locale)!
            var coverage = Coverage(total: total)
            if untranslated.contains(ExactKey(locale)) {
                coverage.plain = plainWithWords
                coverage.present = localizedPresent[index] + plainPresentWithoutWords
            } else {
                coverage.present = localizedPresent[index] + plainPresent
            }
            return (locale, coverage)
        }
    }
}

/// An experiment's allocation of the 10,000 buckets as a bar in bucket units, one segment per variant.
enum AllocationBar {
    static func svg(variantIds: [String], shares: [Int]) -> String {
        var label: [String] = []
        var rects = ""
        var start = 0
        for (index, share) in shares.enumerated() where share > 0 {
            label.append("\(start)–\(start + share - 1) \(variantIds[index])")
            rects += "<rect class=\"alloc-segment v\(index % 8)\" x=\"\(start)\" y=\"0\" width=\"\(share)\" height=\"1\"/>"
            start += share
        }
        let description = MarkupEscaping.html("Buckets " + label.joined(separator: ", "))
        return "<svg class=\"alloc-bar\" viewBox=\"0 0 \(Bucketing.bucketCount) 1\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(description)\">"
            + rects + "</svg>"
    }
}
