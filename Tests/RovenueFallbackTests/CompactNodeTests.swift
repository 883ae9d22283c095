@testable import RovenueFallback
import Testing

/// The document's 16-byte nodes (`JSONDocument.PackedNode`): every value packed reads back, at the
/// limits of its field, and a parse reads the same parent, `next`, count, ordinal, kind and flags as
/// an independent recursive reading of the same text.
@Suite struct CompactNodeTests {
    typealias PackedNode = JSONDocument.PackedNode

    @Test func aStoredNodeTakesSixteenBytes() {
        #expect(MemoryLayout<PackedNode>.stride == 16)
    }

    // MARK: Packing

    /// Every flag each kind keeps, alone and together.
    static let kindsAndFlags: [(JSONDocument.Kind, UInt8)] = {
        var cases: [(JSONDocument.Kind, UInt8)] = [(.null, 0), (.true, 0), (.false, 0)]
        for flags in [0, JSONDocument.hasEscapes, JSONDocument.isKey, JSONDocument.hasLoneSurrogate] {
            cases.append((.string, flags))
        }
        cases.append((.string, JSONDocument.hasEscapes | JSONDocument.isKey | JSONDocument.hasLoneSurrogate))
        cases.append((.string, JSONDocument.hasEscapes | JSONDocument.hasLoneSurrogate))
        for flags in [0, JSONDocument.integerToken, JSONDocument.overflows, JSONDocument.integerToken | JSONDocument.overflows] {
            cases.append((.number, flags))
        }
        for kind in [JSONDocument.Kind.array, .object] {
            cases.append((kind, 0))
            cases.append((kind, JSONDocument.incomplete))
        }
        return cases
    }()

    /// Offsets and indexes at 0, 1, and the largest a text of `Int32.max` bytes can hold.
    static let offsets = [0, 1, 0x3FFF_FFFF, 0x4000_0000, Int(Int32.max) - 1, Int(Int32.max)]
    static let numbers = [0, 1, 0x1FFF_FFFF, 0x3FFF_FFFF]

    @Test(arguments: 0..<kindsAndFlags.count) func everyKindAndFlagReadsBackAtEveryLimit(_ which: Int) {
        let (kind, flags) = Self.kindsAndFlags[which]
        for start in Self.offsets {
            for end in Self.offsets {
                for link in Self.offsets {
                    for number in Self.numbers {
                        let node = PackedNode(kind: kind, flags: flags, start: start, end: end, link: link, number: number)
                        #expect(node.kind == kind)
                        #expect(node.flags == flags)
                        #expect(Int(node.start) == start)
                        #expect(Int(node.end) == end)
                        #expect(Int(node.link) == link)
                        #expect(Int(node.number) == number)
                    }
                }
            }
        }
    }

    @Test(arguments: 0..<kindsAndFlags.count) func settingAFieldKeepsTheOthers(_ which: Int) {
        let (kind, flags) = Self.kindsAndFlags[which]
        var node = PackedNode(kind: kind, flags: flags, start: Int(Int32.max) - 1, end: 5, link: 7, number: 9)
        node.setEnd(Int(Int32.max))
        node.setLink(Int(Int32.max))
        node.setNumber(0x3FFF_FFFF)
        #expect(node.kind == kind)
        #expect(node.flags == flags)
        #expect(node.start == UInt32(Int32.max) - 1)
        #expect(node.end == UInt32(Int32.max))
        #expect(node.link == UInt32(Int32.max))
        #expect(node.number == 0x3FFF_FFFF)
        node.setEnd(0)
        node.setLink(0)
        node.setNumber(0)
        #expect(node.kind == kind && node.flags == flags && node.end == 0 && node.link == 0 && node.number == 0)
    }

    @Test func incompleteAndOverflowAreSetInPlace() {
        var container = PackedNode(kind: .object, flags: 0, start: 3, end: 4, link: 1, number: 0)
        container.setFlagA()
        #expect(container.flags == JSONDocument.incomplete && container.kind == .object)
        var number = PackedNode(kind: .number, flags: 0, start: 3, end: 9, link: 1, number: 2)
        number.setFlagB()
        #expect(number.flags == JSONDocument.overflows && number.kind == .number && number.number == 2)
    }

    // MARK: Against a recursive reading

    /// What every node should read, found by a plain recursive descent over valid JSON.
    struct Expected: Equatable, CustomStringConvertible {
        var kind: JSONDocument.Kind
        var flags: UInt8
        var start: Int
        var end: Int
        var parent: Int
        var next: Int
        var count: Int
        var ordinal: Int
        var description: String { "\(kind) \(flags) \(start)..<\(end) parent \(parent) next \(next) count \(count) ordinal \(ordinal)" }
    }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var nodes: [Expected] = []

        mutating func skipSpace() {
            while offset < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[offset]) { offset += 1 }
        }

        mutating func value(parent: Int, ordinal: Int, isKey: Bool = false) {
            skipSpace()
            let index = nodes.count
            let start = offset
            nodes.append(Expected(kind: .null, flags: 0, start: start, end: start, parent: parent, next: index + 1, count: 0, ordinal: ordinal))
            switch bytes[offset] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let isObject = bytes[offset] == UInt8(ascii: "{")
                nodes[index].kind = isObject ? .object : .array
                offset += 1
                skipSpace()
                var count = 0
                while bytes[offset] != (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    if count > 0 {
                        offset += 1  // the comma
                    }
                    if isObject {
                        value(parent: index, ordinal: count, isKey: true)
                        skipSpace()
                        offset += 1  // the colon
                    }
                    value(parent: index, ordinal: count)
                    skipSpace()
                    count += 1
                }
                offset += 1
                nodes[index].count = count
                nodes[index].next = nodes.count
            case UInt8(ascii: "\""):
                nodes[index].kind = .string
                offset += 1
                var escaped = false
                while bytes[offset] != UInt8(ascii: "\"") {
                    if bytes[offset] == UInt8(ascii: "\\") {
                        escaped = true
                        offset += 1
                    }
                    offset += 1
                }
                offset += 1
                nodes[index].flags = (escaped ? JSONDocument.hasEscapes : 0) | (isKey ? JSONDocument.isKey : 0)
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                let word: (JSONDocument.Kind, Int) = switch bytes[offset] {
                case UInt8(ascii: "t"): (.true, 4)
                case UInt8(ascii: "f"): (.false, 5)
                default: (.null, 4)
                }
                nodes[index].kind = word.0
                offset += word.1
            default:
                nodes[index].kind = .number
                var isInteger = true
                while offset < bytes.count, Array("+-0123456789.eE".utf8).contains(bytes[offset]) {
                    if [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[offset]) { isInteger = false }
                    offset += 1
                }
                nodes[index].flags = isInteger ? JSONDocument.integerToken : 0
            }
            nodes[index].end = offset
        }
    }

    static func expectSameAsRecursiveReading(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(text.utf8)
        var reader = Reader(bytes: bytes)
        reader.value(parent: -1, ordinal: 0)
        let document = JSONDocument(bytes: bytes)
        #expect(document.syntaxError == nil, sourceLocation: sourceLocation)
        #expect(document.nodes.count == reader.nodes.count, sourceLocation: sourceLocation)
        for (index, node) in zip(document.nodes.indices, document.nodes) {
            let read = Expected(
                kind: node.kind, flags: node.flags, start: Int(node.start), end: Int(node.end), parent: Int(document.nodes.parent(of: index)), next: Int(node.next),
                count: Int(node.count), ordinal: Int(document.nodes.ordinal(of: index)))
            guard read == reader.nodes[index] else {
                Issue.record("node \(index): \(read), expected \(reader.nodes[index])", sourceLocation: sourceLocation)
                return
            }
        }
    }

    @Test(arguments: [
        "0", "-1.5e3", "\"a\\nb\"", "true", "[]", "{}", "[1, [2, [3, {}]], {\"a\": [true, false, null]}, \"x\"]",
        "{\"a\\u0041\": {\"b\": [1, {\"c\": 2}], \"d\": 3}, \"e\": [[], [[]], {\"f\": {}}], \"a\": 0}",
        " [ 1 , \"two\" , { \"three\" : 3.0 } , [ 4e1 ] ] ",
    ])
    func nodesReadAsARecursiveReadingOfTheText(_ text: String) {
        Self.expectSameAsRecursiveReading(text)
    }

    @Test func deepNestingOfArraysAndObjects() {
        let depth = 2_000
        var text = ""
        for level in 0..<depth { text += level % 2 == 0 ? "[0, " : "{\"k\": 1, \"v\": " }
        text += "\"leaf\""
        for level in (0..<depth).reversed() { text += level % 2 == 0 ? ", 2]" : "}" }
        Self.expectSameAsRecursiveReading(text)
    }

    @Test func manyMembersAndElementsBesideContainers() {
        var members: [String] = []
        for index in 0..<20_000 {
            members.append(index % 7 == 0 ? "\"k\(index)\": [\(index), {}]" : "\"k\(index)\": \(index)")
        }
        let object = "{" + members.joined(separator: ",") + "}"
        Self.expectSameAsRecursiveReading("[" + object + ", " + (0..<20_000).map { $0 % 5 == 0 ? "[\($0)]" : "\($0)" }.joined(separator: ",") + "]")
    }

    @Test func aContainersParentAndOrdinalComeFromBesideTheNodes() throws {
        let document = JSONDocument(text: #"[0, {"a": [1, [2, {"b": []}]]}, [[]]]"#)
        let inner = try #require(document.root.elements[1]["a"]?.elements[1].elements[1]["b"])
        #expect(inner.pointer == "/1/a/1/1/b")
        var chain: [JSONDocument.Kind] = []
        var current: JSONDocument.Value? = inner
        while let value = current {
            chain.append(value.kind)
            current = value.parent
        }
        #expect(chain == [.array, .object, .array, .array, .object, .array])
        #expect(document.nodes.ordinal(of: document.root.elements[2].index) == 2)
        #expect(document.nodes.parent(of: document.root.elements[2].elements[0].index) == Int32(document.root.elements[2].index))
    }

    @Test func containersLeftOpenReadIncompleteWithWhatTheyHeld() {
        let document = JSONDocument(text: #"{"a": [1, 2, {"b": "#)
        #expect(document.syntaxError != nil)
        let open = document.nodes.filter { $0.kind == .array || $0.kind == .object }
        #expect(open.map(\.count) == [1, 3, 1])
        #expect(open.allSatisfy { $0.flags == JSONDocument.incomplete && Int($0.next) == document.nodes.count })
        #expect(!document.root.isComplete)
    }

    @Test func overflowingNumbersAndLoneSurrogatesKeepTheirFlags() {
        let document = JSONDocument(bytes: Array(#"[1e999, "\udc00", 12]"#.utf8), acceptingLoneSurrogates: true)
        #expect(document.nodes[1].flags == JSONDocument.overflows)
        #expect(document.nodes[2].flags == JSONDocument.hasEscapes | JSONDocument.hasLoneSurrogate)
        #expect(document.nodes[3].flags == JSONDocument.integerToken)
        #expect(document.overflowingNumbers == [1])
    }
}
