import RovenueFallback

/// A changed text field of a page or option label, as a device reads it: the old and new text in
/// full for each locale, with the words that differ.
///
/// A text is one string for every locale (`plain`) or a string per locale (`localized`); a list
/// field (`benefits`, `features`, `steps`) reads as its items, one per line. Locales pair up as a
/// device sees them: a plain string is what every locale showed, so a plain string turned into a
/// localized object compares the string with each locale's new text (and the reverse).
///
/// Compared with many locales, a long plain string would be repeated beside each of them: once
/// that would pass `repeatedTextLimit` bytes, the string is listed once instead (`sharedSide`) and
/// each locale shows only its own text, so the change costs time and output in proportion to the
/// texts themselves.
public struct CopyChange: Sendable, Hashable {
    /// How a side writes the text.
    public enum Form: String, Sendable, Hashable {
        /// No text (the field is absent or `null`).
        case absent
        /// One string (or list) for every locale.
        case plain
        /// A string (or list) per locale.
        case localized
    }

    /// What happened to one locale's text.
    public enum Status: String, Sendable, Hashable {
        case changed, added, removed, unchanged
    }

    /// One locale's old and new text.
    public struct LocaleText: Sendable, Hashable {
        /// The locale, nil when both sides are one text for every locale.
        public let locale: String?
        /// The text before, nil when the locale had none.
        public let old: String?
        /// The text after, nil when the locale has none.
        public let new: String?
        /// The words that differ; nil unless both sides have a text and they differ, and nil when
        /// the change lists one side once (`CopyChange.sharedSide`).
        public let words: WordDiff?

        init(locale: String?, old: String?, new: String?, comparingWords: Bool = true) {
            self.locale = locale
            self.old = old
            self.new = new
            if comparingWords, let old, let new, !ExactKey.same(old, new) {
                words = WordDiff(old: old, new: new)
            } else {
                words = nil
            }
        }

        public var status: Status {
            switch (old, new) {
            case (nil, _): .added
            case (_, nil): .removed
            case (let old?, let new?): ExactKey.same(old, new) ? .unchanged : .changed
            }
        }

        /// True when only whitespace differs.
        public var changesOnlyWhitespace: Bool { words?.changesOnlyWhitespace ?? false }
    }

    /// One of the two sides.
    public enum SideName: String, Sendable, Hashable {
        case old, new
    }

    /// Bytes of one plain text repeated beside the locales it is compared with (its length times
    /// the locales whose text differs) past which the text is listed once (`sharedSide`).
    public static let repeatedTextLimit = 65_536

    public let oldForm: Form
    public let newForm: Form
    /// Each locale's texts: the new side's locales in order, then those only the old side has; one
    /// entry with no locale when both sides are plain. Unchanged locales are listed too.
    public let locales: [LocaleText]
    /// The side that is one text for every locale and is listed once, not beside each locale: set
    /// when a plain side is compared with two or more locales whose text differs and repeating it
    /// beside each would pass `repeatedTextLimit` bytes. Each locale still holds that text as its
    /// `old` (or `new`), but has no `words`; the reports write the text once and each locale's own
    /// text whole. Nil otherwise.
    public let sharedSide: SideName?

    /// The text listed once (`sharedSide`), nil when none is.
    public var sharedText: String? {
        switch sharedSide {
        case .old?: locales.first?.old
        case .new?: locales.first?.new
        case nil: nil
        }
    }

    /// The bytes of text the reports show for the locales whose text differs: each locale's old and
    /// new text, with a shared side (`sharedSide`) counted once.
    public var shownTextBytes: Int {
        var bytes = sharedText?.utf8.count ?? 0
        for text in locales where text.status != .unchanged {
            if sharedSide != .old { bytes += text.old?.utf8.count ?? 0 }
            if sharedSide != .new { bytes += text.new?.utf8.count ?? 0 }
        }
        return bytes
    }

    /// The locales whose text differs.
    public var changedLocales: [LocaleText] { locales.filter { $0.status != .unchanged } }

    init(old: Side, new: Side) {
        oldForm = old.form
        newForm = new.form
        var sharedSide: SideName?
        switch (old, new) {
        case (.absent, .absent):
            locales = []
        case (.plain(let old), .plain(let new)):
            locales = [LocaleText(locale: nil, old: old, new: new)]
        case (.plain(let old), .absent):
            locales = [LocaleText(locale: nil, old: old, new: nil)]
        case (.absent, .plain(let new)):
            locales = [LocaleText(locale: nil, old: nil, new: new)]
        case (.plain(let old), .localized(let new)):
            let listedOnce = Self.listsOnce(old, comparedWith: new)
            if listedOnce { sharedSide = .old }
            locales = new.map { LocaleText(locale: $0.locale, old: old, new: $0.text, comparingWords: !listedOnce) }
        case (.localized(let old), .plain(let new)):
            let listedOnce = Self.listsOnce(new, comparedWith: old)
            if listedOnce { sharedSide = .new }
            locales = old.map { LocaleText(locale: $0.locale, old: $0.text, new: new, comparingWords: !listedOnce) }
        case (.localized(let old), .absent):
            locales = old.map { LocaleText(locale: $0.locale, old: $0.text, new: nil) }
        case (.absent, .localized(let new)):
            locales = new.map { LocaleText(locale: $0.locale, old: nil, new: $0.text) }
        case (.localized(let old), .localized(let new)):
            var oldTexts: [ExactKey: String] = [:]
            for item in old { oldTexts[ExactKey(item.locale)] = item.text }
            var seen: Set<ExactKey> = []
            var locales: [LocaleText] = []
            for item in new where seen.insert(ExactKey(item.locale)).inserted {
                locales.append(LocaleText(locale: item.locale, old: oldTexts[ExactKey(item.locale)], new: item.text))
            }
            for item in old where seen.insert(ExactKey(item.locale)).inserted {
                locales.append(LocaleText(locale: item.locale, old: item.text, new: nil))
            }
            self.locales = locales
        }
        self.sharedSide = sharedSide
    }

    /// True when `plain`, repeated beside each of `texts` that differs from it, would pass
    /// `repeatedTextLimit` bytes, and at least two differ.
    static func listsOnce(_ plain: String, comparedWith texts: [(locale: String, text: String)]) -> Bool {
        let length = plain.utf8.count
        var differing = 0
        for item in texts where !ExactKey.same(plain, item.text) {
            differing += 1
            if differing >= 2, length * differing > repeatedTextLimit { return true }
        }
        return false
    }

    /// A text as a device reads it: absent, one text, or a text per locale (in written order).
    enum Side {
        case absent
        case plain(String)
        case localized([(locale: String, text: String)])

        var form: Form {
            switch self {
            case .absent: .absent
            case .plain: .plain
            case .localized: .localized
            }
        }

        init(_ text: LocalizedText?) {
            switch text {
            case nil: self = .absent
            case .plain(let text)?: self = .plain(text)
            case .localized(let map)?: self = .localized(map.pairs.map { ($0.key, $0.value) })
            }
        }

        /// A list reads as its items, one per line.
        init(_ list: LocalizedTextList?) {
            switch list {
            case nil: self = .absent
            case .plain(let items)?: self = .plain(items.joined(separator: "\n"))
            case .localized(let map)?: self = .localized(map.pairs.map { ($0.key, $0.value.joined(separator: "\n")) })
            }
        }
    }
}
