@testable import FallbackMustache
import Testing

/// `MustacheKeys`' probe table (one cell per key: its hash and slot packed in 64 bits) against a
/// dictionary of the same keys and values, where the table is hardest to get right: keys whose
/// hashes are equal in all 32 bits, tables of every size up to a few hundred keys (full runs of
/// cells that wrap around the end), and names that are absent.
struct KeyTableTests {
    /// Two different ASCII keys with the same hash, found by a birthday search over `k0`, `k1`, …
    /// (a collision of 32-bit hashes is expected within about 80,000 keys).
    static let collidingKeys: (String, String) = {
        var seen: [UInt32: String] = [:]
        var number = 0
        while true {
            let key = "k\(number)"
            let hash = MustacheKeys.hash(of: key).value
            if let earlier = seen[hash] { return (earlier, key) }
            seen[hash] = key
            number += 1
        }
    }()

    /// A record of `keys` (each key's value is its own name, some left out) and the dictionary it renders as.
    static func record(_ keys: [String], leavingOut: (Int) -> Bool = { _ in false }) -> (record: MustacheValue, dictionary: MustacheValue) {
        let values: [MustacheValue?] = keys.indices.map { leavingOut($0) ? nil : .string("value of \(keys[$0])") }
        let record = MustacheRecord(keys: MustacheKeys(keys), values: values)
        return (.record(record), .dictionary(record.dictionary))
    }

    /// Renders `{{name}}` for each name, through a record and a dictionary, and by subscript.
    static func expectSameLookups(_ keys: [String], names: [String], leavingOut: (Int) -> Bool = { _ in false }) throws {
        let (record, dictionary) = record(keys, leavingOut: leavingOut)
        let source = names.map { "[{{\($0)}}]" }.joined()
        let template = try MustacheTemplate(parsing: source)
        #expect(try template.render(record) == template.render(dictionary), "\(keys.count) keys")
        for name in names { #expect(record[name] == dictionary[name], "\(name) among \(keys.count) keys") }
    }

    @Test func keysWithTheSameHashAreToldApart() throws {
        let (first, second) = Self.collidingKeys
        #expect(first != second)
        #expect(MustacheKeys.hash(of: first).value == MustacheKeys.hash(of: second).value)
        // Either order, each with and without the other present, and a third key of the same hash absent.
        for keys in [[first, second], [second, first], [first, "other", second], [first], [second]] {
            try Self.expectSameLookups(keys, names: [first, second, "other", "absent"])
            try Self.expectSameLookups(keys, names: [first, second], leavingOut: { $0 == 0 })
        }
        // Nested: a section over the record, then the name again from inside.
        let (record, dictionary) = Self.record([first, second])
        let template = try MustacheTemplate(parsing: "{{#\(first)}}<{{\(second)}}>{{/\(first)}}{{^\(second)}}none{{/\(second)}}")
        #expect(try template.render(record) == template.render(dictionary))
    }

    /// Every table size from 0 to 300 keys: each key found, absent names not, keys left out passed over.
    @Test(arguments: [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64, 100, 127, 128, 129, 255, 256, 300])
    func everyKeyOfTablesOfManySizesIsFound(count: Int) throws {
        let keys = (0..<count).map { "key\($0 * 7919 % 1_000)_\($0)" }
        let absent = (0..<50).map { "absent\($0)" } + ["key", "Key0_0", "key0_00"]
        try Self.expectSameLookups(keys, names: keys + absent)
        try Self.expectSameLookups(keys, names: keys + absent, leavingOut: { $0 % 3 == 1 })
    }
}
