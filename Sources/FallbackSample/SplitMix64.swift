/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fully specified generator, so a seed gives
/// the same stream on every platform and Swift version.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// A generator for one item of a stream, independent of the items before it.
    init(seed: UInt64, stream: Int) {
        var mixer = SplitMix64(seed: seed ^ (UInt64(truncatingIfNeeded: stream) &* 0xD1B5_4A32_D192_ED03))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (multiply-high reduction; the bias is negligible for small bounds).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// A value in `range`.
    mutating func within(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.count)
    }

    /// True with probability `perMille / 1000`.
    mutating func chance(perMille: Int) -> Bool {
        below(1000) < perMille
    }

    mutating func element<T>(of array: [T]) -> T {
        array[below(array.count)]
    }

    /// `count` characters from `[0-9A-Za-z]`.
    mutating func token(_ count: Int) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(count)
        for _ in 0..<count {
            bytes.append(SplitMix64.alphabet[below(SplitMix64.alphabet.count)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The elements of `array` in a random order (Fisher–Yates).
    mutating func shuffled<T>(_ array: [T]) -> [T] {
        var result = array
        var index = result.count - 1
        while index > 0 {
            result.swapAt(index, below(index + 1))
            index -= 1
        }
        return result
    }
}
