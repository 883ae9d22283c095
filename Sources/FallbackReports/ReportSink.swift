/// Where a report's text goes as it is written: to a receiver in chunks of at most `chunkSize`
/// bytes, or gathered whole (`collecting()`).
///
/// A report over a 500 MB snapshot can run to hundreds of megabytes; written through a sink with
/// a receiver, it is never held whole: each chunk goes out as soon as it is full. A chunk ends at a
/// Unicode scalar's boundary, so each is valid UTF-8 text, and the chunks joined are exactly the
/// text written, whatever the size (a chunk is longer than `chunkSize` only when one scalar is:
/// with a size of 1, each scalar is a chunk).
///
/// ```swift
/// let sink = ReportSink(chunkSize: ReportSink.defaultChunkSize) { environment.writeOutput($0) }
/// report.write(as: .json, to: sink)
/// sink.finish()
/// ```
public final class ReportSink {
    /// 64 KiB: a few system calls per megabyte, small next to any input.
    public static let defaultChunkSize = 1 << 16

    /// The most bytes a chunk holds (at least one scalar).
    public let chunkSize: Int
    /// Receives each chunk; nil gathers the text for `text()`.
    private let receive: ((String) -> Void)?
    /// Written and not yet handed on: at most `chunkSize` bytes (or one scalar) between writes
    /// when there is a receiver, or everything when gathering.
    private var pending: [UInt8] = []

    /// A sink that hands `receive` each chunk of at most `chunkSize` bytes (at least 1).
    public init(chunkSize: Int = ReportSink.defaultChunkSize, receive: @escaping (String) -> Void) {
        precondition(chunkSize >= 1, "a chunk holds at least one byte")
        self.chunkSize = chunkSize
        self.receive = receive
    }

    private init(gatheringCapacity capacity: Int) {
        chunkSize = .max
        receive = nil
        pending.reserveCapacity(capacity)
    }

    /// A sink that gathers everything written, for `text()`; `capacity` is reserved up front
    /// (capacity never written costs no memory; a buffer that grows holds its text twice while it
    /// is copied).
    public static func collecting(reservingCapacity capacity: Int = 0) -> ReportSink {
        ReportSink(gatheringCapacity: capacity)
    }

    /// True for a sink that gathers the whole text (`collecting()`).
    var isGathering: Bool { receive == nil }

    /// Appends `text`.
    public func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        handOnFullChunks()
    }

    /// Appends UTF-8 `bytes`, leaving `bytes` empty with its capacity: a writer that gathers its
    /// own bytes hands them on this way (when nothing is pending, the buffers are swapped, not copied).
    func write(taking bytes: inout [UInt8]) {
        if pending.isEmpty {
            swap(&pending, &bytes)
        } else {
            pending.append(contentsOf: bytes)
        }
        bytes.removeAll(keepingCapacity: true)
        handOnFullChunks()
    }

    /// Hands `text` on when it has reached a chunk, leaving it empty with its capacity: a writer
    /// that builds its text in a `String` calls this between its parts, so it holds about a chunk.
    /// A gathering sink leaves `text` as it is, for the writer to hand on whole at its end.
    public func handOn(ifFull text: inout String) {
        guard text.utf8.count >= chunkSize else { return }
        write(text)
        text.removeAll(keepingCapacity: true)
    }

    /// What is pending, with its buffer's capacity, for a writer to go on appending to; the sink
    /// is empty after, until the writer hands the buffer back (`write(taking:)`).
    func takePending() -> [UInt8] {
        var taken: [UInt8] = []
        swap(&taken, &pending)
        return taken
    }

    /// Hands on what is pending, however little: the end of the report.
    public func finish() {
        guard let receive, !pending.isEmpty else { return }
        receive(String(decoding: pending, as: UTF8.self))
        pending.removeAll(keepingCapacity: true)
    }

    /// Everything written to a gathering sink, as text; the sink is empty after.
    public func text() -> String {
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    /// With a receiver, hands on every full chunk, each cut at the last scalar boundary at or
    /// before `chunkSize` bytes (after the first scalar, when that scalar alone is longer); the
    /// rest waits for more text or `finish()`.
    private func handOnFullChunks() {
        guard let receive, pending.count > chunkSize else { return }
        var start = 0
        // Only while a byte follows the cut, so that a cut is known to fall between scalars.
        while pending.count - start > chunkSize {
            var end = start + chunkSize
            // Back off to the start of the scalar the cut would split.
            while end > start, Self.isContinuation(pending[end]) { end -= 1 }
            if end == start {
                // One scalar longer than a chunk: it is the chunk, once it is whole.
                end = start + 1
                while end < pending.count, Self.isContinuation(pending[end]) { end += 1 }
                if end == pending.count { break }
            }
            receive(String(decoding: pending[start..<end], as: UTF8.self))
            start = end
        }
        pending.removeFirst(start)
    }

    /// A UTF-8 continuation byte, `10xxxxxx`: never the first byte of a scalar.
    private static func isContinuation(_ byte: UInt8) -> Bool {
        byte & 0xC0 == 0x80
    }
}
