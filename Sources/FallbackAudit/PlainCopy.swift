import RovenueFallback

/// Plain copy in a funnel that declares several locales: a `Text` written as a string, or a
/// `TextList` written as a list, shows the same words on every device, whatever its locale.
///
/// The audit reports it (`text-not-localized`) and the site counts it as untranslated for every
/// declared locale but the one the copy is written in.
package enum PlainCopy {
    /// The locale a funnel's plain copy is taken to be written in: `defaultLocale`, else the first
    /// declared locale.
    package static func writtenLocale(of funnel: Funnel) -> String? {
        funnel.defaultLocale ?? funnel.locales?.first
    }

    /// The declared locales, other than the one plain copy is written in, whose devices show plain
    /// copy untranslated; empty unless the funnel declares two or more distinct locales.
    /// Locales compare by their bytes, as the SDK compares keys.
    ///
    /// A funnel declares a handful of locales: up to `searchedLocaleLimit` are told apart by
    /// comparing each with those before it, more through a set.
    package static func untranslatedLocales(of funnel: Funnel) -> [String] {
        guard let locales = funnel.locales, locales.count > 1 else { return [] }
        var distinct: [String] = []
        if locales.count <= searchedLocaleLimit {
            for locale in locales where !distinct.contains(where: { ExactKey.same($0, locale) }) {
                distinct.append(locale)
            }
        } else {
            var seen: Set<ExactKey> = []
            distinct = locales.filter { seen.insert(ExactKey($0)).inserted }
        }
        guard distinct.count > 1 else { return [] }
        guard let written = writtenLocale(of: funnel) else { return distinct }
        return distinct.filter { !ExactKey.same($0, written) }
    }

    /// Whether `untranslatedLocales(of:)` is not empty: the funnel declares two or more distinct
    /// locales (one of them, at least, is not the one plain copy is written in). Compares each
    /// declared locale with the first, without gathering the distinct ones.
    package static func hasUntranslatedLocales(_ funnel: Funnel) -> Bool {
        guard let locales = funnel.locales, let first = locales.first else { return false }
        return locales.contains { !ExactKey.same($0, first) }
    }

    /// How many declared locales `untranslatedLocales(of:)` compares one by one.
    static let searchedLocaleLimit = 16

    /// Whether a text reads the same in every language: it has no letters (numbers, emoji,
    /// punctuation, or nothing but spaces).
    ///
    /// Read on the UTF-8 bytes while they are ASCII: an ASCII letter with only ASCII before it
    /// starts a character of its own (only a non-ASCII prepended mark could join it to the one
    /// before), so the text has a letter; text that is all ASCII has one only if such a byte is
    /// a letter. From the first non-ASCII byte on, it asks the characters (`referenceIsLanguageNeutral`).
    package static func isLanguageNeutral(_ text: String) -> Bool {
        for byte in text.utf8 {
            guard byte < 0x80 else { return referenceIsLanguageNeutral(text) }
            if (byte | 0x20) &- UInt8(ascii: "a") < 26 { return false }
        }
        return true
    }

    /// `isLanguageNeutral(_:)` by its definition, character by character.
    package static func referenceIsLanguageNeutral(_ text: String) -> Bool {
        !text.contains(where: \.isLetter)
    }

    /// Whether `text` is plain and has words a translation would change.
    package static func needsTranslation(_ text: LocalizedText) -> Bool {
        guard case .plain(let value) = text else { return false }
        return !isLanguageNeutral(value)
    }

    /// Whether `list` is plain and has an item with words a translation would change.
    package static func needsTranslation(_ list: LocalizedTextList) -> Bool {
        guard case .plain(let values) = list else { return false }
        return values.contains { !isLanguageNeutral($0) }
    }
}
