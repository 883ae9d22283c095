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
    /// locales (`PlainCopy.untranslatedLocales`) it counts as `plain`. The texts are gathered, and
    /// whether each needs a translation decided, once for all the locales rather than once each.
    static func coverage(of funnel: Funnel) -> [(locale: String, coverage: Coverage)] {
        guard let locales = funnel.locales, !locales.isEmpty else { return [] }
        let untranslated = Set(PlainCopy.untranslatedLocales(of: funnel).map(ExactKey.init))
        var texts: [CountedText] = []
        var lists: [CountedList] = []
        for page in funnel.pages {
            // The fields `texts` and `textLists` list, read in place: those make an array of
            // (name, text) pairs for each page, and the names are not wanted here.
            for field in Page.Field.textFields {
                if let text = page.text(field) { texts.append(CountedText(copy: text, needsTranslation: PlainCopy.needsTranslation(text))) }
            }
            for field in Page.Field.textListFields {
                if let list = page.textList(field) {
                    lists.append(CountedList(copy: list, needsTranslation: PlainCopy.needsTranslation(list)))
                }
            }
            for option in page.options ?? [] {
                texts.append(CountedText(copy: option.label, needsTranslation: PlainCopy.needsTranslation(option.label)))
            }
        }
        return locales.map { locale in
            let untranslated = untranslated.contains(ExactKey(locale))
            var coverage = Coverage(total: texts.count + lists.count)
            for text in texts {
                if untranslated && text.needsTranslation {
                    coverage.plain += 1
                } else if let value = text.copy.text(for: locale), !value.isEmpty {
                    coverage.present += 1
                }
            }
            for list in lists {
                if untranslated && list.needsTranslation {
                    coverage.plain += 1
                } else if let values = list.copy.list(for: locale), !values.isEmpty, values.allSatisfy({ !$0.isEmpty }) {
                    coverage.present += 1
                }
            }
            return (locale, coverage)
        }
    }

    /// A text of a funnel, and whether it is plain copy with words
    /// (`PlainCopy.needsTranslation`). A struct, not a tuple: an array of tuples looks its
    /// storage's metadata up at run time on every allocation.
    private struct CountedText {
        var copy: LocalizedText
        var needsTranslation: Bool
    }

    /// `CountedText` for a text list.
    private struct CountedList {
        var copy: LocalizedTextList
        var needsTranslation: Bool
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
