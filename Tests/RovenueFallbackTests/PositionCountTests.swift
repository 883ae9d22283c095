import Testing
@testable import RovenueFallback

/// `JSONDocument.position(ofOffset:)` counts the continuation bytes before an offset 64 at a time
/// (issue 10: a site's source listings ask for the position of every value of a one-line export).
/// Its answer must be the byte-by-byte count's at every offset, whatever the alignment.
@Suite("Position counting")
struct PositionCountTests {
    /// The position of every offset (and of the end), counted the long way in one pass: a line
    /// starts after each line feed, and a column counts the bytes since that are not continuation bytes.
    static func naivePositions(_ bytes: [UInt8]) -> [JSONDocument.Position] {
        var positions: [JSONDocument.Position] = []
        var line = 1
        var column = 1
        for offset in 0...bytes.count {
            positions.append(JSONDocument.Position(line: line, column: column))
            guard offset < bytes.count else { break }
            if bytes[offset] == 0x0A {
                line += 1
                column = 1
            } else if bytes[offset] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return positions
    }

    /// One-line text past three 4 KiB blocks with two-, three- and four-byte characters at every
    /// alignment, the same text broken into lines, broken by a syntax error, and in lines of
    /// mixed lengths.
    static let texts: [String] = {
        let words = (0..<2500).map { index in ["a", "é", "€", "𝄞", "ab", "\u{202E}"][index % 6] + String(index % 10) }
        let oneLine = "[" + words.map { "\"\($0)\"" }.joined(separator: ",") + "]"
        let lines = "[\n" + words.map { "  \"\($0)\"" }.joined(separator: ",\n") + "\n]"
        // A syntax error in the third block: the parse, and its counts, end there.
        let broken = String(oneLine.prefix(5000)) + "\u{01}" + String(oneLine.dropFirst(5000))
        // Lines around a quarter block (counted straight up to it, from the blocks' counts past it)
        // that start and end anywhere in a block.
        let mixed = "[\n" + stride(from: 0, to: words.count, by: 90).map { start in
            let count = [3, 60, 130, 200, 90][start / 90 % 5]
            return words[start..<min(start + count, words.count)].map { "\"\($0)\"" }.joined(separator: ",")
        }.joined(separator: ",\n") + "\n]"
        return [oneLine, lines, broken, mixed]
    }()

    /// An offset on a short line is counted from the line's start; any other from the nearer end
    /// of its 4 KiB block, so the last block's count (the text's, or the parse's up to its error)
    /// must be exact; the reference parse, which counts as it reads, gives the same.
    @Test(arguments: [0, 1, 2, 3])
    func everyOffsetHasTheByteByBytePosition(text: Int) {
        let source = Self.texts[text]
        let bytes = Array(source.utf8)
        #expect(bytes.count > 3 * 4096)
        let expected = Self.naivePositions(bytes)
        for document in [JSONDocument(text: source), JSONDocument(referenceParsing: bytes)] {
            #expect((document.syntaxError != nil) == (text == 2))
            var mismatches: [Int] = []
            for offset in 0...bytes.count where document.position(ofOffset: offset) != expected[offset] {
                mismatches.append(offset)
            }
            #expect(mismatches.isEmpty, "first mismatch at byte \(mismatches.first ?? -1)")
        }
    }
}
