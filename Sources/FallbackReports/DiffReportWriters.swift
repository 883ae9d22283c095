import FallbackAudit
import FallbackDiff
import RovenueFallback

/// What changes for an offline device between two snapshots, written in every `ReportFormat`
/// (`docs/diff.md` documents each).
public struct DiffReport: FormattedReport {
    /// The rows a Markdown section shows before it says how many it left out.
    public static let markdownRowLimit = 250

    public let diff: SnapshotDiff
    /// The snapshots as the command line named them.
    public let oldPath: String
    public let newPath: String
    public let failOn: ChangeThreshold
    public let ciReport: CheckReport

    /// `title` and `tool` name the program in the CI formats.
    public init(diff: SnapshotDiff, oldPath: String, newPath: String, failOn: ChangeThreshold, title: String, tool: ReportTool) {
        self.diff = diff
        self.oldPath = oldPath
        self.newPath = newPath
        self.failOn = failOn
        ciReport = CheckReport(diff: diff, oldPath: oldPath, newPath: newPath, failOn: failOn, title: title, tool: tool)
    }

    /// True when either snapshot is rejected or a change reaches `failOn`.
    public var fails: Bool {
        diff.hasRejectedSnapshot || failOn.changeClass.map(diff.reaches) == true
    }

    private var sides: [(label: String, path: String, snapshot: SnapshotDiff.Snapshot)] {
        [("old", oldPath, diff.old), ("new", newPath, diff.new)]
    }

    /// `Breaking`, `Notable` or `Info`: a class as headings name it.
    public static func title(_ changeClass: ChangeClass) -> String {
        switch changeClass {
        case .breaking: "Breaking"
        case .notable: "Notable"
        case .info: "Info"
        }
    }

    /// `1 breaking, 5 notable, 3 info`.
    public static func summary(_ diff: SnapshotDiff) -> String {
        ChangeClass.allCases.map { "\(diff.count($0)) \($0.rawValue)" }.joined(separator: ", ")
    }

    /// `"a" → "b": 120 buckets (0–119)`: the buckets that draw another variant.
    public static func moveText(_ move: Rebucketing.Move) -> String {
        let ranges = move.ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
        let ids = "\(JSONValue.quoted(move.from)) → \(JSONValue.quoted(move.to))"
        return "\(ids): \(move.buckets) buckets (\(ranges.joined(separator: ", ")))"
    }

    static func rebucketingText(_ item: Rebucketing) -> String {
        "experiment \(JSONValue.quoted(item.experimentId)): \(item) (\(item.movedBuckets) of \(Bucketing.bucketCount) buckets)"
    }

    // MARK: Text

    /// A key as typed, or as a JSON string when it has characters a terminal would act on; past
    /// 80 characters cut, with `…`, as messages quote ids (a key repeated on every change's line
    /// must not print a megabyte key once a change).
    static func display(_ key: String?) -> String {
        guard let key else { return "(file)" }
        let plain = !key.isEmpty && !key.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F || $0 == "\"" || $0 == "\\" }
        return plain ? Format.shortened(key) : Format.quoted(key)
    }

    /// A changelog grouped by class, breaking first, then re-bucketing and the counts. Info
    /// changes are counted, not listed, unless `style` lists infos.
    public func text(_ style: TextStyle) -> String {
        var output = ""
        for (label, path, snapshot) in sides {
            var line = "\(label): \(style.paint(path, .location)): \(VisibleText.forTerminal(snapshot.verdict))"
            if let rejection = snapshot.rejection { line += ": \(VisibleText.forTerminal(rejection))" }
            if let date = snapshot.generatedAtDate { line += " (generated \(VisibleText.forTerminal(date)))" }
            output += line + "\n"
        }
        if diff.changes.isEmpty {
            output += "\nNo changes.\n"
        }
        var hidden = 0
        for changeClass in ChangeClass.allCases {
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { continue }
            let severity = changeClass.severity
            guard severity > .info || style.listsInfos || failOn.failureThreshold.fails(severity) else {
                hidden += changes.count
                continue
            }
            output += "\n\(style.paint("\(Self.title(changeClass)) (\(changes.count))", TextStyle.Role(severity)))\n"
            // Three or more changes of one kind share one heading, as check groups a rule's findings.
            // A placement's changes follow one another: its key is read once for them.
            var shown: (key: String?, display: String)?
            let entries = changes.map { change in
                let location: String
                if let last = shown, ExactKey.same(last.key, change.placementKey) {
                    location = last.display
                } else {
                    location = Self.display(change.placementKey)
                    shown = (change.placementKey, location)
                }
                return FindingListText.Entry(
                    scope: "", location: location, rule: change.kind.rawValue, severity: severity,
                    message: change.message, detail: Self.detail(change))
            }
            output += FindingListText(entries, layout: .changelog, style: style).text
        }
        if !diff.rebucketing.isEmpty {
            output += "\nRe-bucketing\n"
            for item in diff.rebucketing {
                output += VisibleText.forTerminal("  - \(Self.display(item.placementKey)): \(Self.rebucketingText(item))") + "\n"
                for move in item.moves { output += VisibleText.forTerminal("      \(Self.moveText(move))") + "\n" }
            }
        }
        let notShown = hidden == 0 ? "" : "; \(hidden) info \(hidden == 1 ? "change" : "changes") not shown: \(TextStyle.verboseHint)"
        output += "\n\(Self.summary(diff))\(notShown)\n"
        return output
    }

    /// The lines under a change in text: each locale's words for a copy change (`de: Guten
    /// [-Morgen-]{+Abend+}`), else `old → new` as JSON; nil without values.
    static func detail(_ change: Change) -> String? {
        if let copy = change.copy {
            let lines = CopyChangeText.lines(copy)
            if !lines.isEmpty { return lines.joined(separator: "\n") }
        }
        guard change.oldValue != nil || change.newValue != nil else { return nil }
        return "\(change.oldValue ?? "(none)") → \(change.newValue ?? "(none)")"
    }

    // MARK: JSON

    public func json() -> String {
        jsonValue.jsonText([.prettyPrinted]) + "\n"
    }

    /// `json()` written as it is made, a chunk at a time: the changes in parallel waves, each
    /// change written a member at a time and a copy change's locales one by one, so the report is
    /// never held whole (a change names
    /// its placement key and its pointers, which can be megabytes each); the CI formats as every
    /// report writes them.
    public func write(as format: ReportFormat, style: TextStyle, to sink: ReportSink) {
        switch format {
        case .json: writeJSON(to: sink)
        default: writeReport(as: format, style: style, to: sink)
        }
    }

    private func writeJSON(to sink: ReportSink) {
        var writer = PrettyJSONWriter(output: sink)
        writer.beginObject()
        writer.key("old")
        writer.value(Self.snapshotJSON(oldPath, diff.old))
        writer.key("new")
        writer.value(Self.snapshotJSON(newPath, diff.new))
        writer.key("changes")
        writer.beginArray()
        let estimatedBytes = { (change: Change) in
            // Keys, ids and pointers as `RepeatedText` writes them.
            let strings = [change.message, change.oldValue, change.newValue, change.field]
            let repeated = [change.placementKey, change.variantId, change.funnelId, change.pageId, change.paywallId]
            return 400 + strings.reduce(0) { $0 + ($1?.utf8.count ?? 0) } + repeated.reduce(0) { $0 + min($1?.utf8.count ?? 0, RepeatedText.wholeLimit) }
                + 3 * min(
                    max(change.oldLocation?.jsonPointer.utf8Count ?? 0, change.newLocation?.jsonPointer.utf8Count ?? 0),
                    RepeatedText.wholePointerLimit)
                // Each locale's old and new text, and its words, written out.
                + 3 * (change.copy?.textBytes ?? 0)
        }
        writer.elements(diff.changes, estimatedBytes: estimatedBytes) { writer, change in Self.writeChange(change, to: &writer) }
        writer.end()
        writer.key("rebucketing")
        writer.value(.array(diff.rebucketing.map(Self.rebucketingJSON)))
        writer.key("summary")
        writer.value(summaryJSON)
        writer.end()
        writer.finish()
    }

    /// Both snapshots, every change with its places, the re-bucketing, and the counts with the verdict.
    public var jsonValue: JSONValue {
        .object([
            .init("old", Self.snapshotJSON(oldPath, diff.old)), .init("new", Self.snapshotJSON(newPath, diff.new)),
            .init("changes", .array(diff.changes.map(Self.changeJSON))), .init("rebucketing", .array(diff.rebucketing.map(Self.rebucketingJSON))),
            .init("summary", summaryJSON),
        ])
    }

    private static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? nil }
    /// An id or pointer that changes repeat, as `RepeatedText` writes it.
    private static func repeated(_ value: String?) -> JSONValue { text(RepeatedText.shortened(value)) }
    private static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    static func locationJSON(_ location: FallbackFile.Location?) -> JSONValue {
        guard let location else { return nil }
        return .object([
            .init("pointer", .string(RepeatedText.shortened(pointer: location.jsonPointer))), .init("line", integer(location.line)),
            .init("column", integer(location.column)),
        ])
    }

    static func snapshotJSON(_ path: String, _ snapshot: SnapshotDiff.Snapshot) -> JSONValue {
        .object([
            .init("path", .string(path)), .init("readable", true), .init("verdict", .string(snapshot.verdict)),
            .init("rejected", .bool(snapshot.isRejected)),
            .init("rejection", text(snapshot.rejection)),
            .init(TopLevelField.generatedAt, snapshot.generatedAt.map { .number(JSONNumber(text: String($0))) } ?? nil),
            .init("generatedAtDate", text(snapshot.generatedAtDate)), .init(TopLevelField.projectId, text(snapshot.projectId)),
            .init("entries", integer(snapshot.entryCount)), .init("loaded", integer(snapshot.loadedCount)),
        ])
    }

    static func changeJSON(_ change: Change) -> JSONValue {
        .object(changeMembers(change) + [.init("copy", change.copy.map(Self.copyJSON) ?? nil)])
    }

    /// A change's members before its copy.
    private static func changeMembers(_ change: Change) -> [JSONValue.Member] {
        [
            .init("class", .string(change.changeClass.rawValue)), .init("kind", .string(change.kind.rawValue)),
            .init("placement", repeated(change.placementKey)), .init("variant", repeated(change.variantId)),
            .init("funnel", repeated(change.funnelId)), .init("page", repeated(change.pageId)), .init("paywall", repeated(change.paywallId)),
            .init("field", text(change.field)), .init("message", .string(change.message)), .init("old", text(change.oldValue)),
            .init("new", text(change.newValue)), .init("pointer", text(change.jsonPointer.map { RepeatedText.shortened(pointer: $0) })),
            .init("oldLocation", locationJSON(change.oldLocation)), .init("newLocation", locationJSON(change.newLocation)),
        ]
    }

    /// `changeJSON(change)` written a locale at a time: a copy change of hundreds of thousands of
    /// locales is never a tree of values in memory (it once took 1.5 GB to write 284 MB of text).
    private static func writeChange(_ change: Change, to writer: inout PrettyJSONWriter) {
        writer.beginObject()
        for member in changeMembers(change) {
            writer.key(text: member.key)
            writer.value(member.value)
        }
        writer.key("copy")
        if let copy = change.copy {
            writer.beginObject()
            for member in copyHeadMembers(copy) {
                writer.key(text: member.key)
                writer.value(member.value)
            }
            writer.key("locales")
            writer.beginArray()
            for locale in copy.locales { writer.value(localeJSON(locale)) }
            writer.end()
            writer.end()
        } else {
            writer.null()
        }
        writer.end()
    }

    static func rebucketingJSON(_ item: Rebucketing) -> JSONValue {
        let shares = { (shares: [Rebucketing.Share]) -> JSONValue in
            .array(
                shares.map { share in
                    .object([
                        .init("variant", .string(share.variantId)), .init(Variant.Field.weight, .number(JSONNumber(share.weight))),
                        .init("buckets", integer(share.buckets)),
                    ])
                })
        }
        return .object([
            .init("placement", .string(item.placementKey)), .init("experiment", .string(item.experimentId)),
            .init("experimentKey", .string(item.experimentKey)), .init("movedBuckets", integer(item.movedBuckets)),
            .init("movedShare", .number(JSONNumber(item.movedShare))), .init("movedPercent", .string(item.movedPercent)),
            .init("split", .string(item.splitText)), .init("oldVariants", shares(item.old)), .init("newVariants", shares(item.new)),
            .init(
                "moves",
                .array(
                    item.moves.map { move in
                        .object([
                            .init("from", .string(move.from)), .init("to", .string(move.to)), .init("buckets", integer(move.buckets)),
                            .init("ranges", .array(move.ranges.map { [integer($0.lowerBound), integer($0.upperBound)] })),
                        ])
                    })),
        ])
    }

    private var summaryJSON: JSONValue {
        .object([
            .init("breaking", Self.integer(diff.count(.breaking))), .init("notable", Self.integer(diff.count(.notable))),
            .init("info", Self.integer(diff.count(.info))), .init("failOn", .string(failOn.rawValue)), .init("failed", .bool(fails)),
        ])
    }

    /// A copy change's texts: how each side writes the text, the side listed once (`shared`, with
    /// its text; `null` when none is), and every locale with its old and new text in full (`null`
    /// for the shared side when `sharedOmitted`), its status, and the runs of words (`same`,
    /// `removed`, `added`).
    static func copyJSON(_ copy: CopyChange) -> JSONValue {
        .object(copyHeadMembers(copy) + [.init("locales", .array(copy.locales.map(localeJSON)))])
    }

    /// A copy change's members before its locales: both forms and the side listed once.
    private static func copyHeadMembers(_ copy: CopyChange) -> [JSONValue.Member] {
        let shared: JSONValue =
            copy.sharedSide.map { side in
                .object([.init("side", .string(side.rawValue)), .init("text", text(copy.sharedText))])
            } ?? nil
        return [
            .init("oldForm", .string(copy.oldForm.rawValue)), .init("newForm", .string(copy.newForm.rawValue)),
            .init("shared", shared),
        ]
    }

    /// One locale of a copy change: its texts, status and runs of words.
    private static func localeJSON(_ locale: CopyChange.LocaleText) -> JSONValue {
        .object([
            .init("locale", text(locale.locale)), .init("status", .string(locale.status.rawValue)),
            .init("whitespaceOnly", .bool(locale.changesOnlyWhitespace)),
            .init("sharedOmitted", .bool(locale.omitsSharedSide)),
            .init("old", locale.omittedSide == .old ? nil : text(locale.old)),
            .init("new", locale.omittedSide == .new ? nil : text(locale.new)),
            .init(
                "words",
                locale.words.map { words in
                    .array(
                        words.segments.map { segment in
                            .object([.init("op", .string(segment.operation.rawValue)), .init("text", .string(segment.text))])
                        })
                } ?? nil),
        ])
    }

    // MARK: Markdown

    /// Counts, both snapshots, a table per class (info folded away), then the re-bucketing.
    public func markdown() -> String {
        let escape = MarkdownEscaping.inline
        // Placement keys, ids, paths and messages are cut as the check's Markdown cuts them: a key
        // can be a megabyte, and each row names one.
        let key = { (text: String) in escape(MarkdownEscaping.truncated(text, to: MarkdownReport.keyLimit)) }
        let message = { (text: String) in escape(MarkdownEscaping.truncated(text, to: MarkdownReport.messageLimit)) }
        var lines = ["## Fallback snapshot diff", ""]
        lines.append(
            ChangeClass.allCases.map { changeClass in
                let text = "\(Self.title(changeClass)): \(diff.count(changeClass))"
                return changeClass == .breaking && diff.count(.breaking) > 0 ? "**\(text)**" : text
            }.joined(separator: " · "))
        lines += ["", "| | snapshot | loader | generated |", "| --- | --- | --- | --- |"]
        for (label, path, snapshot) in sides {
            let verdict = snapshot.rejection.map { "\(snapshot.verdict): \($0)" } ?? snapshot.verdict
            lines.append(
                "| \(label) | \(escape(MarkdownEscaping.truncated(path, to: MarkdownReport.pathLimit))) | \(message(verdict)) | "
                    + "\(escape(snapshot.generatedAtDate ?? "")) |")
        }
        if diff.changes.isEmpty {
            lines += ["", "No changes."]
        }
        // The rows stay within the check's Markdown limit, breaking first: what does not fit is
        // counted with the rest.
        var used = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        let budget = MarkdownReport.defaultByteLimit - MarkdownReport.reserve
        for changeClass in ChangeClass.allCases {
            let changes = diff.changes(changeClass)
            guard !changes.isEmpty else { continue }
            let heading = "\(Self.title(changeClass)) (\(changes.count))"
            lines.append("")
            if changeClass == .info {
                lines += ["<details>", "<summary>\(heading)</summary>", ""]
            } else {
                lines += ["### \(heading)", ""]
            }
            lines += ["| placement | kind | change | old | new |", "| --- | --- | --- | --- | --- |"]
            used += MarkdownReport.sectionOverhead
            var shown = 0
            for change in changes.prefix(Self.markdownRowLimit) {
                // A copy change shows each locale's whole text, the words that differ marked.
                let copy = change.copy.flatMap { $0.changedLocales.isEmpty ? nil : $0 }
                let cells = [
                    change.placementKey.map(key) ?? "*file*", change.kind.rawValue, message(change.message),
                    copy.map { CopyChangeText.markdown($0, new: false).joined(separator: "<br>") } ?? message(change.oldValue ?? ""),
                    copy.map { CopyChangeText.markdown($0, new: true).joined(separator: "<br>") } ?? message(change.newValue ?? ""),
                ]
                let row = "| " + cells.joined(separator: " | ") + " |"
                guard used + row.utf8.count + 1 <= budget else { break }
                used += row.utf8.count + 1
                lines.append(row)
                shown += 1
            }
            if changes.count > shown {
                lines += ["", "\(changes.count - shown) more \(changeClass.rawValue) changes not shown; `--format json` lists them all."]
            }
            if changeClass == .info {
                lines += ["", "</details>"]
            }
        }
        if !diff.rebucketing.isEmpty {
            lines += ["", "### Re-bucketing", "", "| placement | experiment | split | moved | moves |", "| --- | --- | --- | --- | --- |"]
            used += MarkdownReport.sectionOverhead
            var shown = 0
            for item in diff.rebucketing {
                let moved = "\(item.movedBuckets) of \(Bucketing.bucketCount) buckets (\(item.movedPercent) of subscribers)"
                let moves = item.moves.map(Self.moveText).joined(separator: "; ")
                let cells = [key(item.placementKey), key(item.experimentId), message(item.splitText), escape(moved), message(moves)]
                let row = "| " + cells.joined(separator: " | ") + " |"
                guard used + row.utf8.count + 1 <= budget else { break }
                used += row.utf8.count + 1
                lines.append(row)
                shown += 1
            }
            if diff.rebucketing.count > shown {
                lines += ["", "\(diff.rebucketing.count - shown) more re-bucketed experiments not shown; `--format json` lists them all."]
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A diff that could not run because a snapshot could not be read: in text each unreadable path as
/// `check` writes it; in JSON both sides, each saying whether it was read and, when not,
/// its `fatal` error as `check` writes it, with no changes and a failed summary counting each as breaking; each unreadable
/// path as a `file-unreadable` error in Markdown and the CI formats, so a failed comparison never
/// reads as clean.
public struct UnreadableDiffReport: FormattedReport {
    /// One side of the comparison: its path, and why it could not be read (nil when it could).
    public struct Side: Sendable, Hashable {
        public let path: String
        public let readError: String?

        public init(path: String, readError: String?) {
            self.path = path
            self.readError = readError
        }
    }

    public let old: Side
    public let new: Side
    public let failOn: ChangeThreshold
    public let ciReport: CheckReport

    public init(old: Side, new: Side, failOn: ChangeThreshold, title: String, tool: ReportTool) {
        self.old = old
        self.new = new
        self.failOn = failOn
        ciReport = CheckReport(unreadable: Self.unreadable(old, new), failOn: failOn, title: title, tool: tool)
    }

    /// Each path that could not be read, with why, old first.
    public var unreadable: [(path: String, reason: String)] { Self.unreadable(old, new) }

    static func unreadable(_ sides: Side...) -> [(path: String, reason: String)] {
        sides.compactMap { side in side.readError.map { (side.path, $0) } }
    }

    public var fails: Bool { true }

    /// Each unreadable path as `check` writes it, `PATH: error: [file-unreadable] cannot read PATH:
    /// REASON`, then the count.
    public func text(_ style: TextStyle) -> String {
        let lines = unreadable.map { CheckedFilesReport.unreadableLine(path: $0.path, reason: $0.reason, style: style) }.joined()
        return lines + "Nothing was compared\(style.tally(ciReport.counts, hiddenInfos: 0, hint: false))\n"
    }

    public func json() -> String {
        jsonValue.jsonText([.prettyPrinted]) + "\n"
    }

    /// `old` and `new` as `{"path", "readable", "fatal"}`, no changes or re-bucketing, and a
    /// summary that fails.
    public var jsonValue: JSONValue {
        func side(_ side: Side) -> JSONValue {
            let fatal: JSONValue = side.readError.map { CheckedFilesReport.unreadableFatal(path: side.path, reason: $0) } ?? nil
            return .object([.init("path", .string(side.path)), .init("readable", .bool(side.readError == nil)), .init("fatal", fatal)])
        }
        let zero = JSONValue.number(JSONNumber(0))
        // An unreadable path is a `file-unreadable` error, which the CI formats report as breaking.
        let breaking = JSONValue.number(JSONNumber(unreadable.count))
        return .object([
            .init("old", side(old)), .init("new", side(new)), .init("changes", []), .init("rebucketing", []),
            .init(
                "summary",
                .object([
                    .init("breaking", breaking), .init("notable", zero), .init("info", zero), .init("failOn", .string(failOn.rawValue)),
                    .init("failed", true),
                ])),
        ])
    }

    public func markdown() -> String {
        var lines = ["## Fallback snapshot diff", "", "**❌ Nothing was compared:**", ""]
        lines += unreadable.map { "- cannot read \(MarkdownEscaping.inline($0.path)): \(MarkdownEscaping.inline($0.reason))" }
        return lines.joined(separator: "\n") + "\n"
    }
}
