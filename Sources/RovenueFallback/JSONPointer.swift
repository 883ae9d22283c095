/// An RFC 6901 JSON Pointer, held so that many pointers below one long key share that key's bytes.
///
/// A snapshot can give a placement (or a funnel's paywall) a key of a megabyte, and its entry
/// thousands of findings: as one `String` each, their pointers would spell the key once per
/// finding, and memory would grow as findings × key length. So a pointer is split, always at the
/// same place for the same text, into a head and a tail:
/// - the head is the pointer up to the end of its last *long* reference token (`longToken` bytes or
///   more, as escaped), or nothing when it has none;
/// - the tail is the rest: reference tokens of the schema (`/funnel/pages/3/title`) and short keys.
///
/// The heads that `JSONDocument.PointerSpeller` spells for nodes under one long key are one shared
/// object, which also keeps its bytes' hash: comparing and hashing such pointers reads their tails.
/// Pointers are compared by their bytes (`ExactKey`), never by `String`'s canonical equivalence.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// A reference token this many bytes long or longer (as escaped) ends a head.
    public static let longToken = 128

    /// A head: its text, and the hash of its bytes, taken once.
    package final class Head: Sendable {
        package let text: String
        package let bytesHash: Int

        init(_ text: String) {
            self.text = text
            var hasher = Hasher()
            hasher.combine(ExactKey(text))
            bytesHash = hasher.finalize()
        }
    }

    /// The pointer up to the end of its last long token; nil when no token is long.
    package let head: Head?
    /// The rest of the pointer: all of it when `head` is nil.
    public let tail: String

    /// `head` then `tail`: `head` must end at the pointer's last long token, as `init(_:)` splits.
    package init(head: Head?, tail: String) {
        self.head = head
        self.tail = tail
    }

    /// The pointer `text` (`""` for the top level), split where every pointer of that text splits.
    public init(_ text: String) {
        var utf8 = text
        let split = utf8.withUTF8 { Self.headEnd(of: $0) }
        if split == 0 {
            head = nil
            tail = text
        } else {
            let bytes = Array(text.utf8)
            head = Head(String(decoding: bytes[..<split], as: UTF8.self))
            tail = String(decoding: bytes[split...], as: UTF8.self)
        }
    }

    /// Where the head of the pointer `bytes` ends: after its last token of `longToken` bytes or
    /// more (the token's end is the next `/` or the end of the text); 0 when it has none.
    static func headEnd(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = bytes.count
        var offset = bytes.count
        while offset > 0 {
            offset -= 1
            guard bytes[offset] == UInt8(ascii: "/") else { continue }
            if end - offset - 1 >= longToken { return end }
            end = offset
        }
        // The text before the first "/" (a pointer has none, but any text splits the same way).
        return end >= longToken ? end : 0
    }

    /// The pointer's text.
    public var string: String {
        guard let head else { return tail }
        return head.text + tail
    }

    public var description: String { string }

    /// True for the top level's pointer, `""`.
    public var isEmpty: Bool { head == nil && tail.isEmpty }

    /// The pointer's length in UTF-8 bytes.
    public var utf8Count: Int { (head?.text.utf8.count ?? 0) + tail.utf8.count }

    /// Calls `body` with the pointer's bytes in order: the head's, then the tail's (either may be
    /// empty), without spelling them into one string.
    public func withUTF8Parts<Result>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result
    {
        var headText = head?.text ?? ""
        var tailText = tail
        return try headText.withUTF8 { headBytes in try tailText.withUTF8 { tailBytes in try body(headBytes, tailBytes) } }
    }

    /// The pointer one step down, by the reference token `token` (escaped: `~0`, `~1`): a long
    /// token makes a new head of the whole pointer, a short one goes on the tail.
    public func appending(escapedToken token: String) -> JSONPointer {
        if token.utf8.count >= Self.longToken { return JSONPointer(head: Head(string + "/" + token), tail: "") }
        return JSONPointer(head: head, tail: tail + "/" + token)
    }

    /// The pointer one step up (`"/a/b"` → `"/a"`, `"/a"` → `""`); nil for the top level's.
    /// Within the tail it keeps the head; above the head it spells a new one.
    public var parent: JSONPointer? {
        if let slash = tail.utf8.lastIndex(of: UInt8(ascii: "/")) {
            return JSONPointer(head: head, tail: String(tail[..<slash]))
        }
        guard let head else { return nil }
        // The tail is empty here: a non-empty tail of a pointer with a head starts with "/".
        guard let slash = head.text.utf8.lastIndex(of: UInt8(ascii: "/")) else { return JSONPointer("") }
        return JSONPointer(String(head.text[..<slash]))
    }

    /// The same bytes: heads split alike, so two equal pointers have equal heads and tails.
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        guard ExactKey.same(lhs.tail, rhs.tail) else { return false }
        switch (lhs.head, rhs.head) {
        case (nil, nil): return true
        case (let left?, let right?): return left === right || (left.bytesHash == right.bytesHash && ExactKey.same(left.text, right.text))
        default: return false
        }
    }

    /// The head's bytes hashed when it was made, the tail's here.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(head?.bytesHash ?? 0)
        hasher.combine(ExactKey(tail))
    }
}
