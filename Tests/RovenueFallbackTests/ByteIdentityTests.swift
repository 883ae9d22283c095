import RovenueFallback
import Testing

/// The public values of `RovenueFallback` compare strings as the SDK does: by their UTF-8 bytes
/// (`ExactKey`), never by `String`'s `==`, which is canonical equivalence ("é" precomposed equals
/// "e" + U+0301, and the Kelvin sign U+212A equals "K").
@Suite("Values compare strings by their bytes")
struct ByteIdentityTests {
    /// Pairs of spellings `String`'s `==` calls equal and the SDK calls different.
    static let equivalentSpellings: [(String, String)] = [
        ("caf\u{E9}", "cafe\u{301}"),
        ("K", "\u{212A}"),
        ("\u{212B}", "\u{C5}"),
    ]

    @Test("Strings that are only canonically equivalent are different JSON values", arguments: equivalentSpellings.indices)
    func strings(_ index: Int) {
        let (left, right) = Self.equivalentSpellings[index]
        #expect(left == right, "the premise: String's == calls them equal")
        #expect(JSONValue.string(left) != JSONValue.string(right))
        #expect(Set([JSONValue.string(left), JSONValue.string(right)]).count == 2)
        #expect(JSONValue.array([.string(left)]) != JSONValue.array([.string(right)]))
        #expect(JSONValue.string(left) == JSONValue.string(String(left.unicodeScalars)))
    }

    @Test("Member keys that are only canonically equivalent make different objects", arguments: equivalentSpellings.indices)
    func memberKeys(_ index: Int) {
        let (left, right) = Self.equivalentSpellings[index]
        let one = JSONValue.object([.init(left, 1)])
        let other = JSONValue.object([.init(right, 1)])
        #expect(one != other)
        #expect(Set([one, other]).count == 2)
        #expect(one == JSONValue.object([.init(left, 1)]))
        #expect(one.hashValue == JSONValue.object([.init(left, 1)]).hashValue)
    }

    @Test("An ordered map keeps canonically equivalent keys apart", arguments: equivalentSpellings.indices)
    func orderedMapKeys(_ index: Int) {
        let (left, right) = Self.equivalentSpellings[index]
        var both = OrderedMap<Int>()
        both.set(1, for: left)
        both.set(2, for: right)
        #expect(both.count == 2)
        #expect(both[left] == 1 && both[right] == 2)
        var one = OrderedMap<Int>()
        one.set(1, for: left)
        var other = OrderedMap<Int>()
        other.set(1, for: right)
        #expect(one != other)
        #expect(Set([one, other]).count == 2)
    }

    /// A decoded snapshot whose values differ only by normalisation owns different values.
    @Test func decodedValuesKeepTheirBytes() throws {
        let text = #"{"formatVersion":1,"placements":{"a":{"placement":{"identifier":"caf\u00e9","revision":1}},"#
            + #""b":{"placement":{"identifier":"cafe\u0301","revision":1}}}}"#
        let document = JSONDocument(text: text)
        let placements = try #require(document.root["placements"])
        let first = try #require(placements["a"]?.owned)
        let second = try #require(placements["b"]?.owned)
        #expect(first != second)
    }
}
