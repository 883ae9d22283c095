import FallbackDiff

/// A copy change's texts as the diff reports write them: each locale whose text differs, old and
/// new in full, the words that differ marked.
///
/// In text, one line per locale in git's `--word-diff=plain` notation, `[-removed-]{+added+}`, line
/// breaks shown as `↵`; in Markdown, the old text with `<del>` runs and the new with `<ins>` runs
/// (GitHub renders both; emphasis markers would not hold around punctuation or spaces). A removed
/// or added run of whitespace shows its characters (`·` space, `⇥` tab, `↵` line break).
public enum CopyChangeText {
    /// `de: Guten [-Morgen-]{+Abend+}`, one line per locale whose text differs. A text listed once
    /// (`CopyChange.sharedSide`) has a line of its own, `every locale (before): [-…-]` first or
    /// `every locale (now): {+…+}` last, and the locales beside it (`omittedSide`) show only
    /// their own text.
    public static func lines(_ copy: CopyChange) -> [String] {
        var lines = copy.changedLocales.map { text in
            let segments: [WordDiff.Segment] =
                switch text.omittedSide {
                case .old?: text.runs(of: .new) ?? []
                case .new?: text.runs(of: .old) ?? []
                case nil:
                    text.words?.segments ?? (text.old.map { [WordDiff.Segment(.removed, $0)] } ?? [])
                        + (text.new.map { [WordDiff.Segment(.added, $0)] } ?? [])
                }
            return "\(label(text)): \(marked(segments))"
        }
        if let shared = copy.sharedText, let side = copy.sharedSide {
            switch side {
            case .old: lines.insert("every locale (before): \(marked([WordDiff.Segment(.removed, shared)]))", at: 0)
            case .new: lines.append("every locale (now): \(marked([WordDiff.Segment(.added, shared)]))")
            }
        }
        return lines
    }

    /// Runs in `[-removed-]{+added+}` notation on one line: a line break shows as `↵`.
    static func marked(_ segments: [WordDiff.Segment]) -> String {
        segments.map { segment in
            let shown = shownText(segment).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).joined(
                separator: "↵")
            switch segment.operation {
            case .same: return shown
            case .removed: return "[-\(shown)-]"
            case .added: return "{+\(shown)+}"
            }
        }.joined()
    }

    /// The old (`new` false) or new text of each locale whose text differs, as Markdown lines:
    /// `` `de`: Guten <del>Morgen</del> `` (or `*none*`). A text listed once
    /// (`CopyChange.sharedSide`) is one line of its side, `` `every locale`: <del>…</del> ``, in
    /// place of the locales beside it (`omittedSide`), which show their own side whole.
    public static func markdown(_ copy: CopyChange, new: Bool) -> [String] {
        let side: CopyChange.SideName = new ? .new : .old
        var lines: [String] = []
        if let shared = copy.sharedText, copy.sharedSide == side {
            let escaped = MarkdownEscaping.inline(shared)
            lines.append("<code>every locale</code>: " + (new ? "<ins>\(escaped)</ins>" : "<del>\(escaped)</del>"))
        }
        for text in copy.changedLocales where text.omittedSide != side {
            let body =
                text.runs(of: side).map { segments in
                    segments.map { segment in
                        let escaped = MarkdownEscaping.inline(shownText(segment))
                        switch segment.operation {
                        case .same: return escaped
                        case .removed: return "<del>\(escaped)</del>"
                        case .added: return "<ins>\(escaped)</ins>"
                        }
                    }.joined()
                } ?? "*none*"
            lines.append("<code>\(MarkdownEscaping.inline(label(text)))</code>: \(body)")
        }
        return lines
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
