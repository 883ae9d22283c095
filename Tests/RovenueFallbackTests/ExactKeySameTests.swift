@testable import RovenueFallback
import Testing

/// `ExactKey.same` (and `ExactKey.sameBytes`, which it compares with) answers exactly what a
/// comparison of the two UTF-8 byte arrays answers: for small (inline) and large strings, strings
/// cut from longer ones, one byte changed anywhere, and canonically equivalent spellings.
@Suite struct ExactKeySameTests {
    static let texts: [String] = {
        var texts = ["", "a", "caf\u{E9}", "cafe\u{301}", "K", "\u{212A}", "🙂", "fnl_fitness", "a "]
        for length in [7, 8, 15, 16, 17, 31, 32, 33, 64, 100] {
            let base = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            texts.append(base)
            for position in [0, length / 2, length - 1] {
                var bytes = Array(base.utf8)
                bytes[position] ^= 0x01
                texts.append(String(decoding: bytes, as: UTF8.self))
            }
            // The same text as a slice of a longer one, made into its own string.
            let padded = "<<" + base + ">>"
            texts.append(String(padded.dropFirst(2).dropLast(2)))
        }
        return texts
    }()

    @Test func sameIsEqualityOfTheBytes() {
        for left in Self.texts {
            for right in Self.texts {
                #expect(ExactKey.same(left, right) == (Array(left.utf8) == Array(right.utf8)), "\(left) | \(right)")
            }
        }
    }

    /// `ExactKey.precedes` is the order of the byte arrays (a prefix first), not `String`'s `<`,
    /// which orders canonically equivalent spellings alike: for every pair of the texts above,
    /// small and large, and for texts whose order the two disagree on.
    @Test func precedesIsTheOrderOfTheBytes() {
        for left in Self.texts {
            for right in Self.texts {
                #expect(ExactKey.precedes(left, right) == Array(left.utf8).lexicographicallyPrecedes(Array(right.utf8)), "\(left) | \(right)")
            }
        }
        // "é" precomposed (C3 A9) sorts after "e" + U+0301 (65 CC 81) by bytes; the Kelvin sign
        // (E2 84 AA) after "K".
        #expect(ExactKey.precedes("cafe\u{301}", "caf\u{E9}"))
        #expect(!ExactKey.precedes("caf\u{E9}", "cafe\u{301}"))
        #expect(ExactKey.precedes("K", "\u{212A}"))
        #expect(ExactKey.precedes("", "a") && !ExactKey.precedes("a", "") && !ExactKey.precedes("", ""))
    }

    @Test func emptyAndUnequalLengthBuffers() {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        #expect(ExactKey.sameBytes(empty, empty))
        [UInt8]([1, 2, 3]).withUnsafeBufferPointer { three in
            #expect(!ExactKey.sameBytes(empty, three))
            #expect(ExactKey.sameBytes(three, three))
            #expect(!ExactKey.sameBytes(UnsafeBufferPointer(rebasing: three[0..<2]), UnsafeBufferPointer(rebasing: three[1..<3])))
        }
    }
}
