import RovenueFallback
import Testing

/// "Same content" has one definition, `JSONDocument.Value.hasSameContent(as:)`: the same canonical
/// text (`jsonText(.canonical)`), which is what the history's content fingerprint hashes and what
/// the diff calls no change.
@Suite("Same content is the same canonical text")
struct SameContentTests {
    static let pairs: [(String, String, same: Bool)] = [
        ("0", "-0", false), ("-0", "-0.0", true), ("100", "1e2", false), ("1.0", "1.00", true), ("1", "1.0", false),
        ("18446744073709551616", "1.8446744073709552e19", true), ("0.00015", "0.00015000000000000001", true),
        ("0.00015", "0.00015000000000000002", false), ("[0]", "[-0]", false), (#"{"a":0.5}"#, #"{"a":5e-1}"#, true),
        (#"{"a":1,"b":2}"#, #"{ "b" : 2 , "a" : 1 }"#, true), (#"{"a":1,"a":2}"#, #"{"a":2}"#, true),
        (#"{"a":1,"a":2}"#, #"{"a":1}"#, false), (#"{"a":1}"#, #"{"a":1,"b":null}"#, false),
        (#""caf\u00e9""#, #""cafe\u0301""#, false), (#""K""#, #""\u212a""#, false), (#""\u0041""#, #""A""#, true),
        (#"{"caf\u00e9":1}"#, #"{"cafe\u0301":1}"#, false), ("[1,[2,[3]]]", "[1,[2,[3.0]]]", false),
        ("null", "false", false), ("true", "true", true), ("[]", "{}", false),
    ]

    @Test(arguments: pairs.indices)
    func sameContentIsTheSameCanonicalText(_ index: Int) {
        let (left, right, same) = Self.pairs[index]
        let one = JSONDocument(text: left).root
        let other = JSONDocument(text: right).root
        #expect(one.hasSameContent(as: other) == same)
        #expect(other.hasSameContent(as: one) == same)
        #expect(ExactKey.same(one.jsonText(.canonical), other.jsonText(.canonical)) == same)
    }

    /// Deep values compare without recursion.
    @Test func deepValuesCompare() {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let spelled = String(repeating: "[", count: depth) + "1.0e0" + String(repeating: "]", count: depth)
        #expect(!JSONDocument(text: text).root.hasSameContent(as: JSONDocument(text: spelled).root))
        #expect(JSONDocument(text: text).root.hasSameContent(as: JSONDocument(text: text).root))
    }
}
