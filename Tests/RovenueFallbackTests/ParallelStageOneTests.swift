import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// Stage 1 of the parse (`ParseIndex`) scanned in runs of blocks, as it is on all cores for large
/// texts, gives exactly the index one scan gives, and the scalar path's: every bitmap word, line
/// start, continuation count and the first invalid UTF-8. Runs are forced down to one 64-byte block
/// and each text is also shifted by 0 to 63 leading spaces, so run borders fall at every offset of
/// it: inside multi-byte UTF-8, on invalid bytes, inside escape runs, on CR and LF.
@Suite struct ParallelStageOneTests {
    /// The run lengths forced, in 64-byte blocks; nil is the automatic choice.
    static let runLengths: [Int?] = [nil, 1, 2, 3, 5]

    static func expectSameIndex(
        _ bytes: [UInt8], shifts: Range<Int> = 0..<1, _ comment: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for shift in shifts {
            let text = [UInt8](repeating: 0x20, count: shift) + bytes
            text.withUnsafeBufferPointer { buffer in
                let reference = ParseIndex(bytes: buffer, path: .scalar)
                for runWords in runLengths {
                    // Both sets of block masks: this processor's and the portable ones.
                    for path in [StructuralIndex.Path.vector, .portableVector] {
                        let index = ParseIndex(bytes: buffer, path: path, runWords: runWords)
                        let label = "\(comment()) \(path) shift \(shift) runs \(runWords.map(String.init) ?? "auto")"
                        #expect(index.significant == reference.significant, "significant: \(label)", sourceLocation: sourceLocation)
                        #expect(index.stringStops == reference.stringStops, "string stops: \(label)", sourceLocation: sourceLocation)
                        #expect(index.lineStarts == reference.lineStarts, "line starts: \(label)", sourceLocation: sourceLocation)
                        #expect(index.continuationsInBlock == reference.continuationsInBlock, "continuations: \(label)", sourceLocation: sourceLocation)
                        #expect(index.firstInvalidUTF8 == reference.firstInvalidUTF8, "first invalid UTF-8: \(label)", sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }

    @Test(arguments: StageTwoParserTests.files) func sameOnFile(_ path: String) throws {
        Self.expectSameIndex(try StructuralIndexTests.bytes(ofFile: path), path)
    }

    /// Well-formed sequences of each length, then ill-formed ones, at every offset around a border.
    static let sequences: [[UInt8]] = [
        Array("é".utf8), Array("€".utf8), Array("😀".utf8),
        [0x80], [0xBF, 0xBF, 0xBF, 0xBF], [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xFF], [0xC0, 0xAF],
        [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], Array("😀".utf8) + [0x80],
    ]

    @Test(arguments: 0..<sequences.count) func utf8AcrossEveryBorder(_ which: Int) {
        let sequence = Self.sequences[which]
        // Valid multi-byte text before it, so the runs before carry a sequence into the next one.
        let body = Array("\"aé😀\":[\"".utf8) + sequence + Array("€x\"]".utf8)
        Self.expectSameIndex(body, shifts: 0..<64, "sequence \(sequence)")
        // Twice, so a second invalid byte after a border does not replace the first.
        Self.expectSameIndex(body + body, shifts: 0..<64, "sequence \(sequence) twice")
    }

    @Test(arguments: ["\n", "\r\n", "\r", "\t"]) func lineEndsAcrossEveryBorder(_ end: String) {
        let body = Array("{\"k\":\(end)[1,\(end)\"v\\\\\\\"\"]\(end)}\(end)".utf8)
        Self.expectSameIndex(body + body + body, shifts: 0..<64, "line end \(Array(end.utf8))")
    }

    /// Backslash runs of odd and even length before a quote: stage 1 of the parse marks each byte
    /// for itself, so a border inside a run changes nothing.
    @Test(arguments: 1...6) func escapeRunsAcrossEveryBorder(_ length: Int) {
        let run = String(repeating: "\\", count: length)
        let body = Array("[\"\(run)\"\", \"\(run)é\"]".utf8)
        Self.expectSameIndex(body, shifts: 0..<64, "\(length) backslashes")
    }

    /// Texts of random bytes, most of them significant to stage 1.
    @Test func randomTexts() {
        var generator = SplitMix64(seed: 10)
        let alphabet = Array("{}[]:,\"\\ \n\r\tab0".utf8) + [0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xBF, 0xFF, 0x00, 0xED, 0xA0]
        for round in 0..<40 {
            let length = Int(generator.next() % 400)
            let text = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            Self.expectSameIndex(text, shifts: 0..<4, "random text \(round)")
        }
    }

    /// A text past `ParseIndex.parallelThreshold` is scanned in parallel runs: the document is the
    /// one the scalar stage 1 gives, nodes and positions included, and so is its error when a byte
    /// near the middle is made invalid UTF-8.
    @Test func largeDocumentsParseAsTheScalarPathDoes() {
        var text = Array(SampleExport(placementCount: 1_200, seed: 3).jsonText().utf8)
        #expect(text.count >= ParseIndex.parallelThreshold, "the sample must be large enough to be scanned in parallel")
        let scalar = JSONDocument(bytes: text, path: .scalar)
        let parallel = JSONDocument(bytes: text)
        #expect(parallel.syntaxError == nil)
        #expect(parallel.nodes == scalar.nodes)
        #expect(parallel.lineStarts == scalar.lineStarts)
        for node in stride(from: 0, to: scalar.nodes.count, by: 997) {
            let offset = Int(scalar.nodes[node].end)
            #expect(parallel.position(ofOffset: offset) == scalar.position(ofOffset: offset))
        }
        // An invalid byte inside a string near the middle.
        let middle = text.count / 2
        let quote = text[middle...].firstIndex(of: UInt8(ascii: "\""))! + 1
        text[quote] = 0xFF
        let broken = JSONDocument(bytes: text)
        #expect(broken.syntaxError == JSONDocument(bytes: text, path: .scalar).syntaxError)
        #expect(broken.syntaxError?.offset == quote)
    }
}
