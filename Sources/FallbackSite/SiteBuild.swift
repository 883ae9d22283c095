import FallbackAudit
import FallbackDiff
import FallbackHistory
import FallbackMustache
import Foundation
import RovenueFallback

/// A site build as named steps, each a function from the previous step's output to its own, so
/// any step runs (and is tested) alone; Publish's pipeline of steps is the model:
///
/// `checkOutput` → `loadSeries` → `audit` → `diff` → `loadTheme` → `model` → `render` → `write`
///
/// `run` does `render` and `write` as one step, `renderAndWrite`, which writes each page as it is
/// rendered so a build's memory does not grow with its number of pages, and
/// for a series `loadSeries` and `audit` as one, `auditSeries`, which reads each snapshot once;
/// `render` keeps the whole site in memory, for tests and tools that look at the pages.
///
/// ```swift
/// let writer = SiteWriter(outputPath: "site")
/// try SiteBuild.checkOutput(writer)  // before any work
/// let build = SiteBuild(input: .file("rovenue-fallback.json"), writer: writer, readFile: RegularFile.read)
/// let site = try build.run()
/// ```
///
/// Every step's failure is a `SiteBuildError` that says whether the input is at fault.
public struct SiteBuild: Sendable {
    /// What the site is built from.
    public enum Input: Sendable {
        /// One snapshot, read with `readFile`.
        case file(String)
        /// A series (several files, a folder, a file's git history): the site shows its newest,
        /// its changes since the one before and the series' history.
        case series(any SnapshotSource)
    }

    /// How snapshots are audited: the rules' severities, when the newest counts as stale, and the
    /// build's only clock.
    public struct AuditSettings: Sendable {
        public var configuration: AuditConfiguration
        public var staleAfterDays: Int
        /// Seconds since 1970 (`SOURCE_DATE_EPOCH`); nil leaves ages to the browser, and the rules
        /// that need a clock (`generated-at-future`) do not run, so no page depends on when it was built.
        public var referenceDate: Int?

        public init(configuration: AuditConfiguration = AuditConfiguration(), staleAfterDays: Int? = nil, referenceDate: Int? = nil) {
            self.configuration = configuration
            self.staleAfterDays = staleAfterDays ?? HistoryOptions().staleAfterDays
            self.referenceDate = referenceDate
        }

        /// The audit these settings run.
        public var audit: Audit {
            Audit(now: referenceDate.map { Date(timeIntervalSince1970: Double($0)) }, configuration: configuration)
        }

        /// How a series is folded under these settings: the same clock, staleness and audit.
        public var historyOptions: HistoryOptions {
            HistoryOptions(now: referenceDate.map { Date(timeIntervalSince1970: Double($0)) }, staleAfterDays: staleAfterDays, audit: audit)
        }
    }

    /// A snapshot as read: its name on pages (the path given) and its bytes.
    public struct LoadedSnapshot: Sendable {
        public let name: String
        public let bytes: [UInt8]

        public init(name: String, bytes: [UInt8]) {
            self.name = name
            self.bytes = bytes
        }
    }

    /// `loadSeries`' output: the snapshot the site shows, the one its Changes page compares
    /// against, and the series they come from.
    public struct LoadedSnapshots: Sendable {
        public let newest: LoadedSnapshot
        public let baseline: LoadedSnapshot?
        /// The series, when the site is built from several snapshots.
        public let series: SnapshotSeries?

        public init(newest: LoadedSnapshot, baseline: LoadedSnapshot? = nil, series: SnapshotSeries? = nil) {
            self.newest = newest
            self.baseline = baseline
            self.series = series
        }
    }

    /// `audit`'s output: both snapshots with their findings, and the series folded into a timeline.
    public struct AuditedSnapshots: Sendable {
        public let snapshot: SiteModel.Snapshot
        public let baseline: SiteModel.Snapshot?
        public let timeline: Timeline?
        /// The series as pages to walk: each snapshot's summary and each consecutive pair's changes.
        public var walk: SeriesWalk? = nil
    }

    /// `diff`'s output: the audited snapshots and what changed from the baseline to the newest.
    public struct ComparedSnapshots: Sendable {
        public let audited: AuditedSnapshots
        public let changes: SnapshotDiff?
    }

    /// `loadTheme`'s output: the theme with its templates parsed, ready to render many pages.
    public struct PreparedTheme: Sendable {
        public let theme: Theme
        public let templates: TemplateSet
    }

    /// `write`'s output: where the site went and how many pages it has.
    public struct WrittenSite: Sendable, Hashable {
        public let output: String
        public let pageCount: Int
    }

    public var input: Input
    /// The snapshot the Changes page compares against; nil: the one before the newest of a series.
    public var baseline: String?
    /// The site's title; nil names it after the project id.
    public var title: String?
    /// Folders whose templates and assets override the built-in ones, file by file.
    public var templates: String?
    public var assets: String?
    public var settings: AuditSettings
    public var writer: SiteWriter
    /// Reads a file the build names itself (a single snapshot, the baseline); a series reads
    /// through its source.
    public var readFile: @Sendable (String) throws -> [UInt8]
    /// Given what the build has finished with once the site is written and swapped in (the page
    /// model with the snapshots it shows, and the builder with its memos), instead of freeing it
    /// as `run` returns; nil frees it there, and a build that fails gives nothing. The command
    /// line keeps it for the process's exit to discard (`ExitKeeper`): a loaded snapshot is
    /// millions of small allocations, and freeing a 1,000-placement build's took its last few
    /// milliseconds on one core.
    public var keepLeftovers: (@Sendable (any Sendable) -> Void)?

    public init(
        input: Input, baseline: String? = nil, title: String? = nil, templates: String? = nil, assets: String? = nil,
        settings: AuditSettings = AuditSettings(), writer: SiteWriter, readFile: @escaping @Sendable (String) throws -> [UInt8]
    ) {
        self.input = input
        self.baseline = baseline
        self.title = title
        self.templates = templates
        self.assets = assets
        self.settings = settings
        self.writer = writer
        self.readFile = readFile
    }

    /// How far a build has come: each step's work done and its total.
    public enum Progress: Sendable, Hashable {
        /// Snapshots of a series read to order them.
        case reading(done: Int, total: Int)
        /// Snapshots of a series folded into its timeline.
        case folding(done: Int, total: Int)
        /// Pages rendered, in any order; each is written as it is rendered.
        case rendering(done: Int, total: Int)
        /// The pages are complete and written; the site is being finished and swapped in.
        case writing(pages: Int)
    }

    /// Every step after `checkOutput`, in order. `progress` is called as each snapshot is read and
    /// folded, then from any thread once per page, then before writing.
    public func run(progress: (@Sendable (Progress) -> Void)? = nil) throws(SiteBuildError) -> WrittenSite {
        // The theme is read and its templates parsed on another core while this one reads,
        // parses and audits the snapshot: alone, after the audit, it left a core idle. Its
        // failure is still reported after the input's.
        let (templates, assets) = (templates, assets)
        let preparing = RenderAhead { _ in Result { () throws(SiteBuildError) in try Self.loadTheme(templates: templates, assets: assets) } }
        defer { _ = preparing.wait() }
        let audited: AuditedSnapshots
        if case .series(let source) = input {
            audited = try Self.auditSeries(source, baseline: baseline, settings: settings, readFile: readFile, progress: progress)
        } else {
            audited = try Self.audit(Self.loadSeries(input, baseline: baseline, readFile: readFile, progress: progress), settings: settings, progress: progress)
        }
        let compared = Self.diff(audited)
        let theme = try preparing.wait().get()
        let model = Self.model(compared, title: title, referenceDate: settings.referenceDate)
        var pages: (@Sendable (Int, Int) -> Void)?
        if let progress { pages = { progress(.rendering(done: $0, total: $1)) } }
        return try Self.renderAndWrite(model, theme: theme, with: writer, progress: pages, keepingLeftovers: keepLeftovers) {
            progress?(.writing(pages: $0))
        }
    }

    // MARK: Steps

    /// Checks the output folder against every rule of `OutputFolder`, touching nothing: run it
    /// before any other work, so a refused `--out` costs nothing.
    public static func checkOutput(_ writer: SiteWriter) throws(SiteBuildError) {
        do {
            try writer.checkedOutput()
        } catch {
            throw .output(error)
        }
    }

    /// Reads the snapshot the site shows and its baseline: a single file and an explicit
    /// `baseline` with `readFile`; a series' newest and, without `baseline`, the one before it,
    /// from the series in timeline order.
    public static func loadSeries(
        _ input: Input, baseline: String?, readFile: (String) throws -> [UInt8], progress: (@Sendable (Progress) -> Void)? = nil
    ) throws(SiteBuildError) -> LoadedSnapshots {
        func read(_ path: String) throws(SiteBuildError) -> LoadedSnapshot {
            do {
                return LoadedSnapshot(name: path, bytes: try readFile(path))
            } catch {
                throw .unreadable(path: path, underlying: error)
            }
        }
        var newest: LoadedSnapshot
        var previous: LoadedSnapshot?
        var series: SnapshotSeries?
        switch input {
        case .file(let path):
            newest = try read(path)
        case .series(let source):
            do {
                let members = try SnapshotSeries(source) { progress?(.reading(done: $0, total: $1)) }
                series = members
                guard let last = members.members.last else { throw SiteBuildError.emptySeries }
                newest = LoadedSnapshot(name: last.reference.name, bytes: try source.bytes(of: last.reference))
                if baseline == nil, members.members.count > 1 {
                    let before = members.members[members.members.count - 2]
                    previous = LoadedSnapshot(name: before.reference.name, bytes: try source.bytes(of: before.reference))
                }
            } catch let error as SiteBuildError {
                throw error
            } catch {
                throw .series(error)
            }
        }
        if let baseline { previous = try read(baseline) }
        return LoadedSnapshots(newest: newest, baseline: previous, series: series)
    }

    /// Audits the newest snapshot and the baseline, and folds the series one snapshot at a time.
    public static func audit(
        _ loaded: LoadedSnapshots, settings: AuditSettings, progress: (@Sendable (Progress) -> Void)? = nil
    ) throws(SiteBuildError) -> AuditedSnapshots {
        let audit = settings.audit
        var timeline: Timeline?
        var walk: SeriesWalk?
        if let series = loaded.series {
            var folded = 0
            var walking = SeriesWalk()
            do {
                timeline = try series.timeline(settings.historyOptions) { file, findings, record in
                    walking.add(file, findings: findings, record: record)
                    folded += 1
                    progress?(.folding(done: folded, total: series.members.count))
                }
            } catch {
                throw .series(error)
            }
            walk = walking.named()
        }
        return AuditedSnapshots(
            snapshot: snapshot(loaded.newest, audit: audit), baseline: loaded.baseline.map { snapshot($0, audit: audit, digesting: false) },
            timeline: timeline,
            walk: walk)
    }

    /// `loadSeries` then `audit` of a series, reading each snapshot once while its source order is
    /// its timeline order (`SnapshotSeries.timeline(of:_:progress:visit:)`), which is what `run`
    /// does with a series. The fold hands over each snapshot parsed and audited; the newest and the
    /// one before it are kept from there, where the two steps read, parse and audit them again. A
    /// git history's blobs were inflated twice, and the newest three times.
    ///
    /// The result is `audit(loadSeries(…))`'s. Only the two last in timeline order are kept whole,
    /// so the fold holds no more snapshots at once than the two steps do. An explicit `baseline` is
    /// read first: a wrong path fails before a long history is read.
    public static func auditSeries(
        _ source: any SnapshotSource, baseline: String?, settings: AuditSettings, readFile: (String) throws -> [UInt8],
        progress: (@Sendable (Progress) -> Void)? = nil
    ) throws(SiteBuildError) -> AuditedSnapshots {
        var explicitBaseline: LoadedSnapshot?
        if let baseline {
            do {
                explicitBaseline = LoadedSnapshot(name: baseline, bytes: try readFile(baseline))
            } catch {
                throw .unreadable(path: baseline, underlying: error)
            }
        }
        let audit = settings.audit
        var walking = SeriesWalk()
        var newest: FoldedSnapshot?
        var before: FoldedSnapshot?
        let timeline: Timeline
        do {
            timeline = try SnapshotSeries.timeline(
                of: source, settings.historyOptions,
                progress: { step in
                    switch step {
                    case .scanned(let done, let total): progress?(.reading(done: done, total: total))
                    case .folded(_, let done, let total): progress?(.folding(done: done, total: total))
                    }
                },
                visit: { visit in
                    switch visit {
                    case .restart:
                        walking = SeriesWalk()
                        newest = nil
                        before = nil
                    case .folded(let snapshot, let position, let count):
                        walking.add(snapshot.file, findings: snapshot.findings, record: snapshot.record)
                        if position == count - 2 { before = snapshot }
                        if position == count - 1 { newest = snapshot }
                    }
                })
        } catch {
            throw .series(error)
        }
        guard let newest else { throw .emptySeries }
        let shown = SiteModel.Snapshot(
            name: newest.reference.name, bytes: newest.bytes, file: newest.file, findings: newest.findings,
            digest: SHA256Digest(of: newest.bytes).hexString)
        let compared: SiteModel.Snapshot?
        if let explicitBaseline {
            compared = snapshot(explicitBaseline, audit: audit, digesting: false)
        } else if let before {
            compared = SiteModel.Snapshot(name: before.reference.name, bytes: before.bytes, file: before.file, findings: before.findings, digest: nil)
        } else {
            compared = nil
        }
        return AuditedSnapshots(snapshot: shown, baseline: compared, timeline: timeline, walk: walking.named())
    }

    /// A snapshot read and audited; with `digesting`, its SHA-256 too (the overview shows the
    /// newest snapshot's, not the baseline's).
    static func snapshot(_ loaded: LoadedSnapshot, audit: Audit, digesting: Bool = true) -> SiteModel.Snapshot {
        // The SHA-256 of the bytes (about 50 M instructions a megabyte, 0.07 s for 1,000
        // placements) runs on another core while this one parses and audits, instead of after
        // them in the model, where no other work runs beside it.
        let bytes = loaded.bytes
        let digest = digesting ? RenderAhead { _ in SHA256Digest(of: bytes).hexString } : nil
        let file = FallbackFile(bytes: loaded.bytes)
        let findings = audit.findings(in: file)
        return SiteModel.Snapshot(name: loaded.name, bytes: loaded.bytes, file: file, findings: findings, digest: digest?.wait())
    }

    /// What changes from the baseline to the newest snapshot, for the Changes page.
    public static func diff(_ audited: AuditedSnapshots) -> ComparedSnapshots {
        ComparedSnapshots(audited: audited, changes: audited.baseline.map { SnapshotDiff(old: $0.file, new: audited.snapshot.file) })
    }

    /// The built-in theme with the files of `templates` and `assets` put over it, its templates parsed.
    public static func loadTheme(templates: String?, assets: String?) throws(SiteBuildError) -> PreparedTheme {
        do {
            let theme = try Theme.builtIn(overridingTemplatesWith: templates, assetsWith: assets)
            return PreparedTheme(theme: theme, templates: try TemplateSet(theme: theme))
        } catch {
            throw .theme(error)
        }
    }

    /// Everything the pages show, gathered once.
    public static func model(_ compared: ComparedSnapshots, title: String?, referenceDate: Int?) -> SiteModel {
        var model = SiteModel(
            snapshot: compared.audited.snapshot, baseline: compared.audited.baseline, changes: compared.changes,
            timeline: compared.audited.timeline, title: title, referenceDate: referenceDate)
        model.walk = compared.audited.walk
        return model
    }

    /// Every page rendered, with the theme's assets: each file by its path below the output folder.
    public static func render(
        _ model: SiteModel, theme: PreparedTheme, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(SiteBuildError) -> [String: [UInt8]] {
        do {
            return try SiteBuilder(model: model, theme: theme).files(progress: progress)
        } catch {
            throw .render(error)
        }
    }

    /// `render` and `write` in one pass, in bounded memory: each page is written into the writer's
    /// temporary folder by the thread that rendered it (`SiteBuilder.write(to:batchSize:progress:)`,
    /// the folder's `SiteSink.concurrentWrites(of:)`), then the folder is swapped in. The previous
    /// site stays unless the new one is whole; on failure the temporary folder is removed.
    /// `swapping` is called with the number of pages once every file is written, before the swap.
    public static func renderAndWrite(
        _ model: SiteModel, theme: PreparedTheme, with writer: SiteWriter, progress: (@Sendable (Int, Int) -> Void)? = nil,
        keepingLeftovers: (@Sendable (any Sendable) -> Void)? = nil, swapping: ((Int) -> Void)? = nil
    ) throws(SiteBuildError) -> WrittenSite {
        var staging: SiteWriter.Staging
        do {
            staging = try writer.begin()
        } catch {
            throw .write(error)
        }
        do throws(SiteBuildError) {
            let builder = SiteBuilder(model: model, theme: theme)
            try builder.write(to: &staging, progress: progress)
            swapping?(staging.pageCount)
            do {
                try staging.finish()
            } catch {
                throw .write(error)
            }
            // Only a site swapped in: a build that fails leaves nothing behind.
            keepingLeftovers?(builder)
        } catch {
            staging.discard()
            throw error
        }
        return WrittenSite(output: writer.outputPath, pageCount: staging.pageCount)
    }

    /// Writes the site atomically (`SiteWriter`): the previous site stays unless the new one is whole.
    public static func write(_ files: [String: [UInt8]], with writer: SiteWriter) throws(SiteBuildError) -> WrittenSite {
        do {
            try writer.write(files)
        } catch {
            throw .write(error)
        }
        return WrittenSite(output: writer.outputPath, pageCount: files.keys.count { $0.hasSuffix(".html") })
    }
}

extension SiteBuilder {
    /// A builder over templates already parsed (`SiteBuild.loadTheme`).
    init(model: SiteModel, theme: SiteBuild.PreparedTheme) {
        self.model = model
        self.theme = theme.theme
        self.templates = theme.templates
        snapshotFileName = Self.fileName(of: model)
    }
}

/// Why a site build stopped, by step.
public enum SiteBuildError: Error, CustomStringConvertible {
    /// The output folder is refused (`OutputFolder`'s rules).
    case output(SiteWriterError)
    /// A file the build names (a snapshot, the baseline) cannot be read.
    case unreadable(path: String, underlying: any Error)
    /// A series cannot be listed or read (`HistoryError`, a git failure, …).
    case series(any Error)
    /// A series lists no snapshot.
    case emptySeries
    /// The templates or assets cannot be read or parsed.
    case theme(any Error)
    /// A page cannot be rendered.
    case render(any Error)
    /// The site cannot be written.
    case write(any Error)

    /// True when the input or the output folder is at fault (a usage problem: exit 2), false when
    /// the build itself failed (exit 1). A template that cannot render within its budget is a
    /// problem with the input, as one that does not parse is.
    public var isUsageProblem: Bool {
        switch self {
        case .output, .unreadable, .series, .emptySeries, .theme: true
        case .render(let error): error is TemplateError || error is MustacheError
        case .write(let error): (error as? SiteWriterError)?.refusesTheOutput ?? false
        }
    }

    public var description: String {
        switch self {
        case .output(let error): "\(error)"
        case .unreadable(let path, let error): "cannot read \(path): \(error)"
        case .emptySeries: "the series holds no snapshot"
        case .series(let error), .theme(let error), .render(let error), .write(let error): "\(error)"
        }
    }
}
