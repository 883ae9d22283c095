import FallbackHistory
import FallbackTestSupport
import Foundation
import RovenueFallback

/// Snapshot texts held in memory, in source order.
public struct TextSnapshots: SnapshotSource {
    public let texts: [(name: String, text: String)]

    public init(_ texts: [(name: String, text: String)]) {
        self.texts = texts
    }

    /// Texts named `1.json`, `2.json`, … in the order given.
    public init(_ texts: [String]) {
        self.texts = texts.enumerated().map { ("\($0 + 1).json", $1) }
    }

    public func references() throws -> [SnapshotReference] {
        texts.enumerated().map { SnapshotReference(name: $1.name, location: String($0)) }
    }

    public func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        Array(texts[Int(reference.location)!].text.utf8)
    }
}

/// The timeline of snapshot texts in source order, checked at `testNow`.
public func timeline(_ texts: [String], staleAfterDays: Int = 90) throws -> Timeline {
    try SnapshotSeries(TextSnapshots(texts)).timeline(HistoryOptions(now: testNow, staleAfterDays: staleAfterDays))
}
