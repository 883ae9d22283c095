import Foundation
import RovenueFallback

extension AuditRun {
    /// Below this, epoch milliseconds fall before 1973-03-03: such a value is almost surely seconds.
    static let smallestPlausibleMilliseconds: Int64 = 100_000_000_000
    /// From this on, epoch milliseconds fall after the year 5138: such a value is micro- or nanoseconds.
    static let largestPlausibleMilliseconds: Int64 = 100_000_000_000_000
    /// How far `generatedAt` may run ahead of now before it is reported.
    static let clockSkewMilliseconds: Int64 = 5 * 60 * 1000

    mutating func checkFile() {
        if file.usesArrayTopLevel {
            report(
                .arrayTopLevel,
                "The top level is an array [formatVersion, placements], a quirk the SDK accepts but no dashboard export "
                    + "produces; it cannot carry generatedAt or projectId. Write {\"formatVersion\": 1, \"placements\": {…}}.",
                about: .file, at: document.root.index)
        }
        if let rejection = file.rejection {
            checkRejection(rejection)
            return
        }
        guard !file.usesArrayTopLevel else { return }
        checkGeneratedAt()
        checkProjectId()
    }

    private mutating func checkRejection(_ rejection: FallbackRejection) {
        var message = "setFallbackPlacements throws (\(rejection.rule.section): \(rejection.rule.summary)) and keeps "
            + "the previously loaded set; on a first launch nothing is loaded and every placement is served nothing "
            + "offline. The SDK's message: \"\(rejection.message)\"."
        if rejection.rule == .byteOrderMark {
            message += " Swift's file-URL loader strips the byte-order mark, but the string-based loaders (Kotlin, "
                + "React Native, Flutter, Swift's json:) throw: save the file as UTF-8 without a BOM."
        }
        report(
            .fileRejected, message, about: .file,
            at: .fixed(pointer: rejection.pointer ?? "", position: rejection.position))
    }

    private mutating func checkGeneratedAt() {
        guard let value = file.generatedAt else {
            report(
                .generatedAtInvalid,
                "generatedAt is missing: nothing says when this snapshot was exported. The dashboard writes the export "
                    + "time as integer epoch milliseconds.",
                about: .file, at: document.root.index)
            return
        }
        guard let milliseconds = file.generatedAtMilliseconds else {
            report(
                .generatedAtInvalid,
                "generatedAt is \(Self.describe(value)), not integer epoch milliseconds (e.g. 1758300000000). The loader "
                    + "ignores it, but nothing can tell how old this snapshot is.",
                about: .file, at: value.index)
            return
        }
        if milliseconds <= 0 {
            report(
                .generatedAtInvalid,
                "generatedAt \(milliseconds) is not a plausible export time: it is not after 1970-01-01. Write integer "
                    + "epoch milliseconds.",
                about: .file, at: value.index)
            return
        }
        if milliseconds < Self.smallestPlausibleMilliseconds {
            report(
                .generatedAtInvalid,
                "generatedAt \(milliseconds) read as epoch milliseconds is \(EpochMilliseconds.isoDate(milliseconds)), "
                    + "before 1973: it looks like seconds (as seconds: \(EpochMilliseconds.isoDate(milliseconds * 1000))). "
                    + "Write integer epoch milliseconds.",
                about: .file, at: value.index)
            return
        }
        if milliseconds >= Self.largestPlausibleMilliseconds {
            report(
                .generatedAtInvalid,
                "generatedAt \(milliseconds) is after the year 5000 read as epoch milliseconds: it looks like micro- or "
                    + "nanoseconds (as microseconds it would be \(EpochMilliseconds.isoDate(milliseconds / 1000))); "
                    + "write milliseconds.",
                about: .file, at: value.index)
            return
        }
        guard let now, let nowMilliseconds = Format.milliseconds(of: now) else { return }
        let ahead = milliseconds.subtractingReportingOverflow(nowMilliseconds)
        if !ahead.overflow, ahead.partialValue > Self.clockSkewMilliseconds {
            report(
                .generatedAtFuture,
                "generatedAt \(EpochMilliseconds.isoDate(milliseconds)) is \(Format.duration(milliseconds: ahead.partialValue)) "
                    + "after now (\(EpochMilliseconds.isoDate(nowMilliseconds))), beyond 5 min of clock skew: the exporting "
                    + "clock was wrong or the value was edited, so it says nothing reliable about the snapshot's age.",
                about: .file, at: value.index)
        }
    }

    private mutating func checkProjectId() {
        guard let value = file.projectId else {
            report(
                .projectIdMissing,
                "projectId is missing: nothing ties this snapshot to a project, so a file bundled from the wrong project "
                    + "goes unnoticed.",
                about: .file, at: document.root.index)
            return
        }
        if value.kind != .string {
            report(
                .projectIdMissing, "projectId is \(Self.describe(value)), not a string naming the project.", about: .file,
                at: value.index)
        } else if let text = value.string, text.allSatisfy(\.isWhitespace) {
            report(.projectIdMissing, "projectId is blank: nothing ties this snapshot to a project.", about: .file, at: value.index)
        }
    }

    /// How a message names a raw value: `the string "5"`, `the number 1.5e12`, `null`.
    static func describe(_ value: JSONDocument.Value) -> String {
        switch value.kind {
        case .null: "null"
        case .true, .false: "the boolean \(value.kind == .true)"
        case .number: "the number \(value.number?.text ?? "")"
        case .string: "the string \(Format.quoted(value.string ?? ""))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
