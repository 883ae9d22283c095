import FallbackDiff

/// A copy change's texts as the diff reports write them: each locale whose text differs, old and
/// new in full, the words that differ marked.
///
/// In text, one line per locale in git's `--word-diff=plain` notation, `[-removed-]{+added+}`, line
/// breaks shown as `↵`; in Markdown, the old text with `<del>` runs and the new with `<ins>` runs
/// (GitHub renders both; emphasis markers would not hold around punctuation or spaces). A removed
/// or added run of whitespace shows its characters (`·` space, `⇥` tab, `↵` line break).
public enum CopyChangeText {
    /// `de: Guten [-Morgen-]{+Abend+}`, one line per locale whose text differs.
    public static func lines(_ copy: CopyChange) -> [String] {
        copy.changedLocales.map { text in
            let segments: [WordDiff.Segment] =
                text.words?.segments ?? (text.old.map { [WordDiff.Segment(.removed, $0)] } ?? [])
                + (text.new.map { [WordDiff.Segment(.added, $0)] } ?? [])
            let marked = segments.map { segment in
                // One line per locale: a line break shows as `↵`.
                let shown = shownText(segment).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(
                    separator: "↵")
                switch segment.operation {
                case .same: return shown
                case .removed: return "[-\(shown)-]"
                case .added: return "{+\(shown)+}"
                }
            }.joined()
            return "\(label(text)): \(marked)"
        }
    }

    /// The old (`new` false) or new text of each locale whose text differs, as Markdown lines:
    /// `` `de`: Guten <del>Morgen</del> `` (or `*none*`).
    public static func markdown(_ copy: CopyChange, new: Bool) -> [String] {
        copy.changedLocales.map { text in
            let whole = (new ? text.new : text.old).map { [WordDiff.Segment(.same, $0)] }
            let segments = text.words.map { new ? $0.newSegments : $0.oldSegments } ?? whole
            let body =
                segments.map { segments in
                    segments.map { segment in
                        let escaped = MarkdownEscaping.inline(shownText(segment))
                        switch segment.operation {
                        case .same: return escaped
                        case .removed: return "<del>\(escaped)</del>"
                        case .added: return "<ins>\(escaped)</ins>"
                        }
                    }.joined()
                } ?? "*none*"
            return "<code>\(MarkdownEscaping.inline(label(text)))</code>: \(body)"
        }
    }

    /// `de`, `every locale`, with `(added)`, `(removed)` or `(only whitespace)` when it applies.
    static func label(_ text: CopyChange.LocaleText) -> String {
        let locale = text.locale ?? "every locale"
        switch text.status {
        case .added: return "\(locale) (added)"
        case .removed: return "\(locale) (removed)"
        case .changed, .unchanged: return text.changesOnlyWhitespace ? "\(locale) (only whitespace)" : locale
        }
    }

    /// A run's text, its whitespace shown when the run is a removed or added run of whitespace
    /// (a line break as `↵` and the break itself, which `lines(_:)` then joins).
    static func shownText(_ segment: WordDiff.Segment) -> String {
        guard segment.operation != .same, segment.isWhitespace else { return segment.text }
        return WordDiff.visibleWhitespace(segment.text).replacingOccurrences(of: "↵\n", with: "↵")
    }
}
