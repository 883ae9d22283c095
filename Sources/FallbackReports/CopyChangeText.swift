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
    /// `every locale (now): {+…+}` last, and each locale's line holds only its own text.
    public static func lines(_ copy: CopyChange) -> [String] {
        let changed = copy.changedLocales
        var lines = changed.map { text in
            let segments: [WordDiff.Segment] =
                switch copy.sharedSide {
                case .old?: text.new.map { [WordDiff.Segment(.added, $0)] } ?? []
                case .new?: text.old.map { [WordDiff.Segment(.removed, $0)] } ?? []
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
    /// `` `de`: Guten <del>Morgen</del> `` (or `*none*`). A side listed once
    /// (`CopyChange.sharedSide`) is one line, `` `every locale`: <del>…</del> ``.
    public static func markdown(_ copy: CopyChange, new: Bool) -> [String] {
        if let shared = copy.sharedText, copy.sharedSide == (new ? .new : .old) {
            let escaped = MarkdownEscaping.inline(shared)
            return ["<code>every locale</code>: " + (new ? "<ins>\(escaped)</ins>" : "<del>\(escaped)</del>")]
        }
        return copy.changedLocales.map { text in
            // A locale beside a side listed once shows its own text whole, removed or added.
            let own = new ? text.new : text.old
            let wholeOperation: WordDiff.Operation = copy.sharedSide == nil ? .same : new ? .added : .removed
            let segments = text.words.map { new ? $0.newSegments : $0.oldSegments } ?? own.map { [WordDiff.Segment(wholeOperation, $0)] }
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
