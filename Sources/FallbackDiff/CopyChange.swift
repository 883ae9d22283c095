import RovenueFallback

/// A changed text field of a page or option label, as a device reads it: the old and new text in
/// full for each locale, with the words that differ.
///
/// A text is one string for every locale (`plain`) or a string per locale (`localized`); a list
/// field (`benefits`, `features`, `steps`) reads as its items, one per line. Locales pair up as a
/// device sees them: a plain string is what every locale showed, so a plain string turned into a
/// localized object compares the string with each locale's new text (and the reverse).
///
/// A locale's text is compared word by word with a plain string it replaces (or that replaces it)
/// when it is at least a quarter of the string's length, so its own bytes pay for repeating the
/// string beside it. Shorter locales are compared too while repeating the string beside all of
/// them stays within `repeatedTextLimit` bytes or four times the change's texts; past that, the
/// string is listed once (`sharedSide`) and those locales show only their own text. A change then
/// costs time and output in proportion to its texts, not locales times the string's length.
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
        /// The words that differ; nil unless both sides have a text and they differ, and nil
        /// beside the text listed once (`omittedSide`).
        public let words: WordDiff?
        /// The side this locale leaves to the text listed once (`CopyChange.sharedSide`): it is
        /// not compared word by word, and the reports show only its other side. Nil when the
        /// locale shows both.
        public let omittedSide: SideName?

        /// True when the locale leaves a side to the text listed once (`omittedSide`).
        public var omitsSharedSide: Bool { omittedSide != nil }

        init(locale: String?, old: String?, new: String?, omittedSide: SideName? = nil) {
            self.locale = locale
            self.old = old
            self.new = new
            self.omittedSide = omittedSide
            if omittedSide == nil, let old, let new, !ExactKey.same(old, new) {
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

        /// The locale's `side` as the reports show it: the word diff's runs of that side (kept and
        /// removed, or kept and added); else its whole text as one run, kept, or removed (added)
        /// beside the text listed once; nil when the side has no text or is the text listed once.
        public func runs(of side: SideName) -> [WordDiff.Segment]? {
            guard side != omittedSide, let text = side == .old ? old : new else { return nil }
            if let words { return side == .old ? words.oldSegments : words.newSegments }
            return [WordDiff.Segment(omittedSide == nil ? .same : side == .old ? .removed : .added, text)]
        }
    }

    /// One of the two sides.
    public enum SideName: String, Sendable, Hashable {
        case old, new
    }

    /// Bytes of one plain text repeated beside the locales much shorter than it (under a quarter
    /// of its length) that any change may write; past this and past four times the change's
    /// texts, the text is listed once (`sharedSide`).
    public static let repeatedTextLimit = 16_384

    public let oldForm: Form
    public let newForm: Form
    /// Each locale's texts: the new side's locales in order, then those only the old side has; one
    /// entry with no locale when both sides are plain. Unchanged locales are listed too.
    public let locales: [LocaleText]
    /// The locales whose text differs.
    public var changedLocales: [LocaleText] { locales.filter { $0.status != .unchanged } }

    /// The side that is one text for every locale and is listed once, not beside the locales much
    /// shorter than it (those with an `omittedSide`): set when repeating it beside them would pass
    /// `repeatedTextLimit` bytes and four times the change's texts. Nil otherwise.
    public let sharedSide: SideName?

    /// The text listed once (`sharedSide`), nil when none is.
    public var sharedText: String? {
        switch sharedSide {
        case .old?: locales.first?.old
        case .new?: locales.first?.new
        case nil: nil
        }
    }

    /// The bytes of every locale's old and new text, unchanged locales included, with the text
    /// listed once (`sharedSide`) counted once: what the JSON report writes, and what a changes page
    /// counts against its budget.
    public var textBytes: Int {
        var bytes = sharedText?.utf8.count ?? 0
        for text in locales {
            if text.omittedSide != .old { bytes += text.old?.utf8.count ?? 0 }
            if text.omittedSide != .new { bytes += text.new?.utf8.count ?? 0 }
        }
        return bytes
    }

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
            let omits = Self.omittedLocales(old, comparedWith: new)
            if omits.contains(true) { sharedSide = .old }
            locales = zip(new, omits).map { LocaleText(locale: $0.locale, old: old, new: $0.text, omittedSide: $1 ? .old : nil) }
        case (.localized(let old), .plain(let new)):
            let omits = Self.omittedLocales(new, comparedWith: old)
            if omits.contains(true) { sharedSide = .new }
            locales = zip(old, omits).map { LocaleText(locale: $0.locale, old: $0.text, new: new, omittedSide: $1 ? .new : nil) }
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

    /// For each of `texts`, true when it leaves `plain` to be listed once rather than compared with
    /// it: a text that differs from `plain` and is under a quarter of its length is short, and the
    /// short texts all leave it when repeating it beside each of them would pass both
    /// `repeatedTextLimit` bytes and four times the bytes of `plain` and `texts`.
    static func omittedLocales(_ plain: String, comparedWith texts: [(locale: String, text: String)]) -> [Bool] {
        let length = plain.utf8.count
        var short = [Bool](repeating: false, count: texts.count)
        var shortCount = 0
        var textBytes = length
        for (index, item) in texts.enumerated() {
            let bytes = item.text.utf8.count
            textBytes += bytes
            // Shorter than `plain`, so different from it.
            if bytes * 4 < length {
                short[index] = true
                shortCount += 1
            }
        }
        let repeated = shortCount * length
        return repeated > max(repeatedTextLimit, 4 * textBytes) ? short : [Bool](repeating: false, count: texts.count)
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
