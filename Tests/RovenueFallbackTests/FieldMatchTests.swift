@testable import RovenueFallback
import Testing

/// The decoder matches an object's keys with a struct's field names (`EntryDecoder.fieldPosition`)
/// by packed words: exactly the names `FieldTable.bytes` holds, byte for byte, whatever the key's
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
}
