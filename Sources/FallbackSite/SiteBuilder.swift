import Foundation
import FallbackMustache
import RovenueFallback

/// Renders every page of a site and collects them with the theme's assets, ready for `SiteWriter`.
public struct SiteBuilder: Sendable {
    /// The Content-Security-Policy every page carries: only the site's own script and style.
    public static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"

    public let model: SiteModel
    public let theme: Theme
    let templates: TemplateSet
    /// What the pages of the build render alike, done once (`PageMemo`).
    let memo = PageMemo()
    /// The snapshot's file name, which every page's layout shows: found once, since
    /// `NSString.lastPathComponent` spent about 13,000 instructions on it (40 M in a 1k build).
    let snapshotFileName: String

    public init(model: SiteModel, theme: Theme) throws {
        self.model = model
        self.theme = theme
        self.templates = try TemplateSet(theme: theme)
        snapshotFileName = Self.fileName(of: model)
    }

    /// The last component of the snapshot's name, as `snapshotFileName` holds it.
    static func fileName(of model: SiteModel) -> String {
        (model.snapshot.name as NSString).lastPathComponent
    }

    /// How much work rendering one page may take: it grows with the snapshots the site shows, so
    /// a template that nests sections over lists cannot hang a build, and the overview of a large
    /// export is never refused.
    var renderBudget: MustacheBudget {
        .scaled(toInputBytes: model.snapshot.bytes.count + (model.baseline?.bytes.count ?? 0))
    }

    /// How much work rendering `page` may take: `renderBudget`, and on the page of a funnel, an
    /// experiment or a paywall as much again as `perSubjectValue` for each JSON value of what it
    /// shows (`subjectValueCount(of:)`). Such a page writes a row or more for every item of its
    /// subject however short the item: an outline line, a table row and a preview per funnel page,
    /// a coverage row per locale, a card per variant. 20,000 funnel pages of
    /// `{"id":"p1","type":"info"}` (590 KB) made a 19.5 MB page, 33 times its input, and 50,000
    /// variants of a small paywall more than 8 times theirs: past what the snapshot's size allows
    /// (8 times) and a failed build. The allowance grows with the subject only, so every other page
    /// keeps the budget that stops a runaway template soonest.
    func renderBudget(for page: SitePage) -> MustacheBudget {
        renderBudget.adding(Self.perSubjectValue, times: subjectValueCount(of: page))
    }

    /// How many JSON values (keys included) the funnel, experiment or paywall `page` shows holds in
    /// the snapshot: its subtree in the document, every version's for a paywall; 0 for other pages.
    func subjectValueCount(of page: SitePage) -> Int {
        let document = model.snapshot.file.document
        func values(_ node: Int) -> Int {
            (0..<document.nodeCount).contains(node) ? document.subtreeEnd(ofNode: node) - node : 0
        }
        let id = page.id ?? ""
        switch page.kind {
        case .funnel: return model.funnelInfo(id: id).map { values($0.funnel.source.node) } ?? 0
        case .experiment: return model.experimentInfo(placementKey: id).map { values($0.experiment.source.node) } ?? 0
        case .paywall: return model.paywallInfo(id: id).map { $0.versions.reduce(0) { $0 + values($1.source.node) } } ?? 0
        default: return 0
        }
    }

    /// What the page of a funnel, an experiment or a paywall may spend on each JSON value of its
    /// subject beyond `renderBudget`: about 16 times what the default theme spends on a bare funnel
    /// page's values (a 100,000-page funnel of `{"id":…,"type":"info"}` wrote 981 bytes of HTML a
    /// page, 5 values).
    static let perSubjectValue = MustacheBudget(steps: 500, outputBytes: 4 << 10)

    /// One page as a complete HTML document.
    public func render(_ page: SitePage) throws -> String {
        String(decoding: try renderBytes(page), as: UTF8.self)
    }

    /// One page as the UTF-8 bytes of a complete HTML document, as it is written: made straight
    /// into bytes, with no `String` of the whole page.
    func renderBytes(_ page: SitePage) throws -> [UInt8] {
        let values = PageValues(memo: memo)
        let budget = renderBudget(for: page)
        values.outputLimit = budget.outputBytes
        // The body is written where the layout holds it, when the layout is substituted.
        let body = try templates.renderPageInPlace(
            page.template, context: model.renderContext(for: page, values: values), values: values, budget: budget, memo: memo)
        let bytes = try templates.renderLayoutBytes(
            "layout.html", context: layoutContext(for: page, content: body).renderValue, values: values, budget: budget, memo: memo)
        guard !values.isPastOutputLimit else {
            throw TemplateError(
                description: "\(templates.location(of: page.template)): with its values put in, the page would pass the "
                    + "\(budget.outputBytes) bytes of HTML its snapshot allows (each value is written at every tag that names it: "
                    + "a long value named in sections over lists is written for every item)")
        }
        return bytes
    }

    func layoutContext(for page: SitePage, content: TrustedHTML) -> LayoutContext {
        let heading: String =
            switch page.kind {
            case .overview: page.id.map { "Overview, page \($0)" } ?? "Overview"
            case .checks: "Checks"
            case .placement: "Placement \(SnapshotText.shortened(page.id ?? ""))"
            case .funnel: "Funnel \(SnapshotText.shortened(model.funnelInfo(id: page.id ?? "")?.funnel.name ?? page.id ?? ""))"
            case .experiment: "Experiment on \(SnapshotText.shortened(page.id ?? ""))"
            case .paywall: "Paywall \(SnapshotText.shortened(model.paywallInfo(id: page.id ?? "")?.versions[0].name ?? page.id ?? ""))"
            case .changes: pairTitle(page) ?? "Changes"
            case .history: "History"
            case .rule: "Rule \(SnapshotText.shortened(page.id ?? ""))"
            case .snapshot: "Snapshot \(snapshotLabel(page.id.flatMap { Int($0) }))"
            }
        var links: [(String, String, SitePage.Kind)] = [("Overview", "index.html", .overview), ("Checks", "checks.html", .checks)]
        if model.changes != nil { links.append(("Changes", "changes.html", .changes)) }
        if model.timeline != nil { links.append(("History", "history.html", .history)) }
        return LayoutContext(
            root: page.root, title: heading, siteTitle: model.title, snapshot: model.snapshot.name,
            snapshotFile: snapshotFileName, kind: page.kind.rawValue,
            csp: SiteBuilder.contentSecurityPolicy, generator: "fallback-site",
            navigation: links.map { LayoutContext.NavigationLink(label: $0.0, path: page.root + $0.1, current: section(of: page) == $0.2) },
            content: content)
    }

    /// The section of the navigation a page belongs to: a series' snapshot and pair pages are the history's.
    func section(of page: SitePage) -> SitePage.Kind {
        page.kind == .snapshot || (page.kind == .changes && page.id != nil) ? .history : page.kind
    }

    /// A snapshot's release label (`SeriesWalk.label`), shortened.
    func snapshotLabel(_ index: Int?) -> String {
        guard let walk = model.walk, let index, walk.snapshots.indices.contains(index) else { return "" }
        return SnapshotText.shortened(SeriesWalk.label(walk.snapshots[index].stamp))
    }

    /// `Changes from 3.3 to 3.4` for a pair of the series; nil for the site's own changes page.
    func pairTitle(_ page: SitePage) -> String? {
        guard let walk = model.walk, let index = page.id.flatMap({ Int($0) }), walk.pairs.indices.contains(index) else { return nil }
        return "Changes from \(snapshotLabel(walk.pairs[index].older)) to \(snapshotLabel(walk.pairs[index].newer))"
    }

    /// Every file of the site by its path below the output folder, in memory. Pages render
    /// concurrently; `progress` is called with (pages rendered, total) from any thread.
    public func files(progress: (@Sendable (Int, Int) -> Void)? = nil) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        do {
            try write(to: &files, progress: progress)
        } catch .render(let error), .write(let error) {
            throw error
        }
        return files
    }

    /// The most pages held in memory at once, rendered and not yet handed to a sink that takes
    /// files one at a time, whatever the size of the site: half of them render while the other
    /// half is handed over. Sixteen per core keeps every core busy to the end of a batch; the
    /// output does not depend on it.
    public static let defaultBatchSize = max(64, ProcessInfo.processInfo.activeProcessorCount * 16)

    /// Renders every page and hands each to `sink` with the theme's assets and the search index
    /// (pages as `model.pages` lists them, then the assets by path, then the index); the search
    /// index is made on another thread meanwhile. `progress` is called with (pages rendered, total)
    /// from any thread, never after this returns.
    ///
    /// A sink that takes files from several threads (`SiteSink.concurrentWrites(of:)`, as a
    /// build's temporary folder does) gets each page from the thread that rendered it, on every
    /// core at once, so at most a page per core is held in memory (`renderAndWriteConcurrently`).
    /// Any other sink gets the pages one at a time in page order, rendered in batches
    /// (`renderInBatches`): at most `batchSize` pages are held at once, whatever the number of pages.
    ///
    /// Fails with `.render` when a page cannot be rendered, `.write` when the sink refuses a file:
    /// the first failing page in page order. Every page before it is handed over first; with a
    /// concurrent sink, some pages after it may be written too (a build discards its temporary
    /// folder on failure). A concurrent sink that refuses the pages' paths up front (an unsafe
    /// path, a folder it cannot make) fails with `.write` before any page renders. No page render
    /// outlives the call.
    public func write<Sink: SiteSink>(
        to sink: inout Sink, batchSize: Int = SiteBuilder.defaultBatchSize, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) throws(SiteBuildError) {
        let pages = model.pages
        // The search index needs only the model: it is made beside the pages rather than after
        // them, where it was the build's last serial step.
        let model = model
        var searchIndex: RenderAhead<[UInt8]>? = RenderAhead { _ in model.searchIndex.scriptBytes }
        defer { _ = searchIndex?.wait() }
        let concurrentWrite: SiteFileWrite?
        do {
            concurrentWrite = try sink.concurrentWrites(of: pages.map(\.path))
        } catch {
            throw .write(error)
        }
        if let concurrentWrite {
            try renderAndWriteConcurrently(pages, with: concurrentWrite, progress: progress)
        } else {
            try renderInBatches(pages, to: &sink, batchSize: batchSize, progress: progress)
        }
        // The header's search box loads the index on first use; the site's own index replaces
        // any asset of the same name.
        for (path, bytes) in theme.assets.sorted(by: { $0.key < $1.key }) where "assets/" + path != SearchIndex.path {
            try handOver("assets/" + path, bytes, to: &sink)
        }
        let index = searchIndex?.wait() ?? []
        searchIndex = nil
        try handOver(SearchIndex.path, index, to: &sink)
    }

    /// Renders `pages` on every core at once, each written with `write` by the thread that
    /// rendered it as soon as it is made: no core waits for another's page to be written, or for
    /// the slowest page of a batch. With batches written on one thread, the render cores idled
    /// between batches of cheap pages, and a 1k build's checks page took 20 ms of its batch's 21:
    /// that build takes about 6% less wall time this way (alternated whole-process runs).
    ///
    /// Once a page fails, no page after it starts; every page before it is rendered and written, so
    /// the failure thrown is the first in page order, whatever the threads' timing.
    ///
    /// The pages start in `renderOrder(of:)`, the site-wide ones first. The failure reported, and
    /// the files of a build that succeeds, are the same in any order; when a page fails, the
    /// site-wide pages after it in page order have usually been written already (the build
    /// discards its staging folder).
    private func renderAndWriteConcurrently(
        _ pages: [SitePage], with write: SiteFileWrite, progress: (@Sendable (Int, Int) -> Void)?
    ) throws(SiteBuildError) {
        let failures = FirstPageFailure()
        let builder = self
        let order = Self.renderOrder(of: pages)
        _ = ParallelChunks(count: pages.count, size: 1).map(progress: progress) { range in
            let index = order[range.lowerBound]
            guard !failures.isPast(index) else { return }
            let bytes: [UInt8]
            do {
                bytes = try builder.renderBytes(pages[index])
            } catch {
                return failures.record(.render(error), at: index)
            }
            do {
                try write(pages[index].path, bytes)
            } catch {
                failures.record(.write(error), at: index)
            }
        }
        if let failure = failures.first { throw failure }
    }

    /// The order `renderAndWriteConcurrently` starts `pages` in, as indexes into them: the pages
    /// about the whole site (overview, checks, changes, history, snapshots, rules) first, then the
    /// pages about one placement, funnel, experiment or paywall, each group in page order.
    ///
    /// The site-wide pages are the few that take milliseconds each (a 1k build's checks page took
    /// 24 ms, `rules/remote-media.html` 6 ms, against 0.2 ms for the average page). Started last,
    /// as page order had the rules, the slowest kept one core busy while the others had nothing
    /// left to render; started first, the cheap pages fill in behind them.
    static func renderOrder(of pages: [SitePage]) -> [Int] {
        let siteWide = pages.indices.filter { pages[$0].kind.isSiteWide }
        return siteWide + pages.indices.filter { !pages[$0].kind.isSiteWide }
    }

    /// Renders `pages` in batches of half of `batchSize` on the available cores and hands each to
    /// `sink` in page order: while one batch is handed over, the next renders on other threads
    /// (`RenderAhead`), so at most `batchSize` pages are held at once (a `batchSize` of 1 renders
    /// and hands over one page at a time). On a failure the batch rendering ahead is stopped and
    /// waited for.
    private func renderInBatches<Sink: SiteSink>(
        _ pages: [SitePage], to sink: inout Sink, batchSize: Int, progress: (@Sendable (Int, Int) -> Void)?
    ) throws(SiteBuildError) {
        let batches = ParallelChunks(count: pages.count, size: max(1, batchSize / 2)).ranges
        let overlaps = batchSize >= 2
        let builder = self
        @Sendable func render(_ batch: Range<Int>, isCancelled: @escaping @Sendable () -> Bool) -> [Result<[UInt8], any Error>] {
            var rendering: (@Sendable (Int, Int) -> Void)?
            if let progress { rendering = { done, _ in progress(batch.lowerBound + done, pages.count) } }
            return ParallelChunks(count: batch.count, size: 1).map(progress: rendering) { range in
                if isCancelled() { return .failure(CancellationError()) }
                return Result { try builder.renderBytes(pages[batch.lowerBound + range.lowerBound]) }
            }
        }
        var ahead: RenderAhead<[Result<[UInt8], any Error>]>?
        defer {
            // A failure: the batch rendering ahead is of no use, but no thread outlives the build.
            if let ahead {
                ahead.cancel()
                _ = ahead.wait()
            }
        }
        for (number, batch) in batches.enumerated() {
            let rendered = ahead?.wait() ?? render(batch) { false }
            ahead = nil
            if overlaps, number + 1 < batches.count {
                let next = batches[number + 1]
                ahead = RenderAhead { isCancelled in render(next, isCancelled: isCancelled) }
            }
            for (page, outcome) in zip(pages[batch], rendered) {
                let bytes: [UInt8]
                do {
                    bytes = try outcome.get()
                } catch {
                    throw .render(error)
                }
                try handOver(page.path, bytes, to: &sink)
            }
        }
    }

    private func handOver<Sink: SiteSink>(_ path: String, _ bytes: [UInt8], to sink: inout Sink) throws(SiteBuildError) {
        do {
            try sink.write(path, bytes)
        } catch {
            throw .write(error)
        }
    }
}

/// The failure of the first page, in page order, among those that failed so far: pages render on
/// several threads (`SiteBuilder.renderAndWriteConcurrently`).
final class FirstPageFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var index = Int.max
    private var failure: SiteBuildError?

    /// Keeps `failure` of the page at `index` when no page before it has failed.
    func record(_ failure: SiteBuildError, at index: Int) {
        lock.withLock {
            guard index < self.index else { return }
            self.index = index
            self.failure = failure
        }
    }

    /// Whether a page before the one at `index` has failed: it need not start.
    func isPast(_ index: Int) -> Bool {
        lock.withLock { index > self.index }
    }

    var first: SiteBuildError? { lock.withLock { failure } }
}
