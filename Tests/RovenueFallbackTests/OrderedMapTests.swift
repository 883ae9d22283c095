import FallbackSample
@testable import RovenueFallback
import Testing

/// `OrderedMap` keeps each key's first position and last value, compared by UTF-8 bytes, whether
/// it scans its keys, indexes them once it outgrows a scan, or was given room in advance
/// (`reserveCapacity`, which `EntryDecoder.members` calls with the object's member count).
@Suite struct OrderedMapTests {
    /// The map a list of `(key, value)` pairs should give, worked out without `OrderedMap`.
    static func expected(_ pairs: [(String, Int)]) -> (keys: [String], values: [Int]) {
        var keys: [[UInt8]] = []
        var values: [Int] = []
        for (key, value) in pairs {
            if let index = keys.firstIndex(of: Array(key.utf8)) {
                values[index] = value
            } else {
                keys.append(Array(key.utf8))
                values.append(value)
            }
        }
        return (keys.map { String(decoding: $0, as: UTF8.self) }, values)
    }

    /// Sizes around the scan's limit of eight keys, key sets of every size with repeats, and
    /// keys that are canonically equivalent but not the same bytes (`é` composed and decomposed).
    @Test(arguments: [0, 1, 8, 9, 30, 500], [nil, 0, 4, 9, 2_000])
    func sameMapWithAndWithoutRoom(_ distinct: Int, _ reserved: Int?) {
        var generator = SplitMix64(seed: UInt64(distinct * 31 + (reserved ?? -1) + 1))
        let names = (0..<max(distinct, 1)).map { $0 % 3 == 0 ? "caf\u{E9}\($0)" : $0 % 3 == 1 ? "cafe\u{301}\($0 - 1)" : "k\($0)" }
        let pairs = (0..<(distinct * 3)).map { step in (names[Int(generator.next() % UInt64(names.count))], step) }
        var map = OrderedMap<Int>()
        if let reserved { map.reserveCapacity(reserved) }
        for (key, value) in pairs { map.set(value, for: key) }
        let (keys, values) = Self.expected(pairs)
        #expect(map.keys.map { Array($0.utf8) } == keys.map { Array($0.utf8) })
        #expect(map.values == values)
        for (key, value) in zip(keys, values) { #expect(map[key] == value, "\(key)") }
        #expect(map["absent"] == nil)
    }
}
