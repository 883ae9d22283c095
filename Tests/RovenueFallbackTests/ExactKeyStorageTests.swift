import Testing
import RovenueFallback

/// `ExactKey` holds the string it was made from and compares and hashes its UTF-8 bytes.
@Suite("ExactKey keeps its string and compares bytes")
struct ExactKeyStorageTests {
    static let pairs: [(String, String, same: Bool)] = [
        ("caf\u{E9}", "cafe\u{301}", false),
        ("K", "\u{212A}", false),
        ("", "", true),
        ("fnl_fitness", "fnl_fitness", true),
        ("a", "a ", false),
    ]

    @Test("Equality and hashing follow the bytes", arguments: pairs.indices)
    func bytes(_ index: Int) {
        let (left, right, same) = Self.pairs[index]
        #expect((ExactKey(left) == ExactKey(right)) == same)
        #expect((Set([ExactKey(left), ExactKey(right)]).count == 1) == same)
        #expect(ExactKey(left).string.utf8.elementsEqual(left.utf8))
        #expect(Array(ExactKey(left).utf8) == Array(left.utf8))
    }

    /// A key cut from a longer string equals and hashes as the same text written alone.
    @Test func aKeyCutFromALongerStringHashesAsItsText() {
        let text = "prefix-caf\u{E9}-suffix"
        let middle = String(text.dropFirst(7).dropLast(7))
        #expect(ExactKey(middle) == ExactKey("caf\u{E9}"))
        #expect(ExactKey(middle).hashValue == ExactKey("caf\u{E9}").hashValue)
    }
}
