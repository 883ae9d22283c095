import Dispatch
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A site build renders the next batch of pages while it hands the previous one to the sink
/// (`SiteBuilder.write(to:batchSize:progress:)` with `RenderAhead`), so rendering and writing use
/// different cores (issue 10, the Hugo goal). The order of the files, the bound on pages held, and
/// which failure a build reports stay as they were when each batch was written before the next
/// was rendered.
@Suite("Rendering the next batch while writing this one")
struct OverlappedWriteTests {
    /// A sink whose first write waits for a page past the first `firstBatch` to be rendered, and a
    /// progress that holds each such page until the first write has begun: only a builder that
    /// writes one batch while the next renders gets through both without waiting in vain. One that
    /// renders a whole batch before writing any of it waits at the progress; one that renders the
    /// next batch only after writing this one waits at the write.
    final class Handshake: SiteSink, @unchecked Sendable {
        private let lock = NSLock()
        private let firstWriteBegun = DispatchGroup()
        private let renderedPastFirstBatch = DispatchGroup()
        private let firstBatch: Int
        private var rendered = 0
        private var waitedInVain: [String] = []
        private(set) var paths: [String] = []

        init(firstBatch: Int) {
            self.firstBatch = firstBatch
            firstWriteBegun.enter()
            renderedPastFirstBatch.enter()
        }

        /// Where a wait ran out: `render` (a page waited for the first write), `write` (the first
        /// write waited for the next batch). Empty when rendering and writing overlapped.
        var waits: [String] { lock.withLock { waitedInVain } }

        // The waits guard against a builder that does not overlap; they do not measure speed.
        private func wait(_ group: DispatchGroup, _ place: String) {
            if group.wait(timeout: .now() + 20) == .timedOut { lock.withLock { waitedInVain.append(place) } }
        }

        func rendered(_ done: Int) {
            guard done > firstBatch else { return }
            let first = lock.withLock { () -> Bool in
                defer { rendered = max(rendered, done) }
                return rendered <= firstBatch
            }
            if first { renderedPastFirstBatch.leave() }
            wait(firstWriteBegun, "render")
        }

        func write(_ path: String, _ bytes: [UInt8]) throws {
            let first = lock.withLock { () -> Bool in
                paths.append(path)
                return paths.count == 1
            }
            if first {
                firstWriteBegun.leave()
                wait(renderedPastFirstBatch, "write")
            }
        }
    }

    @Test func theNextBatchRendersWhileThisOneIsWritten() throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        let batchSize = 8
        try #require(model.pages.count > 2 * batchSize)
        var sink = Handshake(firstBatch: batchSize / 2)
        let recorder = sink
        try builder.write(to: &sink, batchSize: batchSize) { done, _ in recorder.rendered(done) }
        #expect(sink.waits.isEmpty, "rendering and writing did not overlap")
        #expect(Array(sink.paths.prefix(model.pages.count)) == model.pages.map(\.path))
    }

    /// Odd and small batch sizes, beside `StreamingWriteTests`' 1, 4 and 16: never more than
    /// `batchSize` pages rendered and not yet handed over, pages in the model's order.
    @Test(arguments: [2, 3, 9, SiteBuilder.defaultBatchSize])
    func rendersAheadWithinTheBatchSize(batchSize: Int) throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        var sink = StreamingWriteTests.RecordingSink()
        let recorder = sink
        try builder.write(to: &sink, batchSize: batchSize) { done, _ in recorder.rendered(done) }
        #expect(sink.handedOver == model.pages.count)
        #expect(sink.mostUnwritten <= batchSize)
        #expect(Array(sink.paths.prefix(model.pages.count)) == model.pages.map(\.path))
        #expect(sink.paths.last == SearchIndex.path)
    }

    /// A sink that refuses the file at `failing` (counting from 0) and counts the pages rendered.
    final class FailingSink: SiteSink, @unchecked Sendable {
        struct Refused: Error, Equatable { let path: String }
        private let lock = NSLock()
        private let failing: Int
        private(set) var paths: [String] = []
        private var renderedCount = 0

        init(failing: Int) { self.failing = failing }

        func rendered(_ done: Int) { lock.withLock { renderedCount = max(renderedCount, done) } }
        var rendered: Int { lock.withLock { renderedCount } }

        func write(_ path: String, _ bytes: [UInt8]) throws {
            if paths.count == failing { throw Refused(path: path) }
            paths.append(path)
        }
    }

    @Test(arguments: [0, 5, 13])
    func aRefusedWriteStopsTheBuildAndTheRenderingAhead(failing: Int) throws {
        let model = try StreamingWriteTests.model()
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.theme())
        let batchSize = 8
        try #require(model.pages.count > failing + 2 * batchSize)
        var sink = FailingSink(failing: failing)
        let recorder = sink
        do {
            try builder.write(to: &sink, batchSize: batchSize) { done, _ in recorder.rendered(done) }
            Issue.record("the build went on past a refused write")
        } catch {
            guard case .write(let underlying) = error else {
                Issue.record("expected a write error, got \(error)")
                return
            }
            #expect(underlying as? FailingSink.Refused == FailingSink.Refused(path: model.pages[failing].path))
        }
        // Every page before the refused one was handed over, in order, and nothing after it.
        #expect(sink.paths == model.pages.prefix(failing).map(\.path))
        // At most the failing page's batch and the one rendering ahead were rendered.
        #expect(sink.rendered <= (failing / (batchSize / 2) + 2) * (batchSize / 2))
    }

    /// A write that fails at the last page of a batch wins over a page of the batch rendering
    /// ahead that cannot render: the first failure in page order, as when batches did not overlap.
    @Test func aRefusedWriteBeforeAPageThatCannotRenderIsTheFailureReported() throws {
        let model = try StreamingWriteTests.model()
        // Rule pages come last; the first of them starts the batch after the refused write.
        let firstRule = try #require(model.pages.firstIndex { $0.kind == .rule })
        try #require(firstRule > 0)
        let builder = SiteBuilder(model: model, theme: try StreamingWriteTests.themeWithoutRulePages())
        var sink = FailingSink(failing: firstRule - 1)
        #expect {
            try builder.write(to: &sink, batchSize: 2 * firstRule)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .write(let underlying) = error else { return false }
            return underlying as? FailingSink.Refused == FailingSink.Refused(path: model.pages[firstRule - 1].path)
        }
        // And with every page before it written, the page that cannot render is the failure.
        var accepting = FailingSink(failing: Int.max)
        #expect {
            try builder.write(to: &accepting, batchSize: 2 * firstRule)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .render = error else { return false }
            return true
        }
        #expect(accepting.paths == model.pages.prefix(firstRule).map(\.path))
    }

    @Test func renderAheadGivesItsResultAndStopsWhenCancelled() {
        let work = RenderAhead { _ in (1...100).reduce(0, +) }
        #expect(work.wait() == 5050)

        let started = DispatchSemaphore(value: 0)
        let cancelled = RenderAhead { isCancelled -> Int in
            started.signal()
            var checks = 0
            while !isCancelled() { checks += 1 }
            return checks
        }
        started.wait()
        cancelled.cancel()
        #expect(cancelled.wait() >= 0)
    }

    /// A result several parts of a build wait for (a step's failure path and its success path,
    /// the model's parts) is given to every wait, from any thread; the work runs once.
    @Test func renderAheadGivesItsResultToEveryWait() {
        let runs = StreamingWriteTests.WriteCounter()
        let work = RenderAhead { _ -> Int in
            _ = runs.next()
            return 42
        }
        let results = ParallelChunks(count: 8, size: 1).map { _ in (work.wait(), work.wait()) }
        #expect(results.allSatisfy { $0 == (42, 42) })
        #expect(work.wait() == 42)
        #expect(runs.writes == 1)
    }
}
