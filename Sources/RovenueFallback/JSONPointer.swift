/// An RFC 6901 JSON Pointer, held so that many pointers below one long key share that key's bytes.
///
/// A snapshot can give a placement (or a funnel's paywall) a key of a megabyte, and its entry
/// thousands of findings: as one `String` each, their pointers would spell the key once per
/// finding, and memory would grow as findings × key length. So a pointer is split, always at the
/// same places for the same text, into a head and a tail:
/// - the head is the pointer up to the end of its last *long* reference token (`longToken` bytes or
///   more, as escaped), or nothing when it has none; it is a chain of links, one a long token, each
///   holding its own bytes from the end of the link before it (`Head`), so a long key under another
///   long key holds only its own bytes and shares the outer one's;
/// - the tail is the rest: reference tokens of the schema (`/funnel/pages/3/title`) and short keys.
///
/// The links that `JSONDocument.PointerSpeller` spells for nodes under one long key are one shared
/// object, which also keeps the hash of the bytes up to its end: comparing and hashing such
/// pointers reads their tails. Pointers are compared by their bytes (`ExactKey`), never by
/// `String`'s canonical equivalence.
public struct JSONPointer: Hashable, Sendable, CustomStringConvertible {
    /// A reference token this many bytes long or longer (as escaped) ends a link of the head.
    public static let longToken = 128

    /// One link of a head: the bytes from the end of the link before it (its `parent`) to the
    /// end of a long token, with the length and a hash of all the bytes up to there.
    package final class Head: Sendable {
        /// The link before this one; nil for the first.
        package let parent: Head?
        /// This link's bytes: from the parent's end (the start, for the first) through its long token.
        package let segment: String
        /// The bytes of the whole head up to this link's end.
        package let utf8Count: Int
        /// A hash of the parent's hash and this link's bytes: the same for the same bytes, as the
        /// links split the same text alike.
        package let bytesHash: Int

        package init(parent: Head?, segment: String) {
            self.parent = parent
            self.segment = segment
            utf8Count = (parent?.utf8Count ?? 0) + segment.utf8.count
            var hasher = Hasher()
            hasher.combine(parent?.bytesHash ?? 0)
            hasher.combine(ExactKey(segment))
            bytesHash = hasher.finalize()
        }

        /// The whole head's text, every link's bytes in order: as long as the head.
        package var text: String {
            var links: [Head] = []
            var link: Head? = self
            while let current = link {
                links.append(current)
                link = current.parent
            }
            var text = ""
            text.reserveCapacity(utf8Count)
            for link in links.reversed() { text += link.segment }
            return text
        }

        /// True when `lhs` and `rhs` hold the same bytes, link by link; links that are one object
        /// are not read.
        static func same(_ lhs: Head?, _ rhs: Head?) -> Bool {
            var left = lhs
            var right = rhs
            while let leftLink = left, let rightLink = right {
                if leftLink === rightLink { return true }
                guard leftLink.bytesHash == rightLink.bytesHash, leftLink.utf8Count == rightLink.utf8Count,
                    ExactKey.same(leftLink.segment, rightLink.segment)
                else { return false }
                left = leftLink.parent
                right = rightLink.parent
            }
            return left == nil && right == nil
        }
    }

    /// The pointer up to the end of its last long token; nil when no token is long.
    package let head: Head?
    /// The rest of the pointer: all of it when `head` is nil.
    public let tail: String

    /// `head` then `tail`: `head`'s links must end at the pointer's long tokens, as `init(_:)` splits.
    package init(head: Head?, tail: String) {
        self.head = head
        self.tail = tail
    }

    /// The pointer `text` (`""` for the top level), split where every pointer of that text splits.
    public init(_ text: String) {
        var utf8 = text
        let ends = utf8.withUTF8 { Self.linkEnds(of: $0) }
        guard !ends.isEmpty else {
            head = nil
            tail = text
            return
        }
        let bytes = Array(text.utf8)
        var link: Head?
        var start = 0
        for end in ends {
            link = Head(parent: link, segment: String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        head = link
        tail = String(decoding: bytes[start...], as: UTF8.self)
    }

    /// Where the links of the pointer `bytes` end, in order: after each token of `longToken` bytes
    /// or more (a token ends at the next `/` or the end of the text; the text before the first
    /// `/` is a token too, though a pointer has none).
    static func linkEnds(of bytes: UnsafeBufferPointer<UInt8>) -> [Int] {
        var ends: [Int] = []
        var start = 0
        for offset in 0...bytes.count where offset == bytes.count || bytes[offset] == UInt8(ascii: "/") {
            if offset - start >= longToken { ends.append(offset) }
            start = offset + 1
        }
        return ends
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
    public var utf8Count: Int { (head?.utf8Count ?? 0) + tail.utf8.count }

    /// The pointer one step down, by the reference token `token` (escaped: `~0`, `~1`): a long
    /// token ends a new link of the head (the tail and the token), a short one goes on the tail.
    public func appending(escapedToken token: String) -> JSONPointer {
        if token.utf8.count >= Self.longToken { return JSONPointer(head: Head(parent: head, segment: tail + "/" + token), tail: "") }
        return JSONPointer(head: head, tail: tail + "/" + token)
    }

    /// The pointer one step up (`"/a/b"` → `"/a"`, `"/a"` → `""`); nil for the top level's.
    /// Within the tail it keeps the head; from a head's last link, the link before it and the
    /// short tokens that led to the long one.
    public var parent: JSONPointer? {
        if let slash = tail.utf8.lastIndex(of: UInt8(ascii: "/")) {
            return JSONPointer(head: head, tail: String(tail[..<slash]))
        }
        guard let head else { return nil }
        // The tail is empty here: a non-empty tail of a pointer with a head starts with "/".
        let segment = head.segment
        let before = segment.utf8.lastIndex(of: UInt8(ascii: "/")).map { String(segment[..<$0]) } ?? ""
        return JSONPointer(head: head.parent, tail: before)
    }

    /// The same bytes: heads split alike, so two equal pointers have equal links and tails.
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        ExactKey.same(lhs.tail, rhs.tail) && Head.same(lhs.head, rhs.head)
    }

    /// The head's hash, taken when its last link was made, and the tail's bytes.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(head?.bytesHash ?? 0)
        hasher.combine(ExactKey(tail))
    }
}
