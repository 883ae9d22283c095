import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackDiff
import FallbackHistory
import FallbackHistoryTestSupport
import FallbackTestSupport

/// `generatedAt` is read by no SDK, so whatever integer (or non-integer) a file writes there, the
/// diff and the history must report on it instead of trapping on an overflow.
@Suite("Epoch arithmetic on generatedAt and clocks")
struct EpochArithmeticTests {
    /// Every 64-bit extreme with its date, as `java.time.Instant.ofEpochMilli` writes it (an
    /// independent proleptic Gregorian calendar), fractional seconds dropped.
    static let extremes: [(milliseconds: Int64, date: String)] = [
        (.min, "-292275055-05-16T16:47:04Z"),
        (.min + 998, "-292275055-05-16T16:47:05Z"),
        (.min + 999, "-292275055-05-16T16:47:05Z"),
        (-1001, "1969-12-31T23:59:58Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (0, "1970-01-01T00:00:00Z"),
        (1_764_400_000_000, "2025-11-29T07:06:40Z"),
        (.max, "292278994-08-17T07:12:55Z"),
    ]

    /// `generatedAt` tokens that are not 64-bit integers: the SDK ignores them, and so does every
    /// comparison of dates.
    static let nonIntegers = [
        "1e300", "-1e300", "1.7976931348623157e308", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "-0", "-0.0", "0.5", #""1764400000000""#, #""""#, "null", "true", "[]", "{}",
    ]

    static let newer = "1764400000000"

    @Test(arguments: extremes)
    func everyMillisecondValueHasADate(_ extreme: (milliseconds: Int64, date: String)) {
        #expect(EpochMilliseconds.isoDate(extreme.milliseconds) == extreme.date)
    }

    @Test(arguments: extremes)
    func theDiffDatesAnExtremeGeneratedAt(_ extreme: (milliseconds: Int64, date: String)) {
        let value = Snap.file(Snap.paywallFileBody, generatedAt: String(extreme.milliseconds))
        let other = Snap.file(Snap.paywallFileBody, generatedAt: extreme.milliseconds == .max ? "1764400000000" : "9223372036854775807")
        // Older first, so the diff sees the later one going back in time.
        let (old, new) = extreme.milliseconds == .max ? (value, other) : (other, value)
        let diff = SnapshotDiff(old: FallbackFile(text: old), new: FallbackFile(text: new))
        #expect(diff.old.generatedAtDate != nil && diff.new.generatedAtDate != nil)
        #expect([diff.old.generatedAtDate, diff.new.generatedAtDate].contains(extreme.date))
        let earlier = diff.changes.filter { $0.kind == .generatedEarlier }
        #expect(earlier.count == 1)
        #expect(earlier.first?.message.contains(extreme.date) == true)
    }

    @Test(arguments: nonIntegers)
    func theDiffIgnoresAGeneratedAtThatIsNoInteger(_ token: String) {
        let odd = FallbackFile(text: Snap.file(Snap.paywallFileBody, generatedAt: token))
        let normal = FallbackFile(text: Snap.file(Snap.paywallFileBody, generatedAt: Self.newer))
        for diff in [SnapshotDiff(old: odd, new: normal), SnapshotDiff(old: normal, new: odd)] {
            #expect(diff.changes.allSatisfy { $0.kind != .generatedEarlier })
        }
        #expect(odd.generatedAtMilliseconds == nil)
    }

    @Test(arguments: extremes)
    func theTimelineDatesTiesAndStepsBackAtTheExtremes(_ extreme: (milliseconds: Int64, date: String)) throws {
        let value = Snap.file(Snap.paywallFileBody, generatedAt: String(extreme.milliseconds))
        let tie = try timeline([value, value])
        let tieMessages = tie.findings.map(\.finding).filter { $0.ruleId == "snapshot-tie" }.map(\.message)
        #expect(tieMessages.count == 1)
        #expect(tieMessages.first?.contains(extreme.date) == true)

        let other = Snap.file(Snap.paywallFileBody, generatedAt: extreme.milliseconds == .min ? String(Int64.max) : String(Int64.min))
        let back = try timeline([value, other])
        let backMessages = back.findings.map(\.finding).filter { $0.ruleId == "snapshot-back-in-time" }.map(\.message)
        if extreme.milliseconds != .min {
            #expect(backMessages.count == 1)
            #expect(backMessages.first?.contains(extreme.date) == true)
        }
        #expect(back.snapshots.map(\.stamp.description).joined().contains(extreme.date))
    }

    @Test(arguments: nonIntegers)
    func theTimelineOrdersAGeneratedAtThatIsNoIntegerAsUnknown(_ token: String) throws {
        let found = try timeline([Snap.file(Snap.paywallFileBody, generatedAt: token), Snap.file(Snap.paywallFileBody, generatedAt: Self.newer)])
        #expect(found.snapshots.count == 2)
        #expect(found.snapshots.map(\.stamp.generatedAt).contains(nil))
    }

    /// Clocks out of the 64-bit millisecond range (any `Date` a library user passes) skip the rules
    /// that compare with now, instead of trapping when converted.
    @Test(arguments: [1e300, -1e300, 9.3e15, -9.3e15, Double.infinity, -Double.infinity])
    func aClockOutOfRangeSkipsTheRulesThatReadIt(seconds: Double) throws {
        let now = Date(timeIntervalSince1970: seconds)
        #expect(Format.milliseconds(of: now) == nil)
        let file = FallbackFile(text: Snap.file(Snap.paywallFileBody, generatedAt: String(Int64.max / 2)))
        #expect(file.audit(now: now).allSatisfy { $0.ruleId != "generated-at-future" })
        let series = try SnapshotSeries(TextSnapshots([Snap.paywallFile])).timeline(HistoryOptions(now: now, staleAfterDays: 1))
        #expect(series.findings.allSatisfy { !$0.finding.message.contains("before now") })
    }

    @Test(arguments: [Int64.min, .min + 999, -1, 0, .max])
    func staleAndFutureChecksNeverOverflow(milliseconds: Int64) throws {
        let text = Snap.file(Snap.paywallFileBody, generatedAt: String(milliseconds))
        let found = FallbackFile(text: text).audit(now: testNow)
        #expect(found.contains { $0.ruleId == "generated-at-invalid" || $0.ruleId == "generated-at-future" } == (milliseconds != 1_764_400_000_000))
        let stale = try timeline([text], staleAfterDays: Int.max).findings.map(\.finding).filter { $0.ruleId == "snapshot-stale" }
        #expect(stale.isEmpty)
    }
}

extension Snap {
    /// The placements of `paywallFile`: one entry `a` serving a paywall.
    static let paywallFileBody = entry("a", #""paywall":\#(paywall())"#)
}
