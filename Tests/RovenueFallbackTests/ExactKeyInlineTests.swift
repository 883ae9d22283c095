@testable import RovenueFallback
import Testing

/// `ExactKey.same` tells two inline strings apart by their representations (`ExactKey.bothInline`):
/// that must never call the same bytes different, whether each string is inline or allocated,
/// made from a literal, decoded, appended to and shortened, ASCII or not, or empty.
@Suite struct ExactKeyInlineTests {
    /// A string of `text`'s bytes kept in an allocation: shortened from a longer native string.
    static func allocated(_ text: String) -> String {
        var grown = text + String(repeating: "z", count: 40)
        grown.removeLast(40)
        return grown
    }

    /// A string of `text`'s bytes made inline another way: grown past its length, then shortened.
    static func reshaped(_ text: String) -> String {
        var reshaped = text + "x"
        reshaped.removeLast()
        return reshaped
    }

    static let texts = ["", "a", "pg_welcome", "pg_goal", "fifteen bytes!!", "é", "e\u{301}", "caf\u{E9}", "K", "\u{212A}", "😀"]

    @Test func sameIsEqualityOfTheBytesForEveryPairAndEveryMaking() {
        for left in Self.texts {
            for right in Self.texts {
                let sameBytes = Array(left.utf8) == Array(right.utf8)
                let lefts = [left, String(decoding: Array(left.utf8), as: UTF8.self), Self.reshaped(left), Self.allocated(left)]
                let rights = [right, String(decoding: Array(right.utf8), as: UTF8.self), Self.reshaped(right), Self.allocated(right)]
                for lhs in lefts {
                    for rhs in rights {
                        #expect(ExactKey.same(lhs, rhs) == sameBytes, "\(Array(lhs.utf8)) \(Array(rhs.utf8))")
                    }
                }
            }
        }
    }

    /// The shortcut is taken for inline strings only: an allocated string of the same short bytes
    /// is not inline, and a long string never is. (Elsewhere than 64-bit x86 and ARM, never.)
    @Test func inlineIsTheSmallRepresentation() {
        #if (arch(x86_64) || arch(arm64)) && _endian(little)
            #expect(ExactKey.bothInline("pg_goal", String(decoding: Array("pg_welcome".utf8), as: UTF8.self)))
            #expect(ExactKey.bothInline("", "é"))
        #endif
        #expect(!ExactKey.bothInline("pg_goal", Self.allocated("pg_goal")))
        #expect(!ExactKey.bothInline(String(repeating: "x", count: 16), String(repeating: "y", count: 16)))
    }
}
