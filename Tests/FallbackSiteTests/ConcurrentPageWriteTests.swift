import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A sink that takes files from several threads (a build's temporary folder,
/// `SiteSink.concurrentWrites(of:)`) gets each page from the thread that rendered it
/// (`SiteBuilder.write(to:batchSize:progress:)`), so no core waits for another's page to be
/// written (issue 10, the Hugo goal; the gain is measured in `fallback-bench`, not here). The bytes
/// are the in-memory build's; the failure reported is the first in page order, whatever the
/// threads' timing; every other file still comes through `write`, after the pages.
@Suite("Pages written by the threads that render them")
struct ConcurrentPageWriteTests {
    /// Takes pages through its concurrent writes and every other file through `write`, and
    /// refuses the concurrent write of each path in `refusing`.
    final class ConcurrentSink: SiteSink, @unchecked Sendable {
        struct Refused: Error, Equatable { let path: String }
        private let lock = NSLock()
        private let refusing: Set<String>
        private var announcedPaths: [String]?
        private var concurrentFiles: [String: [UInt8]] = [:]
        private var writtenTwice: [String] = []
        private var serialFiles: [(path: String, bytes: [UInt8])] = []

        init(refusing: Set<String> = []) {
            self.refusing = refusing
        }

        /// The paths `concurrentWrites(of:)` was given; nil when it was not asked.
        var announced: [String]? { lock.withLock { announcedPaths } }
        /// The files written concurrently, by path.
        var pages: [String: [UInt8]] { lock.withLock { concurrentFiles } }
        /// Paths written concurrently more than once.
        var duplicates: [String] { lock.withLock { writtenTwice } }
        /// The files given to `write`, in order.
        var serial: [(path: String, bytes: [UInt8])] { lock.withLock { serialFiles } }

        func write(_ path: String, _ bytes: [UInt8]) throws {
            lock.withLock { serialFiles.append((path, bytes)) }
        }

        func concurrentWrites(of paths: [String]) throws -> SiteFileWrite? {
            lock.withLock { announcedPaths = paths }
            return { [self] path, bytes in
                if refusing.contains(path) { throw Refused(path: path) }
                lock.withLock {
                    if concurrentFiles[path] != nil { writtenTwice.append(path) }
                    concurrentFiles[path] = bytes
                }
            }
        }
    }

    /// Every (done, total) the builder's progress reported.
    final class ProgressLog: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [(done: Int, total: Int)] = []

        func add(_ done: Int, _ total: Int) { lock.withLock { calls.append((done, total)) } }
        var reports: [(done: Int, total: Int)] { lock.withLock { calls } }
    }

    @Test func everyPageIsWrittenOnceWithTheBytesOfTheInMemoryBuild() throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        // The in-memory build takes its pages one at a time (a dictionary has no concurrent writes).
        let inMemory = try builder.files()
        var sink = ConcurrentSink()
        let log = ProgressLog()
        try builder.write(to: &sink) { done, total in log.add(done, total) }

        let pagePaths = model.pages.map(\.path)
        #expect(sink.announced == pagePaths)
        #expect(sink.duplicates.isEmpty)
        #expect(sink.pages.keys.sorted() == pagePaths.sorted())
        for path in pagePaths {
            #expect(sink.pages[path] == inMemory[path], "\(path)")
        }
        // Every other file comes through `write` after the pages: the assets by path, then the
        // search index, with the in-memory build's bytes.
        let serialPaths = sink.serial.map(\.path)
        #expect(serialPaths.last == SearchIndex.path)
        #expect(Array(serialPaths.dropLast()) == Array(serialPaths.dropLast()).sorted())
        #expect(Set(serialPaths).isDisjoint(with: pagePaths))
        #expect((serialPaths + pagePaths).sorted() == inMemory.keys.sorted())
        for file in sink.serial {
            #expect(file.bytes == inMemory[file.path], "\(file.path)")
        }
        // One report per page, each of the whole count, up to every page.
        let reports = log.reports
        #expect(reports.count == pagePaths.count)
        #expect(reports.allSatisfy { $0.total == pagePaths.count })
        #expect(reports.map(\.done).sorted() == Array(1...pagePaths.count))
    }

    /// The pages start site-wide first (`SiteBuilder.renderOrder(of:)`): the order is a permutation
    /// of the pages, the
    /// overview, checks, changes and rule pages before any placement's, each group in page order,
    /// so the few slow site-wide pages (the rules came last in page order) do not end the build on
    /// one core.
    @Test func siteWidePagesStartFirstInAPermutationOfThePages() throws {
        let pages = try StreamingWriteTests.model().pages
        let order = SiteBuilder.renderOrder(of: pages)
        #expect(order.sorted() == Array(pages.indices))
        let kinds = order.map { pages[$0].kind }
        let siteWide = kinds.prefix { $0.isSiteWide }
        #expect(siteWide.count == kinds.count { $0.isSiteWide })
        #expect(Set(siteWide).isSuperset(of: [.overview, .checks, .changes, .rule]))
        #expect(Set(kinds.dropFirst(siteWide.count)).isSuperset(of: [.placement, .funnel, .paywall]))
        #expect(Array(order.prefix(siteWide.count)) == Array(order.prefix(siteWide.count)).sorted())
        #expect(Array(order.dropFirst(siteWide.count)) == Array(order.dropFirst(siteWide.count)).sorted())
        // In page order the rules come last, after every placement: the order moves them.
        let firstRule = try #require(order.firstIndex { pages[$0].kind == .rule })
        let firstPlacement = try #require(order.firstIndex { pages[$0].kind == .placement })
        #expect(firstRule < firstPlacement)
        let firstRulePage = try #require(pages.firstIndex { $0.kind == .rule })
        let firstPlacementPage = try #require(pages.firstIndex { $0.kind == .placement })
        #expect(firstRulePage > firstPlacementPage)
    }

    /// Two pages refused: the build reports the first in page order, every page before it is
    /// written, and no other file is handed over. Repeated, since the threads' timing varies.
    @Test(arguments: [0, 5, 13])
    func theFirstRefusedPageInPageOrderIsTheFailure(failing: Int) throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        try #require(model.pages.count > failing + 3)
        let refused = model.pages[failing].path
        for _ in 0..<4 {
            var sink = ConcurrentSink(refusing: [refused, model.pages[failing + 3].path])
            #expect {
                try builder.write(to: &sink)
            } throws: { error in
                guard let error = error as? SiteBuildError, case .write(let underlying) = error else { return false }
                return underlying as? ConcurrentSink.Refused == ConcurrentSink.Refused(path: refused)
            }
            #expect(Set(model.pages.prefix(failing).map(\.path)).isSubset(of: sink.pages.keys))
            #expect(sink.pages[refused] == nil)
            #expect(sink.serial.isEmpty, "files were handed over after a refused page")
        }
    }

    /// Whichever of two failing pages is recorded first, the earlier in page order is kept, and a
    /// page is skipped only when one before it has failed: the order threads finish in does not
    /// change the failure a build reports.
    @Test(arguments: [[2, 6], [6, 2], [6, 2, 4], [0, 9]])
    func theEarliestFailingPageIsKeptWhateverOrderFailuresComeIn(recordedIndexes: [Int]) {
        let failures = FirstPageFailure()
        #expect(failures.first == nil)
        #expect(!failures.isPast(0) && !failures.isPast(Int.max - 1))
        for index in recordedIndexes {
            failures.record(.write(ConcurrentSink.Refused(path: "page-\(index)")), at: index)
        }
        let earliest = recordedIndexes.min()!
        guard case .write(let underlying)? = failures.first else {
            Issue.record("expected a write failure, got \(String(describing: failures.first))")
            return
        }
        #expect(underlying as? ConcurrentSink.Refused == ConcurrentSink.Refused(path: "page-\(earliest)"))
        #expect(!failures.isPast(earliest), "the failing page itself is not past the failure")
        #expect(earliest == 0 || !failures.isPast(earliest - 1))
        #expect(failures.isPast(earliest + 1))
    }

    /// A refused page before the first page that cannot render is the failure reported; with no
    /// page refused, the page that cannot render is, after every page before it is written.
    @Test func aRefusedPageBeforeAPageThatCannotRenderIsTheFailureReported() throws {
        let model = try StreamingWriteTests.model()
        // Rule pages come last, and this theme fails each of them at once.
        let firstRule = try #require(model.pages.firstIndex { $0.kind == .rule })
        try #require(firstRule > 0)
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.themeWithoutRulePages())
        let refused = model.pages[firstRule - 1].path
        for _ in 0..<4 {
            var sink = ConcurrentSink(refusing: [refused])
            #expect {
                try builder.write(to: &sink)
            } throws: { error in
                guard let error = error as? SiteBuildError, case .write(let underlying) = error else { return false }
                return underlying as? ConcurrentSink.Refused == ConcurrentSink.Refused(path: refused)
            }
            var accepting = ConcurrentSink()
            #expect {
                try builder.write(to: &accepting)
            } throws: { error in
                guard let error = error as? SiteBuildError, case .render = error else { return false }
                return true
            }
            #expect(Set(model.pages.prefix(firstRule).map(\.path)).isSubset(of: accepting.pages.keys))
            #expect(accepting.serial.isEmpty)
        }
    }

    /// The temporary folder of a build checks every path before it makes a folder, and counts
    /// the pages written either way.
    @Test func theStagingFolderChecksEveryPathFirstAndCountsPagesWrittenEitherWay() throws {
        let root = try StreamingWriteTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var refusing = try SiteWriter(outputPath: root + "/refused").begin()
        #expect(throws: SiteWriterError.unsafePath("../escape.html")) {
            _ = try refusing.concurrentWrites(of: ["index.html", "funnels/a.html", "../escape.html"])
        }
        let building = try #require(try FileManager.default.contentsOfDirectory(atPath: root).first { $0.contains("refused") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/" + building) == [], "a folder was made before the check")
        refusing.discard()

        // A path given twice would be written by two threads at once: the files come one at a time.
        var twice = try SiteWriter(outputPath: root + "/twice").begin()
        #expect(try twice.concurrentWrites(of: ["index.html", "funnels/a.html", "index.html"]) == nil)
        twice.discard()

        var staging = try SiteWriter(outputPath: root + "/site").begin()
        let paths = ["index.html", "funnels/a.html", "funnels/b.html", "rules/c.html", "notes/d.txt"]
        let write = try #require(try staging.concurrentWrites(of: paths))
        // The write takes only the paths it was given.
        for stray in ["../escape.html", "funnels/other.html", "index.html/x"] {
            #expect(throws: SiteWriterError.unsafePath(stray)) { try write(stray, Array("stray".utf8)) }
        }
        _ = ParallelChunks(count: paths.count, size: 1).map { range in
            try? write(paths[range.lowerBound], Array(paths[range.lowerBound].utf8))
        }
        try staging.write("assets/site.css", Array("css".utf8))
        try staging.write("checks.html", Array("checks".utf8))
        #expect(staging.pageCount == 5)
        try staging.finish()
        var written = StreamingWriteTests.files(under: root + "/site")
        #expect(written.removeValue(forKey: SiteWriter.markerName) != nil)
        var expected = Dictionary(uniqueKeysWithValues: paths.map { ($0, Array($0.utf8)) })
        expected["assets/site.css"] = Array("css".utf8)
        expected["checks.html"] = Array("checks".utf8)
        #expect(written == expected)
    }
}
