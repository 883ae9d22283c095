import Foundation
import RovenueFallback
import Testing

@testable import FallbackHistory
import FallbackHistoryTestSupport
import FallbackTestSupport

/// The fold takes an entry's fingerprint from the snapshot before when the entry's bytes are the
/// same there under the same key; every fingerprint must still be the one hashing gives.
@Suite("History: fingerprints of unchanged entries are reused, never wrongly")
struct FingerprintReuseTests {
    static let a = paywallEntry("a")
    static let b = paywallEntry("b", paywall: "pb")
    static let bSpaced = #""b" : { "placement" : {"identifier":"b","revision":1} , "paywall" : "# + Snap.paywall("pb") + " }"
    static let c = paywallEntry("c")
    static let cOther = paywallEntry("c", paywall: "other")
    static let aOther = paywallEntry("a", paywall: "other")
    /// `a`'s first bytes under another key.
    static let dAsA = paywallEntry("a").replacingOccurrences(of: #""a":"#, with: #""d":"#)

    static func at(_ day: Int, _ entries: [String]) -> String {
        Snap.file(entries.joined(separator: ","), generatedAt: String(1_764_000_000_000 + day * 86_400_000))
    }

    static let series = [
        at(1, [a, b, c]),
        at(2, [b, c, a]),  // moved: same bytes at other offsets
        at(3, [bSpaced, c, a]),  // b rewritten with spaces: other bytes, same content
        at(4, [bSpaced, cOther, a]),  // c changed
        #"{"formatVersion":2,"generatedAt":1764432000000,"placements":{}}"#,  // rejected: skipped over
        at(6, [bSpaced, cOther, aOther]),  // a changed; c's bytes are those of day 4's
        at(7, [b, c, aOther, dAsA]),  // d new, with bytes a key before had; b and c back
    ]

    /// The fingerprint hashing gives for `key` in `text`.
    static func digest(of key: String, in text: String) -> SHA256Digest? {
        let file = FallbackFile(bytes: Array(text.utf8))
        guard let record = file.entries.last(where: { $0.key == key }) else { return nil }
        return ContentFingerprint.digest(of: file.document.value(at: record.value.node), excluding: FallbackEntry.Field.placement)
    }

    @Test func everyRevisionHasTheFingerprintHashingGives() throws {
        let timeline = try timeline(Self.series)
        var checked = 0
        for history in timeline.placements {
            for revision in history.revisions {
                guard let fingerprint = revision.fingerprint else { continue }
                let text = Self.series[revision.firstSeen.index]
                #expect(fingerprint == Self.digest(of: history.key, in: text), "\(history.key) at \(revision.firstSeen.index)")
                checked += 1
            }
        }
        #expect(checked >= 7)
    }

    /// Moving an entry or respacing it is no change; the rejected snapshot is skipped over, so day
    /// 6 is compared with day 4; `b` back without spaces is still no change.
    @Test func contentChangesAreTheOnesHashingSees() throws {
        let timeline = try timeline(Self.series)
        let changes = timeline.snapshots.map { $0.changes.contentChanges.sorted() }
        #expect(changes == [[], [], [], ["c"], [], ["a"], ["c"]])
    }
}
