import FallbackAudit
import Foundation
import RovenueFallback
import Testing

@testable import FallbackHistory
import FallbackHistoryTestSupport
import FallbackTestSupport

/// `SnapshotSeries.timeline(of:_:progress:)` folds a series in one read of each snapshot while the
/// source order is the timeline order, and gives the same timeline as listing the series and then
/// folding it (`SnapshotSeries(_:)`, `timeline(_:)`) whatever the order.
@Suite("History: one pass while the snapshots come in time order")
struct OnePassTimelineTests {
    static let day: Int64 = 86_400_000
    static let start: Int64 = 1_764_000_000_000

    /// A snapshot at `day` (nil: a `generatedAt` that is not an integer) whose content depends on
    /// `variant`: revisions that go up or down, a placement that comes and goes, a rejected file.
    static func text(day: Int?, variant: Int) -> String {
        let generatedAt = day.map { String(start + Int64($0) * Self.day) } ?? #""soon""#
        switch variant % 5 {
        case 0: return Snap.file(paywallEntry("a", revision: "1"), generatedAt: generatedAt)
        case 1: return Snap.file(paywallEntry("a", revision: "2") + "," + paywallEntry("b"), generatedAt: generatedAt)
        case 2: return Snap.file(paywallEntry("a", revision: "1", paywall: "other"), generatedAt: generatedAt)
        case 3: return Snap.file(paywallEntry("b", revision: "3"), generatedAt: generatedAt, projectId: #""proj_2""#)
        default: return #"{"formatVersion":2,"generatedAt":\#(generatedAt),"placements":{}}"#
        }
    }

    static func source(_ days: [Int?]) -> TextSnapshots {
        TextSnapshots(days.enumerated().map { text(day: $1, variant: $0) })
    }

    static func twoPasses(_ source: some SnapshotSource) throws -> Timeline {
        try SnapshotSeries(source).timeline(HistoryOptions(now: testNow))
    }

    static func onePass(_ source: some SnapshotSource, progress: ((SnapshotSeries.Progress) -> Void)? = nil) throws -> Timeline {
        try SnapshotSeries.timeline(of: source, HistoryOptions(now: testNow), progress: progress)
    }

    @Test(arguments: [
        [1, 2, 3, 4], [1, 1, 2, 2], [nil, 1, nil, 2], [nil, nil], [3, 1, 2], [1, 2, 3, 5, 4], [2, nil, 1],
        [1, 2, 0, 3], [5, 5, 5, 4], [4, 3, 2, 1], [1, nil, 0, nil, 2], [1],
    ] as [[Int?]])
    func givesTheTwoPassTimeline(_ days: [Int?]) throws {
        let source = Self.source(days)
        #expect(facts(try Self.onePass(source)) == facts(try Self.twoPasses(source)))
    }

    /// Every series of one to three snapshots with times drawn from three days and an unreadable
    /// time (ties, repeats, gaps, every order), with content that makes the fold depend on order.
    @Test func givesTheTwoPassTimelineOnEverySmallSeries() throws {
        let times: [Int?] = [0, 1, 2, nil]
        var series: [[Int?]] = [[]]
        for _ in 1...3 {
            series = series.flatMap { days in times.map { days + [$0] } }
            for days in series {
                let source = Self.source(days)
                #expect(facts(try Self.onePass(source)) == facts(try Self.twoPasses(source)), "\(days)")
            }
        }
    }

    /// In time order, each snapshot is read once and folded as it comes.
    @Test func readsEachSnapshotOnceInTimeOrder() throws {
        let source = LoggingSource(Self.source([1, nil, 2, 2, 3]))
        var steps: [String] = []
        _ = try Self.onePass(source) { step in
            guard case .folded(let record, let done, let total) = step else {
                steps.append("scanned")
                return
            }
            steps.append("\(done)/\(total) \(record.stamp.name)")
        }
        #expect(source.events == ["read 1.json", "read 2.json", "read 3.json", "read 4.json", "read 5.json"])
        #expect(steps == ["1/5 1.json", "2/5 2.json", "3/5 3.json", "4/5 4.json", "5/5 5.json"])
    }

    /// At the first snapshot out of order, the rest is read for its times only; then every
    /// snapshot is read again and folded in timeline order.
    @Test func fallsBackToTwoPassesAtTheFirstSnapshotOutOfOrder() throws {
        let source = LoggingSource(Self.source([1, 3, 2, 4]))
        var steps: [String] = []
        _ = try Self.onePass(source) { step in
            switch step {
            case .scanned(let done, let total): steps.append("scanned \(done)/\(total)")
            case .folded(let record, let done, let total): steps.append("\(done)/\(total) \(record.stamp.name)")
            }
        }
        #expect(
            source.events == [
                "read 1.json", "read 2.json", "read 3.json", "read 4.json", "read 1.json", "read 3.json", "read 2.json", "read 4.json",
            ])
        #expect(
            steps == [
                "1/4 1.json", "2/4 2.json", "scanned 3/4", "scanned 4/4", "1/4 1.json", "2/4 3.json", "3/4 2.json", "4/4 4.json",
            ])
    }

    /// The visitor is handed, after its last `.restart` (one, at the first snapshot out of order),
    /// each snapshot once in timeline order, with its position and the count, the bytes as read,
    /// and the findings and record the two-pass visit hands over.
    @Test(arguments: [
        (days: [1, 2, 3], restarts: 0), (days: [nil, 1, nil, 2], restarts: 0), (days: [1], restarts: 0), (days: [3, 1, 2], restarts: 1),
        (days: [1, 2, 0, 3], restarts: 1), (days: [4, 3, 2, 1], restarts: 1), (days: [2, nil, 1], restarts: 1),
    ] as [(days: [Int?], restarts: Int)])
    func handsTheVisitorEachSnapshotInTimelineOrder(days: [Int?], restarts: Int) throws {
        let source = Self.source(days)
        var visited: [(snapshot: FoldedSnapshot, position: Int, count: Int)] = []
        var restartCount = 0
        _ = try SnapshotSeries.timeline(of: source, HistoryOptions(now: testNow), visit: { visit in
            switch visit {
            case .restart:
                restartCount += 1
                visited = []
            case .folded(let snapshot, let position, let count):
                visited.append((snapshot, position, count))
            }
        })
        var expected: [(findings: [Finding], record: SnapshotRecord)] = []
        let series = try SnapshotSeries(source)
        _ = try series.timeline(HistoryOptions(now: testNow)) { _, findings, record in expected.append((findings, record)) }

        #expect(restartCount == restarts)
        #expect(visited.map(\.snapshot.reference) == series.members.map(\.reference))
        #expect(visited.map(\.position) == Array(days.indices))
        #expect(visited.allSatisfy { $0.count == days.count })
        #expect(visited.map(\.snapshot.findings) == expected.map(\.findings))
        #expect(visited.map(\.snapshot.record) == expected.map(\.record))
        for (snapshot, _, _) in visited {
            #expect(snapshot.bytes == (try source.bytes(of: snapshot.reference)))
        }
    }

    /// The bytes handed over are the bytes read, a byte order mark included, which the parsed
    /// file leaves out of its document.
    @Test func handsTheVisitorTheBytesWithTheirByteOrderMark() throws {
        let source = TextSnapshots(["\u{FEFF}" + Self.text(day: 1, variant: 0), Self.text(day: 2, variant: 1)])
        var bytes: [[UInt8]] = []
        _ = try SnapshotSeries.timeline(of: source, HistoryOptions(now: testNow), visit: { visit in
            if case .folded(let snapshot, _, _) = visit { bytes.append(snapshot.bytes) }
        })
        #expect(bytes.count == 2)
        #expect(bytes.first?.starts(with: [0xEF, 0xBB, 0xBF]) == true)
        #expect(bytes == (try source.references().map { try source.bytes(of: $0) }))
    }

    /// A snapshot that cannot be read stops the fold with its error, as in two passes.
    @Test func aFailedReadThrowsItsError() throws {
        struct Unreadable: SnapshotSource {
            let inner: TextSnapshots
            func references() throws -> [SnapshotReference] { try inner.references() }
            func bytes(of reference: SnapshotReference) throws -> [UInt8] {
                guard reference.name != "2.json" else { throw HistoryError.unreadable(path: reference.name, reason: "gone") }
                return try inner.bytes(of: reference)
            }
        }
        let source = Unreadable(inner: Self.source([1, 2, 3]))
        #expect(throws: HistoryError.unreadable(path: "2.json", reason: "gone")) { try Self.onePass(source) }
        #expect(throws: HistoryError.unreadable(path: "2.json", reason: "gone")) { try Self.twoPasses(source) }
    }
}
