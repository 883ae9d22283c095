import RovenueFallback
import Testing

@testable import FallbackAudit

/// `Format.editDistance(_:_:bound:)` computes only the cells near the diagonal; whatever the texts,
/// it answers the whole table's distance when that is at most the bound, and `bound + 1` otherwise.
@Suite("the banded edit distance is the whole table's, up to its bound")
struct BandedDistanceTests {
    /// The whole optimal-string-alignment table, as the suggestion computed it before.
    static func wholeDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: rhs.count + 1), count: lhs.count + 1)
        for i in 0...lhs.count { table[i][0] = i }
        for j in 0...rhs.count { table[0][j] = j }
        for i in stride(from: 1, through: lhs.count, by: 1) {
            for j in stride(from: 1, through: rhs.count, by: 1) {
                let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[lhs.count][rhs.count]
    }

    /// Deterministic texts over a three-letter alphabet, so that near misses and transpositions abound.
    static func texts(count: Int, seed: UInt64) -> [[Unicode.Scalar]] {
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<count).map { _ in (0..<Int(next() % 9)).map { _ in Unicode.Scalar(UInt8(ascii: "a") + UInt8(next() % 3)) } }
    }

    @Test(arguments: 0...4)
    func agreesWithTheWholeTable(bound: Int) {
        let texts = Self.texts(count: 60, seed: UInt64(bound) + 7)
        var mismatches: [String] = []
        for lhs in texts {
            for rhs in texts {
                let expected = min(Self.wholeDistance(lhs, rhs), bound + 1)
                let found = Format.editDistance(lhs, rhs, bound: bound)
                if found != expected { mismatches.append("\(String(String.UnicodeScalarView(lhs))) / \(String(String.UnicodeScalarView(rhs))): \(found), not \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Long ids one transposition, one substitution or many edits apart.
    @Test func longTextsNearTheEndOrFarApart() {
        let base = Array(String(repeating: "x", count: 5_000).unicodeScalars)
        #expect(Format.editDistance(base + ["a", "b"], base + ["b", "a"], bound: 3) == 1)
        #expect(Format.editDistance(base + ["a"], base + ["b"], bound: 3) == 1)
        #expect(Format.editDistance(["a", "b", "c", "d"] + base, base + ["a", "b", "c", "d"], bound: 3) == 4)
        #expect(Format.suggestion(for: String(repeating: "x", count: 5_000) + "ab", among: [String(repeating: "x", count: 5_000) + "ba"]) != nil)
    }

    /// Near misses of a few stems over scalars that share their first UTF-8 bytes (é, è, ê; two
    /// emoji), a combining mark (so characters and scalars count apart) and ASCII.
    static func multibyteTexts(count: Int, seed: UInt64) -> [String] {
        let alphabet: [String] = ["a", "b", "\u{E9}", "\u{E8}", "\u{EA}", "\u{301}", "\u{1F600}", "\u{1F601}"]
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let stems = (0..<6).map { _ in (0..<(next() % 12)).map { _ in alphabet[next() % alphabet.count] }.joined() }
        // Near misses of a few stems: a change at the start, the end or in the middle.
        return (0..<count).map { _ in
            var scalars = Array(stems[next() % stems.count].unicodeScalars)
            for _ in 0..<(next() % 3) {
                let position = scalars.isEmpty ? 0 : next() % (scalars.count + 1)
                switch next() % 3 {
                case 0: scalars.insert(alphabet[next() % alphabet.count].unicodeScalars.first!, at: position)
                case 1: if position < scalars.count { scalars.remove(at: position) }
                default: if position + 1 < scalars.count { scalars.swapAt(position, position + 1) }
                }
            }
            return String(String.UnicodeScalarView(scalars))
        }
    }

    /// The suggestion as it was made before: every candidate's characters counted, its scalars
    /// decoded and its whole table computed.
    static func referenceSuggestion(for text: String, among candidates: [String]) -> String? {
        let limit = min(3, text.count / 3)
        guard limit > 0, candidates.count <= Format.suggestionCandidateLimit else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where !ExactKey.same(candidate, text) && abs(candidate.count - text.count) <= limit {
            let distance = min(wholeDistance(Array(text.unicodeScalars), Array(candidate.unicodeScalars)), limit + 1)
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The suggestion picks the candidate it picked before, among near misses of each other.
    @Test(arguments: 0..<6)
    func suggestionsAreTheOnesMadeBefore(seed: UInt64) {
        let texts = Self.multibyteTexts(count: 60, seed: seed &* 97 &+ 5)
        let candidates = Array(texts.prefix(40))
        for text in texts {
            #expect(Format.suggestion(for: text, among: candidates) == Self.referenceSuggestion(for: text, among: candidates), "\(text.debugDescription)")
        }
    }
}
