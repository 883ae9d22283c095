import Foundation
@testable import FallbackSample
@testable import RovenueFallback
import Testing

/// The decoder matches an object's keys with a struct's field names (`EntryDecoder.fieldPosition`)
/// by a perfect hash and packed words (`FieldTable.position(ofKeyAt:count:in:)`): exactly the names `FieldTable.bytes` holds, byte for byte, whatever the key's
/// length (around the 8- and 16-byte words) and wherever it sits (a key too near the end of the
/// text to load a whole word).
@Suite struct FieldMatchTests {
    static let tables: [FieldTable] = [
        .entry, .placement, .experiment, .variant, .paywall, .remoteConfig, .offering, .package, .storeIds, .funnel,
        .page, .option, .nextRule, .condition, .clause,
    ]

    /// What the decoder answers for `key` (written as JSON text, escapes allowed) against `table`:
    /// once with the key at the end of the text, once with room after it.
    static func positions(ofKey key: String, in table: FieldTable) -> [Int?] {
        ["{\"\(key)\":0}", "{\"\(key)\":0,\"padding\":\"\(String(repeating: "x", count: 40))\"}"].map { text in
            let document = JSONDocument(bytes: Array(text.utf8))
            return EntryDecoder(document: document).fieldPosition(key: 1, table: table)
        }
    }

    /// A plain key's field: the first name with exactly its bytes.
    static func reference(_ key: String, _ table: FieldTable) -> Int? {
        table.bytes.firstIndex(of: Array(key.utf8))
    }

    @Test(arguments: 0..<tables.count) func everyNameFindsItsField(_ which: Int) {
        let table = Self.tables[which]
        for (position, name) in table.names.enumerated() {
            #expect(Self.positions(ofKey: name, in: table) == [position, position], "\(name)")
        }
    }

    /// Each name with one byte changed, cut short, lengthened, or in another case is another key.
    @Test(arguments: 0..<tables.count) func nearMissesMatchOnlyWhatTheySpell(_ which: Int) {
        let table = Self.tables[which]
        for name in table.names {
            var keys = [String(name.dropLast()), name + "x", name + "\u{e9}", name.uppercased(), "x" + name]
            let bytes = Array(name.utf8)
            for offset in bytes.indices {
                var changed = bytes
                changed[offset] ^= 0x01
                keys.append(String(decoding: changed, as: UTF8.self))
            }
            for key in keys where !key.contains("\"") && !key.contains("\\") {
                let expected = Self.reference(key, table)
                #expect(Self.positions(ofKey: key, in: table) == [expected, expected], "\(key)")
            }
        }
    }

    /// Keys of every length up to 24 bytes, so each word boundary is crossed; none is a field name
    /// unless it spells one.
    @Test func keysOfEveryLength() {
        for length in 0...24 {
            let key = String((0..<length).map { Character(UnicodeScalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
            for table in Self.tables {
                let expected = Self.reference(key, table)
                #expect(Self.positions(ofKey: key, in: table) == [expected, expected], "\(length)")
            }
        }
    }

    /// An escaped key is decoded first, then matched.
    @Test func anEscapedKeyMatchesTheNameItDecodesTo() {
        #expect(Self.positions(ofKey: #"\u0069d"#, in: .page) == [0, 0])
        #expect(Self.positions(ofKey: #"configFormat\u0056ersion"#, in: .paywall) == [3, 3])
        #expect(Self.positions(ofKey: #"i\u0064x"#, in: .page) == [nil, nil])
    }

    /// A name longer than 16 bytes is compared past its words too.
    @Test func aLongNameDifferingOnlyPastSixteenBytesIsNoMatch() {
        #expect(Self.positions(ofKey: "configFormatVersion", in: .paywall) == [3, 3])
        #expect(Self.positions(ofKey: "configFormatVersiom", in: .paywall) == [nil, nil])
        #expect(Self.positions(ofKey: "configFormatVersIon", in: .paywall) == [nil, nil])
    }
    /// The hash gives every name a slot of its own, and that slot holds the name.
    @Test(arguments: 0..<tables.count) func theHashGivesEachNameItsOwnSlot(_ which: Int) {
        let table = Self.tables[which]
        #expect(table.slots.filter { $0.length >= 0 }.count == table.names.count)
        for (position, packed) in table.packedNames.enumerated() {
            let length = table.bytes[position].count
            let slot = table.slots[FieldTable.slot(length: length, packed: packed, multiplier: table.multiplier, shift: table.shift)]
            #expect(slot.field == position && slot.length == length && slot.low == packed.low && slot.high == packed.high, "\(table.names[position])")
        }
    }

    /// Every key of `document`, against every table: the field the byte-for-byte reference finds.
    static func expectEveryKeyMatchesAsTheReference(_ document: JSONDocument, _ name: String) {
        let decoder = EntryDecoder(document: document)
        let nodes = document.storage.nodes
        for index in nodes.indices where nodes[index].kind == .string && nodes[index].flags & JSONDocument.isKey != 0 {
            let key = Array(document.decodeString(at: index).utf8)
            for table in tables {
                let expected = table.bytes.firstIndex(of: key)
                let found = decoder.fieldPosition(key: index, table: table)
                guard found == expected else {
                    Issue.record("\(name), key node \(index) \(String(decoding: key, as: UTF8.self).debugDescription): \(String(describing: found)), expected \(String(describing: expected))")
                    return
                }
            }
        }
    }

    /// Every key of every corpus file (fixtures, goldens, the fuzz corpus and regressions, Examples).
    @Test(arguments: StageTwoParserTests.files) func everyKeyOfAFileMatchesAsTheReference(_ path: String) throws {
        let document = JSONDocument(bytes: try StructuralIndexTests.bytes(ofFile: path))
        guard document.syntaxError == nil else { return }
        Self.expectEveryKeyMatchesAsTheReference(document, path)
    }

    @Test func everyKeyOfASampleExportMatchesAsTheReference() {
        Self.expectEveryKeyMatchesAsTheReference(JSONDocument(text: SampleExport(placementCount: 40, seed: 5).jsonText()), "sample export")
    }

    /// Hostile keys: each name with one to three bytes replaced by random ones (same length, so most
    /// reach the compare of a name's slot), and random keys of every name length, against every
    /// table, in one document (keys at its end and inside it).
    @Test func mutatedAndRandomKeysMatchAsTheReference() {
        var generator = SplitMix64(seed: 10)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-é".utf8)
        var keys: [[UInt8]] = []
        for table in Self.tables {
            for name in table.bytes {
                for _ in 0..<40 {
                    var key = name
                    for _ in 0...Int.random(in: 0...2, using: &generator) {
                        key[Int.random(in: 0..<key.count, using: &generator)] = alphabet.randomElement(using: &generator)!
                    }
                    keys.append(key)
                    keys.append((0..<name.count).map { _ in alphabet.randomElement(using: &generator)! })
                }
            }
        }
        let valid = keys.filter { String(validating: $0, as: UTF8.self) != nil }
        let text = "{" + valid.enumerated().map { "\"\(String(decoding: $1, as: UTF8.self))\":\($0)" }.joined(separator: ",") + "}"
        let document = JSONDocument(text: text)
        #expect(document.syntaxError == nil)
        #expect(valid.count > 5_000)
        Self.expectEveryKeyMatchesAsTheReference(document, "mutated keys")
    }

    /// The slots `readMembers` (the packed nodes and the text, read directly) fills for every object
    /// of `document`, against every table, next to those of the plain loop through `Nodes`
    /// (`readMembersRecordingRepeats`): the same slots, and it gives up exactly on the objects
    /// where a known field repeats (the plain loop records those).
    static func expectMembersReadAsThePlainLoop(_ document: JSONDocument, _ name: String) {
        let nodes = document.storage.nodes
        var objects = 0
        for index in nodes.indices where nodes[index].kind == .object {
            objects += 1
            for table in tables {
                var fast = EntryDecoder.Slots.zero
                var plain = EntryDecoder.Slots.zero
                let count = Int(nodes[index].count)
                var decoder = EntryDecoder(document: document)
                let readOnce = withUnsafeMutableBytes(of: &fast) { decoder.readMembers(of: index, count: count, table: table, into: $0) }
                withUnsafeMutableBytes(of: &plain) { decoder.readMembersRecordingRepeats(of: index, table: table, into: $0) }
                #expect(readOnce == decoder.duplicateFields.isEmpty, "\(name), object \(index)")
                if readOnce {
                    #expect(fast == plain, "\(name), object \(index)")
                }
            }
        }
        #expect(objects > 0, "\(name)")
    }

    /// Hostile objects: every name written plainly, with an escape, cut short and lengthened, in
    /// another case, and with a byte changed (the same length and words, so most reach a name's
    /// slot); empty and long keys, non-ASCII keys; values of every kind, nested containers among
    /// them (the loop steps over their subtrees); and names repeated, once with `null`.
    @Test func theMembersLoopReadsAsThePlainLoop() {
        var generator = SplitMix64(seed: 12)
        var keys: [String] = ["", "\\u0069d", "pag\\u0065s", String(repeating: "k", count: 40), "caf\u{e9}", "\u{65e5}\u{672c}", "\\\"", "a\\nb", "configFormatVersiom", "configFormatVersion", "configFormatVersionX"]
        for table in Self.tables {
            for name in table.names {
                keys += [name, String(name.dropLast()), name + "x", name.uppercased()]
                var bytes = Array(name.utf8)
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 0x01
                keys.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        let values = ["null", "0", "-1.5e3", "true", "\"text\"", "\"\"", "{}", "[]", #"{"id":[1,{"a":null}],"type":"x"}"#, #"[[],{"k":{}}]"#]
        var objects: [String] = []
        for _ in 0..<300 {
            var members: [String] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                members.append("\"\(keys.randomElement(using: &generator)!)\":\(values.randomElement(using: &generator)!)")
            }
            if Bool.random(using: &generator), let repeated = members.randomElement(using: &generator) {
                let key = repeated.prefix { $0 != ":" }
                members.append("\(key):\(Bool.random(using: &generator) ? "null" : "1")")
            }
            objects.append("{" + members.joined(separator: ",") + "}")
        }
        let document = JSONDocument(text: "[" + objects.joined(separator: ",") + "]")
        #expect(document.syntaxError == nil)
        Self.expectMembersReadAsThePlainLoop(document, "hostile objects")
        // An object at the very end of the text, where fewer than 16 bytes follow its last key.
        Self.expectMembersReadAsThePlainLoop(JSONDocument(text: #"{"id":1,"type":null,"slug":2}"#), "object at the end")
    }

    @Test func theMembersLoopReadsASampleExportAsThePlainLoop() {
        Self.expectMembersReadAsThePlainLoop(JSONDocument(text: SampleExport(placementCount: 20, seed: 6).jsonText()), "sample export")
    }
}
