/// Snapshot text that the machine reports (`check --format json` and `sarif`, `diff --format json`)
/// repeat in every finding or change: a placement key, an id, a JSON pointer.
///
/// Each is written whole up to `wholeLimit` UTF-8 bytes (a pointer up to `wholePointerLimit`), far past any real identifier (the audit's
/// `identifier-invalid` flags keys over 160 characters). A longer one is written as its first and
/// last `keptBytes` bytes around `…`: a 100 KB placement key in each of 3,000 findings made a
/// 1.2 GB report of a 776 KB file, work and output that grow with the key's length times its
/// findings. Both ends are kept, so two long keys that share a beginning still read apart and a
/// pointer keeps the path below the key. The whole key is still in the report once: in the file's
/// `loaded` or `skipped` list of `check`'s JSON.
enum RepeatedText {
    /// The most UTF-8 bytes of a key or id written whole.
    static let wholeLimit = 1_024
    /// The most UTF-8 bytes of a JSON pointer written whole: a whole key and a path below it.
    static let wholePointerLimit = 2 * wholeLimit
    /// How many bytes of each end of a longer text are kept (fewer when a scalar would be split).
    static let keptBytes = 256

    /// `text` whole, or its two ends around `…` when it is longer than `wholeLimit` bytes. Reads no
    /// more than the two ends of a long text.
    static func shortened(_ text: String) -> String { shortened(text, over: wholeLimit) }

    /// A JSON pointer, whole up to `wholePointerLimit` bytes, else its two ends around `…`.
    static func shortened(pointer: String) -> String { shortened(pointer, over: wholePointerLimit) }

    private static func shortened(_ text: String, over limit: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > limit else { return text }
        // Cut at scalar boundaries: a continuation byte (10xxxxxx) never starts a scalar.
        var headEnd = utf8.index(utf8.startIndex, offsetBy: keptBytes)
        while headEnd > utf8.startIndex, utf8[headEnd] & 0xC0 == 0x80 { utf8.formIndex(before: &headEnd) }
        var tailStart = utf8.index(utf8.endIndex, offsetBy: -keptBytes)
        while tailStart < utf8.endIndex, utf8[tailStart] & 0xC0 == 0x80 { utf8.formIndex(after: &tailStart) }
        // The two ends byte for byte: a cut may fall inside a character (before a combining mark).
        return String(decoding: utf8[..<headEnd], as: UTF8.self) + "…" + String(decoding: utf8[tailStart...], as: UTF8.self)
    }

    /// `shortened(_:)` of an optional text.
    static func shortened(_ text: String?) -> String? { text.map { shortened($0) } }
}
