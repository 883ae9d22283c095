import RovenueFallback

/// The words that differ between two texts: the old text as kept and removed runs, the new text as
/// kept and added runs, each text read back exactly (whitespace included) by joining its runs.
///
/// Texts are split into words (letters and digits of one run, as the Unicode properties say), runs
/// of whitespace, and single characters for everything else: punctuation, symbols, and the
/// characters of scripts written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar), so a
/// Japanese or Chinese sentence differs character by character.
///
/// After the common prefix and suffix, Myers' O(ND) algorithm finds the fewest words to remove and
/// add, with two bounds for hostile input: at most `maxEdits` words removed and added, and at most
/// `maxSteps` steps of work (each diagonal tried and each word compared counts one; by default a
/// fixed number per word, so the work over a whole snapshot stays linear). Past either,
/// the diff stops and reports the middle between the common prefix and suffix as one removed and
/// one added run (`isCoarse`), so a 100 KB text with every word changed costs linear work.
public struct WordDiff: Sendable, Hashable {
    public enum Operation: String, Sendable, Hashable {
        /// In both texts.
        case same
        /// Only in the old text.
        case removed
        /// Only in the new text.
        case added
    }

    /// A run of one or more words with one operation.
    public struct Segment: Sendable, Hashable {
        public let operation: Operation
        public let text: String

        public init(_ operation: Operation, _ text: String) {
            self.operation = operation
            self.text = text
        }

        /// True when the run is only whitespace (spaces, tabs, line breaks).
        public var isWhitespace: Bool { !text.isEmpty && text.allSatisfy(\.isWhitespace) }
    }

    /// Fewest removed plus added words the diff looks for before it falls back to one replaced middle.
    public static let defaultMaxEdits = 1_000
    /// Steps of work the diff takes, per word of both texts, before it falls back to one replaced
    /// middle (at least `minimumSteps`): the work over many texts stays linear in their length.
    public static let stepsPerWord = 32
    /// The steps any diff may take, however short its texts.
    public static let minimumSteps = 100_000

    /// Both texts' runs in order: kept, removed and added, with adjacent runs of one operation merged.
    /// A removed run comes before the added run that replaces it.
    public let segments: [Segment]
    /// The work done: diagonals tried plus words compared (prefix and suffix included).
    public let steps: Int
    /// True when a bound was hit and the middle is reported as one replaced run.
    public let isCoarse: Bool

    /// Compares `old` with `new`; `maxSteps` defaults to `stepsPerWord` per word of both texts, at
    /// least `minimumSteps`.
    public init(old: String, new: String, maxEdits: Int = defaultMaxEdits, maxSteps: Int? = nil) {
        let oldWords = Self.words(of: old)
        let newWords = Self.words(of: new)
        let maxSteps = maxSteps ?? max(Self.minimumSteps, Self.stepsPerWord * (oldWords.count + newWords.count))
        // Equal words (the same bytes, as the SDK compares text) get equal numbers, so the search
        // compares integers.
        var numbers: [ExactKey: Int] = [:]
        func number(_ word: Substring) -> Int {
            let key = ExactKey(String(word))
            if let number = numbers[key] { return number }
            numbers[key] = numbers.count
            return numbers.count - 1
        }
        let a = oldWords.map(number)
        let b = newWords.map(number)

        var steps = 0
        var prefix = 0
        while prefix < a.count, prefix < b.count, a[prefix] == b[prefix] {
            prefix += 1
            steps += 1
        }
        var suffix = 0
        while suffix < a.count - prefix, suffix < b.count - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
            steps += 1
        }
        let oldMiddle = prefix..<(a.count - suffix)
        let newMiddle = prefix..<(b.count - suffix)

        var builder = SegmentBuilder()
        builder.append(.same, oldWords[0..<prefix])
        let search = MyersSearch.run(
            Array(a[oldMiddle]), Array(b[newMiddle]), maxEdits: max(0, maxEdits), maxSteps: max(0, maxSteps - steps))
        steps += search.steps
        if let script = search.script {
            for edit in script {
                switch edit {
                case .same(let oldIndex, _): builder.append(.same, oldWords[prefix + oldIndex])
                case .removed(let oldIndex): builder.append(.removed, oldWords[prefix + oldIndex])
                case .added(let newIndex): builder.append(.added, newWords[prefix + newIndex])
                }
            }
        } else {
            builder.append(.removed, oldWords[oldMiddle])
            builder.append(.added, newWords[newMiddle])
        }
        builder.append(.same, oldWords[(a.count - suffix)..<a.count])
        segments = Self.joiningChanges(builder.finish())
        self.steps = steps
        isCoarse = search.script == nil
    }

    /// `segments` with each whitespace-only kept run between two changes folded into them, so
    /// `[-Guten-]{+Schönen+} [-Morgen-]{+Abend+}` reads `[-Guten Morgen-]{+Schönen Abend+}`; each block
    /// of changes becomes one removed run and one added run.
    static func joiningChanges(_ segments: [Segment]) -> [Segment] {
        var result: [Segment] = []
        var removed = ""
        var added = ""
        func flush() {
            if !removed.isEmpty { result.append(Segment(.removed, removed)) }
            if !added.isEmpty { result.append(Segment(.added, added)) }
            removed = ""
            added = ""
        }
        for (index, segment) in segments.enumerated() {
            switch segment.operation {
            case .removed: removed += segment.text
            case .added: added += segment.text
            case .same:
                let inBlock = !removed.isEmpty || !added.isEmpty
                if inBlock, segment.isWhitespace, index + 1 < segments.count {
                    removed += segment.text
                    added += segment.text
                } else {
                    flush()
                    result.append(segment)
                }
            }
        }
        flush()
        return result
    }

    /// The old text's runs: kept and removed.
    public var oldSegments: [Segment] { segments.filter { $0.operation != .added } }
    /// The new text's runs: kept and added.
    public var newSegments: [Segment] { segments.filter { $0.operation != .removed } }

    /// True when the texts differ and every removed and added run is whitespace: the same words,
    /// spaced or broken into lines differently.
    public var changesOnlyWhitespace: Bool {
        let changed = segments.filter { $0.operation != .same }
        return !changed.isEmpty && changed.allSatisfy(\.isWhitespace)
    }

    /// Whitespace made visible: `·` for a space, `⇥` for a tab, `↵` before a line break (which is
    /// kept), `␣` for any other whitespace character. For a removed or added run of whitespace.
    public static func visibleWhitespace(_ text: String) -> String {
        var shown = ""
        for character in text {
            switch character {
            case " ": shown += "·"
            case "\t": shown += "⇥"
            case "\n", "\r\n", "\r": shown += "↵\n"
            default: shown += character.isWhitespace ? "␣" : String(character)
            }
        }
        return shown
    }

    // MARK: Words

    /// `text` split into words, whitespace runs and single other characters; joined, they are `text`.
    public static func words(of text: String) -> [Substring] {
        var words: [Substring] = []
        var start = text.startIndex
        var current: WordClass?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let kind = WordClass(character)
            if let running = current, running != kind || !kind.joins {
                words.append(text[start..<index])
                start = index
            }
            current = kind
            index = text.index(after: index)
        }
        if start < text.endIndex { words.append(text[start..<text.endIndex]) }
        return words
    }

    /// What a character is for splitting: part of a word, of a whitespace run, or a word of its own.
    enum WordClass: Equatable {
        case word, whitespace, single

        /// True when characters of this class join into one word.
        var joins: Bool { self != .single }

        init(_ character: Character) {
            if character.isWhitespace {
                self = .whitespace
                return
            }
            guard let scalar = character.unicodeScalars.first else {
                self = .single
                return
            }
            if Self.isUnspaced(scalar.value) {
                self = .single
            } else if character.isLetter || character.isNumber || scalar.properties.isAlphabetic || character == "_" {
                self = .word
            } else {
                self = .single
            }
        }

        /// Scripts written without spaces between words: each character is a word of its own.
        static func isUnspaced(_ value: UInt32) -> Bool {
            switch value {
            case 0x0E00...0x0EFF,  // Thai, Lao
                0x1000...0x109F,  // Myanmar
                0x1780...0x17FF,  // Khmer
                0x2E80...0x2FDF,  // CJK radicals, Kangxi radicals
                0x3000...0x303F,  // CJK symbols and punctuation
                0x3040...0x30FF,  // Hiragana, Katakana
                0x3100...0x31FF,  // Bopomofo, Katakana extensions
                0x3400...0x4DBF,  // CJK extension A
                0x4E00...0x9FFF,  // CJK unified ideographs
                0xF900...0xFAFF,  // CJK compatibility ideographs
                0xFF00...0xFFEF,  // Half- and full-width forms
                0x20000...0x3FFFF:  // CJK extensions B and later
                true
            default:
                false
            }
        }
    }
}

/// Builds segments from words, merging adjacent runs of one operation.
private struct SegmentBuilder {
    private(set) var segments: [WordDiff.Segment] = []
    private var operation: WordDiff.Operation?
    private var text = ""

    mutating func append(_ operation: WordDiff.Operation, _ word: Substring) {
        if operation != self.operation { flush() }
        self.operation = operation
        text += word
    }

    mutating func append(_ operation: WordDiff.Operation, _ words: ArraySlice<Substring>) {
        for word in words { append(operation, word) }
    }

    /// The runs, the last one included.
    mutating func finish() -> [WordDiff.Segment] {
        flush()
        return segments
    }

    private mutating func flush() {
        if let operation, !text.isEmpty { segments.append(WordDiff.Segment(operation, text)) }
        text = ""
    }
}

/// Myers' greedy O(ND) shortest edit script, bounded in edits and in steps.
enum MyersSearch {
    enum Edit: Equatable {
        case same(Int, Int)
        case removed(Int)
        case added(Int)
    }

    /// The edit script turning `a` into `b` (nil past a bound), and the steps taken.
    static func run(_ a: [Int], _ b: [Int], maxEdits: Int, maxSteps: Int) -> (script: [Edit]?, steps: Int) {
        let n = a.count
        let m = b.count
        if n == 0 || m == 0 {
            return ((0..<n).map(Edit.removed) + (0..<m).map(Edit.added), 0)
        }
        let limit = min(n + m, maxEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // The furthest x on each diagonal k in -(d+1)...(d+1), as it stood before round d.
        var trace: [[Int]] = []
        var steps = 0
        var found: Int?
        rounds: for d in 0...limit {
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            for k in stride(from: -d, through: d, by: 2) {
                steps += 1
                var x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                    steps += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = d
                    break rounds
                }
                if steps > maxSteps { return (nil, steps) }
            }
        }
        guard let edits = found else { return (nil, steps) }
        var script: [Edit] = []
        var x = n
        var y = m
        for d in stride(from: edits, through: 0, by: -1) {
            let round = trace[d]
            func furthest(_ k: Int) -> Int { round[k + d + 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && furthest(k - 1) < furthest(k + 1))) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : furthest(previousK)
            let previousY = d == 0 ? 0 : previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                script.append(.same(x, y))
            }
            if d > 0 {
                if x == previousX {
                    script.append(.added(y - 1))
                } else {
                    script.append(.removed(x - 1))
                }
                x = previousX
                y = previousY
            }
        }
        return (script.reversed(), steps)
    }
}
