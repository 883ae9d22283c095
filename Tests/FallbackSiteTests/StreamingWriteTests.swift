import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// A site build writes its pages as they are rendered (`SiteBuilder.write(to:)`,
/// `SiteBuild.renderAndWrite`; in batches for a sink that takes them one at a time), so its memory
/// does not grow with the number of pages; what it writes is what the in-memory build
/// (`SiteBuilder.files()`) makes, and a failure half-way leaves the previous site as it was.
@Suite("Streaming the site to disk as it is rendered")
struct StreamingWriteTests {
    /// The funnel-era fixture compared with release 3.1: every page kind, a Changes page, assets.
    static func model() throws -> SiteModel {
        func snapshot(_ path: String) throws -> SiteModel.Snapshot {
            let bytes = try example(path)
            let file = FallbackFile(bytes: bytes)
            return SiteModel.Snapshot(name: path, bytes: bytes, file: file, findings: Audit().findings(in: file))
        }
        return SiteModel(
            snapshot: try snapshot("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"),
            baseline: try snapshot("Examples/2026-04-14-release-3.1.json"), title: nil, referenceDate: nil)
    }

    static func theme(overriding templates: [String: String] = [:]) throws -> SiteBuild.PreparedTheme {
        var sources = Theme.builtIn.templates
        sources.merge(templates) { _, new in new }
        let theme = Theme(templates: sources, assets: Theme.builtIn.assets)
        return SiteBuild.PreparedTheme(theme: theme, templates: try TemplateSet(theme: theme))
    }

    /// The built-in theme without the rule pages' template: each rule page (they come last) fails
    /// at once.
    static func themeWithoutRulePages() throws -> SiteBuild.PreparedTheme {
        var templates = Theme.builtIn.templates
        templates["rule.md"] = nil
        let theme = Theme(templates: templates, assets: Theme.builtIn.assets)
        return SiteBuild.PreparedTheme(theme: theme, templates: try TemplateSet(theme: theme))
    }

    /// A fresh folder for one test; the caller removes it.
    static func temporaryFolder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-streaming-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every regular file below `folder`, by its path relative to it.
    static func files(under folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = FileManager.default.contents(atPath: folder + "/" + path).map { [UInt8]($0) }
            }
        }
        return files
    }

    /// A previous site at `root/site`, as a build leaves it: the marker and one page.
    static func previousSite(in root: String) throws -> [String: [UInt8]] {
        let old = ["index.html": Array("the previous site".utf8), "funnels/old.html": Array("old funnel".utf8)]
        try SiteWriter(outputPath: root + "/site").write(old)
        return files(under: root + "/site")
    }

    @Test func theStreamedBuildWritesTheSameBytesAsTheInMemoryOne() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let model = try Self.model()
        let theme = try Self.theme()
        let inMemory = try SiteBuild.render(model, theme: theme)
        let written = try SiteBuild.renderAndWrite(model, theme: theme, with: SiteWriter(outputPath: root + "/site"))

        var onDisk = Self.files(under: root + "/site")
        #expect(onDisk.removeValue(forKey: SiteWriter.markerName) != nil)
        #expect(onDisk.keys.sorted() == inMemory.keys.sorted())
        for (path, bytes) in inMemory {
            #expect(onDisk[path] == bytes, "\(path)")
        }
        #expect(written == SiteBuild.WrittenSite(output: root + "/site", pageCount: inMemory.keys.count { $0.hasSuffix(".html") }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    /// Records, at each page it is handed, how many pages were rendered and not yet handed over.
    /// With `concurrent`, it takes the pages from several threads at once, as a build's temporary
    /// folder does (`SiteSink.concurrentWrites(of:)`), and counts the pages taken that way.
    final class RecordingSink: SiteSink, @unchecked Sendable {
        private let lock = NSLock()
        private let concurrent: Bool
        private var rendered = 0
        private(set) var handedOver = 0
        private(set) var handedOverConcurrently = 0
        private(set) var mostUnwritten = 0
        private(set) var paths: [String] = []

        init(concurrent: Bool = false) { self.concurrent = concurrent }

        /// The builder's progress: `done` pages rendered.
        func rendered(_ done: Int) {
            lock.withLock {
                rendered = max(rendered, done)
                mostUnwritten = max(mostUnwritten, rendered - handedOver)
            }
        }

        func write(_ path: String, _ bytes: [UInt8]) throws {
            lock.withLock {
                paths.append(path)
                guard path.hasSuffix(".html") else { return }
                handedOver += 1
                mostUnwritten = max(mostUnwritten, rendered - handedOver + 1)
            }
        }

        func concurrentWrites(of paths: [String]) throws -> SiteFileWrite? {
            guard concurrent else { return nil }
            return { path, bytes in
                try self.write(path, bytes)
                if path.hasSuffix(".html") { self.lock.withLock { self.handedOverConcurrently += 1 } }
            }
        }
    }

    @Test(arguments: [1, 4, 16])
    func noMorePagesThanABatchAreHeldUnwritten(batchSize: Int) throws {
        let model = try Self.model()
        let builder = SiteBuilder(model: model, theme: try Self.theme())
        let pageCount = model.pages.count
        try #require(pageCount > 3 * batchSize, "the fixture must make several batches")
        var sink = RecordingSink()
        let recorder = sink
        try builder.write(to: &sink, batchSize: batchSize) { done, total in
            #expect(total == pageCount)
            recorder.rendered(done)
        }
        #expect(sink.handedOver == pageCount)
        #expect(sink.mostUnwritten <= batchSize)
        #expect(sink.mostUnwritten >= 1)
        // Pages in the model's order, then the assets by path, then the search index: the same
        // files as the in-memory site.
        #expect(Array(sink.paths.prefix(pageCount)) == model.pages.map(\.path))
        #expect(sink.paths.last == SearchIndex.path)
        #expect(sink.paths.sorted() == (try builder.files()).keys.sorted())
    }

    /// A build's own path: each page is written by the thread that rendered it, so however many
    /// pages the site has, no more pages are rendered and unwritten at once than there are cores
    /// (`SiteBuilder.renderAndWriteConcurrently`). A path that rendered pages ahead of their writes
    /// (all of them first, or a batch) reports them rendered before they are written, and fails.
    @Test func theConcurrentPathHoldsNoMorePagesUnwrittenThanThereAreCores() throws {
        let model = try Self.model()
        let builder = SiteBuilder(model: model, theme: try Self.theme())
        let pageCount = model.pages.count
        let cores = ProcessInfo.processInfo.activeProcessorCount
        try #require(pageCount > 4 * cores, "the fixture must have many more pages than cores")
        var sink = RecordingSink(concurrent: true)
        let recorder = sink
        let reports = WriteCounter()
        try builder.write(to: &sink) { done, total in
            #expect(total == pageCount)
            recorder.rendered(done)
            _ = reports.next()
        }
        #expect(sink.handedOverConcurrently == pageCount, "every page comes through the concurrent write")
        #expect(sink.handedOver == pageCount)
        #expect(reports.writes == pageCount, "progress is reported for every page")
        // Pages reported rendered and not yet written, at each report and each write.
        #expect(sink.mostUnwritten <= cores)
        // Pages in any order, then the assets by path, then the search index: the same files as
        // the in-memory site.
        #expect(Set(sink.paths.prefix(pageCount)) == Set(model.pages.map(\.path)))
        #expect(sink.paths.last == SearchIndex.path)
        #expect(sink.paths.sorted() == (try builder.files()).keys.sorted())
    }

    /// `FileIO.disk`, counting the files written, failing the write of file number `failingWrite`.
    static func countingDisk(failingWrite: Int? = nil) -> (FileIO, WriteCounter) {
        let counter = WriteCounter()
        var io = FileIO.disk
        let write = io.writeFile
        io.writeFile = { path, bytes in
            if counter.next() == failingWrite { throw SiteWriterError.cannotWrite(path) }
            try write(path, bytes)
        }
        return (io, counter)
    }

    final class WriteCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        /// Counts one more write and returns its number, from 1.
        func next() -> Int { lock.withLock { count += 1; return count } }
        var writes: Int { lock.withLock { count } }
    }

    @Test func aPageThatCannotRenderHalfWayLeavesThePreviousSiteAndNoTemporaryFolder() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let previous = try Self.previousSite(in: root)
        // Rule pages come last in page order, so every page before the first of them is rendered
        // and written before the build fails on it (the rule pages start first, and fail first).
        let theme = try Self.theme(overriding: ["rule.md": "{{> boom}}", "partials/boom.md": "x{{> boom}}{{> boom}}"])
        let (io, counter) = Self.countingDisk()
        #expect {
            _ = try SiteBuild.renderAndWrite(try Self.model(), theme: theme, with: SiteWriter(outputPath: root + "/site", io: io))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .render = error else { return false }
            return error.isUsageProblem
        }
        #expect(counter.writes > 4, "pages were written before the failing one")
        #expect(Self.files(under: root + "/site") == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    @Test(arguments: [1, 6, 40])
    func aWriteThatFailsHalfWayLeavesThePreviousSiteAndNoTemporaryFolder(failingWrite: Int) throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let previous = try Self.previousSite(in: root)
        let model = try Self.model()
        try #require(model.pages.count > failingWrite)
        let (io, _) = Self.countingDisk(failingWrite: failingWrite)
        #expect {
            _ = try SiteBuild.renderAndWrite(model, theme: try Self.theme(), with: SiteWriter(outputPath: root + "/site", io: io))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .write(let underlying) = error else { return false }
            return (underlying as? SiteWriterError).map { if case .cannotWrite = $0 { true } else { false } } ?? false
        }
        #expect(Self.files(under: root + "/site") == previous)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    /// A build takes time: a folder someone puts at `--out` while the pages are written is checked
    /// again before the swap, and kept.
    @Test func aFolderThatAppearsAtTheOutputDuringTheBuildIsNotReplaced() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/site"
        var staging = try SiteWriter(outputPath: out).begin()
        try staging.write("index.html", Array("new".utf8))
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: out + "/thesis.tex", contents: Data("precious".utf8)))
        #expect(throws: SiteWriterError.notAPreviousOutput(out)) {
            try staging.finish()
        }
        #expect(Self.files(under: out) == ["thesis.tex": Array("precious".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["site"])
    }

    @Test func stagingRefusesAPathThatLeavesTheOutput() throws {
        let root = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var staging = try SiteWriter(outputPath: root + "/site").begin()
        #expect(throws: SiteWriterError.unsafePath("../escape.html")) {
            try staging.write("../escape.html", [])
        }
        staging.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == [])
    }
}
