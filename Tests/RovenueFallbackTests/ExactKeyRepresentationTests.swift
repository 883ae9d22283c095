import Foundation
@testable import RovenueFallback
import Testing

/// `ExactKey.same` accepts one string value at once by its representation
/// (`ExactKey.sameRepresentation`); that shortcut must never call different bytes the same, and
/// strings of the same bytes made apart must still compare the same through the bytes.
@Suite struct ExactKeyRepresentationTests {
    static let long = "a text well past the fifteen bytes kept inline"

    /// Pairs made in different ways: copies of one value, the same bytes made twice (inline and
    /// allocated), canonically equivalent but different bytes, one byte changed, a prefix.
    static let pairs: [(String, String)] = {
        let copy = long
        let madeAgain = String(decoding: Array(long.utf8), as: UTF8.self)
        var changed = Array(long.utf8)
        changed[20] ^= 1
        return [
            (long, copy), (long, madeAgain), ("en", String(decoding: Array("en".utf8), as: UTF8.self)),
            ("caf\u{E9}", "cafe\u{301}"), ("K", "\u{212A}"), (long, String(decoding: changed, as: UTF8.self)),
            (long, String(long.dropLast())), ("", ""), ("", "a"), ("fifteen bytes!!", "fifteen bytes!?"),
            (String(long.prefix(16)), "a text well past"),
        ]
    }()

    @Test(arguments: 0..<pairs.count)
    func sameIsEqualityOfTheBytes(_ which: Int) {
        let (left, right) = Self.pairs[which]
        let sameBytes = Array(left.utf8) == Array(right.utf8)
        #expect(ExactKey.same(left, right) == sameBytes)
        #expect(ExactKey.same(right, left) == sameBytes)
        if ExactKey.sameRepresentation(left, right) { #expect(sameBytes) }
    }

    /// Copies of one allocated string, and inline strings of the same bytes, take the shortcut.
    @Test func copiesOfOneStringTakeTheShortcut() {
        let copy = Self.long
        #expect(ExactKey.sameRepresentation(Self.long, copy))
        #expect(ExactKey.sameRepresentation("en", String(decoding: Array("en".utf8), as: UTF8.self)))
        #expect(!ExactKey.sameRepresentation(Self.long, String(decoding: Array(Self.long.utf8), as: UTF8.self)))
    }
}
