import Dispatch
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A sink that takes files from several threads (a build's temporary folder,
/// `SiteSink.concurrentWrites(of:)`) gets each page from the thread that rendered it
/// (`SiteBuilder.write(to:batchSize:progress:)`), so no core waits for another's page to be
/// written (issue 10, the Hugo goal). The bytes are the in-memory build's; the failure reported is
/// the first in page order, whatever the threads' timing; every other file still comes through
/// `write`, after the pages.
@Suite("Pages written by the threads that render them")
struct ConcurrentPageWriteTests {
    /// Takes pages through its concurrent writes and every other file through `write`, and
    /// refuses the concurrent write of each path in `refusing`.
    final class ConcurrentSink: SiteSink, @unchecked Sendable {
        struct Refused: Error, Equatable { let path: String }
        private let lock = NSLock()
        private let refusing: Set<String>
        /// Called with each path before its concurrent write, on the writing thread.
        private let beforeWrite: @Sendable (String) -> Void
        private var announcedPaths: [String]?
        private var concurrentFiles: [String: [UInt8]] = [:]
        private var writtenTwice: [String] = []
        private var serialFiles: [(path: String, bytes: [UInt8])] = []

        init(refusing: Set<String> = [], beforeWrite: @escaping @Sendable (String) -> Void = { _ in }) {
            self.refusing = refusing
            self.beforeWrite = beforeWrite
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
                beforeWrite(path)
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

    /// The first page's write waits until another page is being written: a builder that writes
    /// the pages one at a time, on one thread, waits in vain. Needs two cores.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "needs two cores"))
    func anotherPageIsWrittenWhileTheFirstIsBeingWritten() throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        let first = model.pages[0].path
        let anotherBegun = DispatchSemaphore(value: 0)
        let waitedInVain = StreamingWriteTests.WriteCounter()
        var sink = ConcurrentSink { path in
            if path == first {
                if anotherBegun.wait(timeout: .now() + 20) == .timedOut { _ = waitedInVain.next() }
            } else {
                anotherBegun.signal()
            }
        }
        try builder.write(to: &sink)
        #expect(waitedInVain.writes == 0, "no other page was written while the first was")
        #expect(sink.pages.count == model.pages.count)
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

    /// Two refused pages in flight at once, each failing while the other is being written: the
    /// earlier in page order is the failure, whether it fails first or last. Needs two cores.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount > 1, "needs two cores"), arguments: [true, false])
    func theEarlierPageIsTheFailureWhicheverFailsFirst(earlierFailsFirst: Bool) throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        let (earlier, later) = (model.pages[2].path, model.pages[6].path)
        let arrived = (earlier: DispatchSemaphore(value: 0), later: DispatchSemaphore(value: 0))
        let waitedInVain = StreamingWriteTests.WriteCounter()
        // Both writes begin before either fails; then the one chosen to fail last waits a little.
        var sink = ConcurrentSink(refusing: [earlier, later]) { path in
            guard path == earlier || path == later else { return }
            let (mine, other) = path == earlier ? (arrived.earlier, arrived.later) : (arrived.later, arrived.earlier)
            mine.signal()
            if other.wait(timeout: .now() + 20) == .timedOut { _ = waitedInVain.next() }
            other.signal()
            if (path == earlier) != earlierFailsFirst { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect {
            try builder.write(to: &sink)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .write(let underlying) = error else { return false }
            return underlying as? ConcurrentSink.Refused == ConcurrentSink.Refused(path: earlier)
        }
        #expect(waitedInVain.writes == 0, "the two refused pages were not written at the same time")
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

        var staging = try SiteWriter(outputPath: root + "/site").begin()
        let paths = ["index.html", "funnels/a.html", "funnels/b.html", "rules/c.html", "notes/d.txt"]
        let write = try #require(try staging.concurrentWrites(of: paths))
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
