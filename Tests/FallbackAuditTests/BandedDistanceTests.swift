import RovenueFallback
import Testing

@testable import FallbackAudit

/// `Format.editDistance(_:_:bound:)` follows the furthest-reaching diagonals over UTF-8 bytes;
/// whatever the texts, it answers the whole table's distance when that is at most the bound, and
/// `bound + 1` otherwise, as the band it replaced did.
@Suite("the bounded edit distance is the whole table's, up to its bound")
struct BandedDistanceTests {
    /// The band of `2 × bound + 1` cells per row, as `Format.editDistance` computed it before the
    /// diagonals: the reference the diagonals must answer as.
    static func bandedEditDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar], bound: Int) -> Int {
        let far = bound + 1
        guard abs(lhs.count - rhs.count) <= bound else { return far }
        var beforePrevious = [Int](repeating: far, count: rhs.count + 1)
        var previous = [Int](repeating: far, count: rhs.count + 1)
        for j in 0...min(rhs.count, bound) { previous[j] = j }
        var current = beforePrevious
        var previousLeast = 0
        for i in stride(from: 1, through: lhs.count, by: 1) {
            let low = max(1, i - bound)
            let high = min(rhs.count, i + bound)
            current[0] = min(i, far)
            var least = current[0]
            if low > 1 { current[low - 1] = far }
            if high < rhs.count { current[high + 1] = far }
            if low <= high {
                for j in low...high {
                    let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                        current[j] = min(current[j], beforePrevious[j - 2] + 1)
                    }
                    least = min(least, current[j])
                }
            }
            if least > bound, previousLeast > bound { return far }
            previousLeast = least
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return min(previous[rhs.count], far)
    }

    static func text(_ scalars: [Unicode.Scalar]) -> String {
        String(String.UnicodeScalarView(scalars))
    }

    /// `Format.editDistance(_:_:bound:)` of two scalar arrays.
    static func distance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar], bound: Int) -> Int {
        Format.editDistance(text(lhs), text(rhs), bound: bound)
    }
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
                let found = Self.distance(lhs, rhs, bound: bound)
                if found != expected { mismatches.append("\(Self.text(lhs)) / \(Self.text(rhs)): \(found), not \(expected)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// Long ids one transposition, one substitution or many edits apart.
    @Test func longTextsNearTheEndOrFarApart() {
        let base = Array(String(repeating: "x", count: 5_000).unicodeScalars)
        #expect(Self.distance(base + ["a", "b"], base + ["b", "a"], bound: 3) == 1)
        #expect(Self.distance(base + ["a"], base + ["b"], bound: 3) == 1)
        #expect(Self.distance(["a", "b", "c", "d"] + base, base + ["a", "b", "c", "d"], bound: 3) == 4)
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

    /// Every text of at most `length` letters of `alphabet`, shortest first.
    static func allTexts(of alphabet: [Unicode.Scalar], upTo length: Int) -> [[Unicode.Scalar]] {
        var texts: [[Unicode.Scalar]] = [[]]
        var last: [[Unicode.Scalar]] = [[]]
        for _ in 0..<length {
            last = last.flatMap { text in alphabet.map { text + [$0] } }
            texts += last
        }
        return texts
    }

    /// Texts of up to `length` letters, every pair of which is compared. Letters listed in
    /// `interchangeable` have one UTF-8 length and differ only in a last byte no other letter has,
    /// so relabelling them among themselves relabels bytes one to one; the distance reads bytes
    /// only by equality and by a scalar's length, so it answers a relabelled pair as the pair.
    /// The left texts are then only those whose interchangeable letters first appear in the
    /// order listed: one of each relabelling, with every right text.
    struct ShortTexts: Sendable, CustomTestStringConvertible {
        let letters: [Unicode.Scalar]
        let length: Int
        let interchangeable: [Unicode.Scalar]

        var testDescription: String { "\(length) of \(String(String.UnicodeScalarView(letters)))" }

        /// How many interchangeable letters `text` holds once `letter` is added to it, when they
        /// first appear in order; nil otherwise.
        func seen(_ seen: Int, adding letter: Unicode.Scalar) -> Int? {
            guard let position = interchangeable.firstIndex(of: letter) else { return seen }
            return position <= seen ? max(seen, position + 1) : nil
        }
    }

    /// Every pair of texts of up to seven letters of three, and of up to five of four, at bounds 0
    /// to 3, against the whole table (grown a row per letter, depth first over the left texts).
    /// The letters are two UTF-8 bytes with the same first byte (é, è, ê), so that slides part
    /// inside a scalar, or of one, two and four bytes (a, é and two emoji sharing three).
    @Test(arguments: [
        ShortTexts(letters: ["\u{E9}", "\u{E8}", "\u{EA}"], length: 7, interchangeable: ["\u{E9}", "\u{E8}", "\u{EA}"]),
        ShortTexts(letters: ["a", "\u{E9}", "\u{1F600}", "\u{1F601}"], length: 5, interchangeable: ["\u{1F600}", "\u{1F601}"]),
    ])
    func agreesWithTheWholeTableOnEveryShortText(_ set: ShortTexts) {
        let texts = Self.allTexts(of: set.letters, upTo: set.length)
        let leftTexts = texts.filter { $0.reduce(0 as Int?) { seen, letter in seen.flatMap { set.seen($0, adding: letter) } } != nil }
        let letterBytes = set.letters.map { Array(String($0).utf8) }
        var compared = 0
        var mismatches: [String] = []
        for rhs in texts {
            let columns = rhs.count + 1
            Array(Self.text(rhs).utf8).withUnsafeBufferPointer { rhsBytes in
                // lhs as letter numbers, its UTF-8, and the whole table's rows for it and its prefixes.
                var lhs: [Int] = []
                var lhsUTF8: [UInt8] = []
                var table = [Int](repeating: 0, count: (set.length + 1) * columns)
                for j in 0..<columns { table[j] = j }
                func visit(seen: Int) {
                    let i = lhs.count
                    lhsUTF8.withUnsafeBufferPointer { lhsBytes in
                        for bound in 0...3 {
                            let expected = min(table[i * columns + rhs.count], bound + 1)
                            let found = Format.editDistance(lhsBytes, scalars: i, rhsBytes, scalars: rhs.count, bound: bound)
                            if found != expected, mismatches.count < 5 {
                                let text = Self.text(lhs.map { set.letters[$0] })
                                mismatches.append("\(text) / \(Self.text(rhs)) at \(bound): \(found), not \(expected)")
                            }
                        }
                    }
                    compared += 1
                    guard i < set.length else { return }
                    for (number, letter) in set.letters.enumerated() {
                        guard let seen = set.seen(seen, adding: letter) else { continue }
                        let row = (i + 1) * columns
                        table[row] = i + 1
                        for j in 1..<columns {
                            let substitution = table[row - columns + j - 1] + (letter == rhs[j - 1] ? 0 : 1)
                            var cell = min(table[row - columns + j] + 1, table[row + j - 1] + 1, substitution)
                            if i > 0, j > 1, letter == rhs[j - 2], set.letters[lhs[i - 1]] == rhs[j - 1] {
                                cell = min(cell, table[row - 2 * columns + j - 2] + 1)
                            }
                            table[row + j] = cell
                        }
                        lhs.append(number)
                        lhsUTF8.append(contentsOf: letterBytes[number])
                        visit(seen: seen)
                        lhs.removeLast()
                        lhsUTF8.removeLast(letterBytes[number].count)
                    }
                }
                visit(seen: 0)
            }
        }
        #expect(compared == leftTexts.count * texts.count)
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// A deterministic generator (a 64-bit LCG's high bits).
    struct Numbers {
        var state: UInt64
        mutating func next(_ limit: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % limit
        }
    }

    /// A text of `length` letters: random over `alphabet`, or repeating its first `period` letters
    /// (`aaaa…`, `abab…`), where every diagonal slides far.
    static func stem(length: Int, alphabet: [Unicode.Scalar], period: Int?, numbers: inout Numbers) -> [Unicode.Scalar] {
        (0..<length).map { index in period.map { alphabet[index % min($0, alphabet.count)] } ?? alphabet[numbers.next(alphabet.count)] }
    }

    /// `text` after `count` random insertions, deletions, substitutions and adjacent transpositions.
    static func edited(_ text: [Unicode.Scalar], count: Int, alphabet: [Unicode.Scalar], numbers: inout Numbers) -> [Unicode.Scalar] {
        var scalars = text
        for _ in 0..<count {
            let position = numbers.next(scalars.count + 1)
            switch numbers.next(4) {
            case 0: scalars.insert(alphabet[numbers.next(alphabet.count)], at: position)
            case 1: if position < scalars.count { scalars.remove(at: position) }
            case 2: if position < scalars.count { scalars[position] = alphabet[numbers.next(alphabet.count)] }
            default: if position + 1 < scalars.count { scalars.swapAt(position, position + 1) }
            }
        }
        return scalars
    }

    static let alphabets: [[Unicode.Scalar]] = [
        ["a", "b", "c"], ["a", "b"], ["a", "b", "c", "d", "e", "f", "g", "h"], ["a", "\u{E9}", "\u{E8}", "\u{1F600}", "\u{1F601}", "\u{301}"],
    ]

    /// Long texts a few edits apart, random or periodic, against the band at bounds 0 to 6.
    @Test(arguments: 0..<12)
    func agreesWithTheBandOnLongNearMisses(seed: UInt64) {
        var numbers = Numbers(state: seed &* 7_919 &+ 13)
        var mismatches: [String] = []
        for _ in 0..<60 {
            let alphabet = Self.alphabets[numbers.next(Self.alphabets.count)]
            let period: Int? = numbers.next(3) == 0 ? 1 + numbers.next(3) : nil
            let stem = Self.stem(length: 10 + numbers.next(300), alphabet: alphabet, period: period, numbers: &numbers)
            let lhs = Self.edited(stem, count: numbers.next(4), alphabet: alphabet, numbers: &numbers)
            let rhs = Self.edited(stem, count: numbers.next(5), alphabet: alphabet, numbers: &numbers)
            for bound in 0...6 {
                let expected = Self.bandedEditDistance(lhs, rhs, bound: bound)
                let found = Self.distance(lhs, rhs, bound: bound)
                if found != expected, mismatches.count < 5 {
                    mismatches.append("\(Self.text(lhs)) / \(Self.text(rhs)) at \(bound): \(found), not \(expected)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
    }

    /// The suggestion as `Format.suggestion` made it with the band: the same filters in the same
    /// order, each distance the band's.
    static func bandSuggestion(for text: String, among candidates: [String]) -> String? {
        let textCount = text.count
        let limit = min(3, textCount / 3)
        guard limit > 0, candidates.count <= Format.suggestionCandidateLimit else { return nil }
        var best: (candidate: String, distance: Int)?
        let scalars = Array(text.unicodeScalars)
        for candidate in candidates where !ExactKey.same(candidate, text) {
            let distance = bandedEditDistance(scalars, Array(candidate.unicodeScalars), bound: limit)
            if distance <= limit, distance < best?.distance ?? .max, abs(candidate.count - textCount) <= limit {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// Long ids a few edits from one stem, so that many tie: the suggestion is the band's, ties
    /// and all. Among them the text itself, and é written composed and decomposed (another
    /// candidate to `ExactKey`, the same characters to `String`).
    @Test(arguments: 0..<6)
    func longSuggestionsAreTheBandsTiesIncluded(seed: UInt64) {
        var numbers = Numbers(state: seed &* 104_729 &+ 3)
        for _ in 0..<4 {
            let alphabet = Self.alphabets[numbers.next(Self.alphabets.count)]
            let period: Int? = numbers.next(3) == 0 ? 1 + numbers.next(2) : nil
            let stem = Self.stem(length: 9 + numbers.next(200), alphabet: alphabet, period: period, numbers: &numbers)
            var candidates = (0..<40).map { _ in Self.text(Self.edited(stem, count: numbers.next(5), alphabet: alphabet, numbers: &numbers)) }
            candidates.append(Self.text(stem) + "\u{E9}")
            candidates.append(Self.text(stem) + "e\u{301}")
            let texts = candidates.prefix(15) + [Self.text(stem), Self.text(stem) + "e\u{301}"]
            for text in texts {
                let suggestion = Format.suggestion(for: text, among: candidates)
                #expect(suggestion == Self.bandSuggestion(for: text, among: candidates), "\(text.debugDescription)")
            }
        }
    }

    /// `Format.scalarCount` counts eight bytes at a time, summing 255 words per block: texts of
    /// lengths around those steps (0 to 3, 7 to 9, 15 to 17, 40 and more), and long ones of two- and four-byte scalars,
    /// whose blocks hold far more than 255 continuation bytes.
    @Test(arguments: ["a", "\u{E9}", "\u{20AC}", "\u{1F600}", "a\u{E9}\u{20AC}\u{1F600}", "e\u{301}"])
    func countsScalarsAsTheScalarView(piece: String) {
        for count in [0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 40, 509, 510, 511, 2_000, 5_000] {
            let text = String(repeating: piece, count: count)
            for prefix in ["", "a", "ab", "abc\u{E9}"] {
                var prefixed = prefix + text
                let found = prefixed.withUTF8 { Format.scalarCount($0) }
                #expect(found == prefixed.unicodeScalars.count, "\(count) of \(piece.debugDescription) after \(prefix.debugDescription)")
            }
        }
    }
}
