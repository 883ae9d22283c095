import RovenueFallback

/// Snapshot text that the machine reports (`check --format json` and `sarif`, `diff` and
/// `history --format json`) repeat in every finding or change: a placement key, an id, a JSON
/// pointer.
///
/// Each is written whole up to `wholeLimit` UTF-8 bytes (a pointer up to `wholePointerLimit`),
/// far past any real identifier (the audit's `identifier-invalid` flags keys over 160
/// characters). A longer one is written as its first and last `keptBytes` bytes around `…`: a
/// 100 KB placement key in each of 3,000 findings made a 1.2 GB report of a 776 KB file, work
/// and output that grow with the key's length times its findings. Both ends are kept, so two long
/// keys that share a beginning still read apart and a pointer keeps the path below the key. The
/// cut text is not marked beyond the `…`; `check`'s JSON lists a loaded or skipped entry's whole
/// key once, in `loaded` or `skipped`.
enum RepeatedText {
    /// The most UTF-8 bytes of a key or id written whole.
    static let wholeLimit = 1_024
    /// The most UTF-8 bytes of a JSON pointer written whole: room for a whole key and a path below it.
    static let wholePointerLimit = 2 * wholeLimit
    /// How many bytes of each end of a longer text are kept (fewer when a scalar would be split).
    static let keptBytes = 256

    /// `text` whole, or its two ends around `…` when it is longer than `wholeLimit` bytes. Reads no
    /// more than the two ends of a long text.
    static func shortened(_ text: String) -> String { shortened(text, over: wholeLimit) }

    /// `shortened(_:)` of an optional text.
    static func shortened(_ text: String?) -> String? { text.map { shortened($0) } }

    /// A JSON pointer's text, whole up to `wholePointerLimit` bytes, else its two ends around `…`.
    static func shortened(pointer: String) -> String { shortened(pointer, over: wholePointerLimit) }

    /// `shortened(pointer: pointer.string)`, read from the pointer's links and tail: a long
    /// pointer is never joined into one string (for a long key's findings that would spell the key
    /// once per finding again). Links are each a long token, so a pointer has few.
    static func shortened(pointer: JSONPointer) -> String {
        guard pointer.utf8Count > wholePointerLimit else { return pointer.string }
        var pieces = [pointer.tail]
        var link = pointer.head
        while let current = link {
            pieces.append(current.segment)
            link = current.parent
        }
        pieces.reverse()
        // A few bytes past each cut, to find a scalar boundary.
        let wanted = keptBytes + 4
        var head: [UInt8] = []
        for piece in pieces where head.count < wanted { head += piece.utf8.prefix(wanted - head.count) }
        var tail: [UInt8] = []
        for piece in pieces.reversed() where tail.count < wanted { tail = Array(piece.utf8.suffix(wanted - tail.count)) + tail }
        return joined(head: head, tail: tail)
    }

    private static func shortened(_ text: String, over limit: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        return joined(head: Array(utf8.prefix(keptBytes + 4)), tail: Array(utf8.suffix(keptBytes + 4)))
    }

    /// The first `keptBytes` of `head` and the last of `tail` (each fewer where a scalar would be
    /// split: a continuation byte, 10xxxxxx, never starts one) around `…`, byte for byte: a cut may
    /// fall inside a character, before a combining mark. `head` and `tail` hold more than
    /// `keptBytes` bytes of valid UTF-8 text, from its start and its end.
    private static func joined(head: [UInt8], tail: [UInt8]) -> String {
        var headEnd = keptBytes
        while headEnd > 0, head[headEnd] & 0xC0 == 0x80 { headEnd -= 1 }
        var tailStart = tail.count - keptBytes
        while tailStart < tail.count, tail[tailStart] & 0xC0 == 0x80 { tailStart += 1 }
        return String(decoding: head[..<headEnd], as: UTF8.self) + "…" + String(decoding: tail[tailStart...], as: UTF8.self)
    }
}
