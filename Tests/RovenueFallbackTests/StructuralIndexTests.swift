import Foundation
@testable import RovenueFallback
import Testing

/// Stage 1: the vector path, the scalar path and a naive reference written here agree on every
/// byte, and on valid JSON the index finds what `JSONDocument` finds.
@Suite struct StructuralIndexTests {
    // MARK: Inputs

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every fixture under Tests/**/Fixtures, every fuzz corpus and regression input, every example.
    static let files: [String] = {
        let manager = FileManager.default
        var found: [String] = []
        for folder in ["Tests", "Fuzz/Corpus", "Fuzz/Regressions", "Examples"] {
            let root = packageRoot.appendingPathComponent(folder)
            guard let walker = manager.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker {
                let path = url.path.dropFirst(packageRoot.path.count + 1)
                let isInput = folder == "Tests" ? path.contains("/Fixtures/") : !path.hasSuffix(".md") || folder.hasPrefix("Fuzz")
                guard isInput, (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                found.append(String(path))
            }
        }
        return found.sorted()
    }()

    static func bytes(ofFile path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent(path)))
    }

    // MARK: Reference

    /// A naive stage 1 with none of the index's machinery: a byte is escaped when an odd number of
    /// backslashes stands right before it (counted backwards each time); UTF-8 is checked by the
    /// standard library's decoder.
    struct Reference {
        var quotes: [UInt32] = []
        var structurals: [UInt32] = []
        var escapes: [UInt32] = []
        var lineStarts: [UInt32] = [0]
        var firstControlInString: Int?
        var firstInvalidUTF8: Int?

        init(_ bytes: [UInt8]) {
            func isEscaped(_ offset: Int) -> Bool {
                var run = 0
                while offset - run - 1 >= 0, bytes[offset - run - 1] == UInt8(ascii: "\\") { run += 1 }
                return run % 2 == 1
            }
            var inString = false
            for (offset, byte) in bytes.enumerated() {
                let escaped = isEscaped(offset)
                if byte == UInt8(ascii: "\""), !escaped {
                    quotes.append(UInt32(offset))
                    inString = !inString
                } else if inString {
                    if byte == UInt8(ascii: "\\"), !escaped { escapes.append(UInt32(offset)) }
                    if byte < 0x20, firstControlInString == nil { firstControlInString = offset }
                } else if "{}[]:,".utf8.contains(byte) {
                    structurals.append(UInt32(offset))
                }
                if byte == UInt8(ascii: "\n") { lineStarts.append(UInt32(offset + 1)) }
            }
            var iterator = bytes.makeIterator()
            var decoder = UTF8()
            var consumed = 0
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): consumed += UTF8.width(scalar)
                case .emptyInput: break decoding
                case .error:
                    firstInvalidUTF8 = consumed
                    break decoding
                }
            }
        }
    }

    /// Both paths and the reference index `bytes` identically.
    static func expectAgreement(_ bytes: [UInt8], _ comment: @autoclosure () -> String = "",
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let vector = StructuralIndex(bytes: bytes, path: .vector)
        let scalar = StructuralIndex(bytes: bytes, path: .scalar)
        #expect(vector == scalar, "\(comment())", sourceLocation: sourceLocation)
        let reference = Reference(bytes)
        #expect(scalar.quotes == reference.quotes, "\(comment())", sourceLocation: sourceLocation)
        #expect(scalar.structurals == reference.structurals, "\(comment())", sourceLocation: sourceLocation)
        #expect(scalar.escapes == reference.escapes, "\(comment())", sourceLocation: sourceLocation)
        #expect(scalar.lineStarts == reference.lineStarts, "\(comment())", sourceLocation: sourceLocation)
        #expect(scalar.firstControlInString == reference.firstControlInString, "\(comment())", sourceLocation: sourceLocation)
        #expect(scalar.firstInvalidUTF8 == reference.firstInvalidUTF8, "\(comment())", sourceLocation: sourceLocation)
    }

    // MARK: Files

    @Test func theInputsAreFound() {
        #expect(Self.files.contains("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        #expect(Self.files.contains { $0.hasPrefix("Fuzz/") })
        #expect(Self.files.contains { $0.hasPrefix("Examples/") && $0.hasSuffix(".json") })
    }

    @Test(arguments: files) func pathsAgreeOnFile(_ path: String) throws {
        Self.expectAgreement(try Self.bytes(ofFile: path), path)
    }

    /// On valid JSON the index's strings, structurals and lines are the parser's; on invalid JSON
    /// its first invalid UTF-8 and first control character are where the parser reports them.
    @Test(arguments: files) func indexMatchesTheParserOnFile(_ path: String) throws {
        let bytes = try Self.bytes(ofFile: path)
        let index = StructuralIndex(bytes: bytes)
        let document = JSONDocument(bytes: bytes, acceptingLoneSurrogates: true)
        Self.expectParserAgreement(index, document, path)
    }

    static func expectParserAgreement(_ index: StructuralIndex, _ document: JSONDocument, _ comment: String,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error = document.syntaxError else {
            let strings = document.nodes.filter { $0.kind == .string }.map { Int($0.start)..<Int($0.end) }
            #expect(index.stringRanges == strings, "\(comment)", sourceLocation: sourceLocation)
            #expect(!index.endsInString, "\(comment)", sourceLocation: sourceLocation)
            #expect(index.lineStarts.map(Int.init) == document.lineStarts, "\(comment)", sourceLocation: sourceLocation)
            let containers = document.nodes.count { $0.kind == .array || $0.kind == .object }
            let separators = document.nodes.count { $0.kind == .string && $0.flags & JSONDocument.isKey != 0 }
                + document.nodes.reduce(0) { $0 + (($1.kind == .array || $1.kind == .object) ? max(Int($1.count) - 1, 0) : 0) }
            #expect(index.structurals.count == 2 * containers + separators, "\(comment)", sourceLocation: sourceLocation)
            #expect(index.firstInvalidUTF8 == nil && index.firstControlInString == nil, "\(comment)", sourceLocation: sourceLocation)
            return
        }
        if error.reason == .invalidUTF8 {
            #expect(index.firstInvalidUTF8 == error.offset, "\(comment)", sourceLocation: sourceLocation)
        } else {
            #expect(index.firstInvalidUTF8 == nil, "\(comment)", sourceLocation: sourceLocation)
        }
        if error.message.hasPrefix("control character") {
            #expect(index.firstControlInString == error.offset, "\(comment)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Generated edge cases

    /// A run of `length` backslashes inside a string, at every offset 0…130, so the run and the quote
    /// after it straddle the 64-byte block boundary on either side; an odd run escapes the quote.
    @Test(arguments: 1...130) func backslashRunsAtEveryOffset(_ length: Int) {
        for offset in 0...130 {
            // `"` at offset - 1 (or none at 0), the run, then a quote, a comma and a last string.
            var bytes = [UInt8](repeating: UInt8(ascii: " "), count: max(offset - 1, 0))
            if offset > 0 { bytes.append(UInt8(ascii: "\"")) }
            bytes += [UInt8](repeating: UInt8(ascii: "\\"), count: length)
            bytes += Array(#"",["x"]"#.utf8)
            Self.expectAgreement(bytes, "run \(length) at \(offset)")
            let index = StructuralIndex(bytes: bytes)
            if offset > 0 {
                // The quote right after the run closes the string only when the run is even.
                #expect(index.quotes.contains(UInt32(offset + length)) == length.isMultiple(of: 2), "run \(length) at \(offset)")
                #expect(index.escapes.count == (length + 1) / 2, "run \(length) at \(offset)")
            }
        }
    }

    @Test func stringsSpanningManyBlocks() {
        let body = String(repeating: "abc\\\"def\\\\ghi\\u00e9é—😀", count: 40)
        let text = "[\"\(body)\",{\"k\":\"\(String(repeating: "x", count: 1000))\"}]"
        let bytes = Array(text.utf8)
        Self.expectAgreement(bytes)
        let index = StructuralIndex(bytes: bytes)
        #expect(index.stringRanges.first == 1..<(3 + body.utf8.count))
        #expect(index.structurals.map { bytes[Int($0)] } == Array("[,{:}]".utf8))
        Self.expectParserAgreement(index, JSONDocument(bytes: bytes), "many blocks")
    }

    /// A two-, three- and four-byte character, and broken ones, at every position around the block edges.
    @Test(arguments: ["é", "—", "😀", "\u{7F}"]) func utf8AcrossBlockEdges(_ character: String) {
        let encoded = Array(character.utf8)
        for offset in 0...140 {
            let prefix = [UInt8(ascii: "\"")] + [UInt8](repeating: UInt8(ascii: "a"), count: offset)
            let valid = prefix + encoded + Array("\"".utf8)
            Self.expectAgreement(valid, "\(character) at \(offset)")
            #expect(StructuralIndex(bytes: valid).firstInvalidUTF8 == nil)
            guard encoded.count > 1 else { continue }
            // Cut short, then a lone continuation byte, then an overlong form.
            let cut = prefix + encoded.dropLast() + Array("\"".utf8)
            Self.expectAgreement(cut, "cut \(character) at \(offset)")
            #expect(StructuralIndex(bytes: cut).firstInvalidUTF8 == offset + 1)
            Self.expectAgreement(prefix + [encoded.last!] + encoded, "continuation at \(offset)")
            Self.expectAgreement(prefix + [0xC0, 0xAF, 0x22], "overlong at \(offset)")
            Self.expectAgreement(prefix + [0xED, 0xA0, 0x80], "surrogate at \(offset)")
            Self.expectAgreement(prefix + [0xF4, 0x90, 0x80, 0x80], "above U+10FFFF at \(offset)")
            Self.expectAgreement(prefix + encoded.dropLast(), "truncated at the end at \(offset)")
        }
    }

    /// Line feeds, carriage returns and both at every position around the block edges; a carriage
    /// return alone starts no line, as in `JSONDocument`'s positions.
    @Test(arguments: ["\n", "\r", "\r\n", "\n\r"]) func lineBreaksAcrossBlockEdges(_ breakText: String) {
        for offset in 0...140 {
            let text = "[" + String(repeating: " ", count: offset) + breakText + "1," + breakText + "\"x\"]"
            let bytes = Array(text.utf8)
            Self.expectAgreement(bytes, "break at \(offset)")
            let index = StructuralIndex(bytes: bytes)
            let document = JSONDocument(bytes: bytes)
            Self.expectParserAgreement(index, document, "break at \(offset)")
            #expect(index.lineStarts.count == 1 + 2 * breakText.utf8.count { $0 == 0x0A })
        }
    }

    /// A raw control character in a string at every position around the block edges, where the
    /// parser reports it; outside a string it is not the index's concern.
    @Test func controlCharactersAcrossBlockEdges() {
        for offset in 0...140 {
            for control: UInt8 in [0x00, 0x09, 0x0A, 0x1F] {
                let bytes = [UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: " "), count: offset) + Array(#""ab"#.utf8)
                    + [control] + Array(#"c"]"#.utf8)
                Self.expectAgreement(bytes, "control \(control) at \(offset)")
                let index = StructuralIndex(bytes: bytes)
                #expect(index.firstControlInString == offset + 4)
                Self.expectParserAgreement(index, JSONDocument(bytes: bytes), "control \(control) at \(offset)")
            }
        }
        Self.expectAgreement(Array("[\u{01}]".utf8))
        #expect(StructuralIndex(bytes: Array("[\u{01}]".utf8)).firstControlInString == nil)
    }

    @Test func emptyInput() {
        let index = StructuralIndex(bytes: [])
        #expect(index == StructuralIndex(bytes: [], path: .scalar))
        #expect(index.lineStarts == [0] && index.quotes.isEmpty && index.structurals.isEmpty)
        #expect(index.firstInvalidUTF8 == nil && index.firstControlInString == nil && !index.endsInString)
    }

    /// Inputs of every length 1…200 from a mix of every kind of byte the index tells apart,
    /// deterministically pseudo-random.
    @Test(arguments: 1...200) func mixedInputsOfEveryLength(_ length: Int) {
        let alphabet: [UInt8] = Array("\"\"\\\\\\{}[]:, a1\n\r\t".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xA9, 0xE2, 0x80, 0x94, 0xF0, 0x9F, 0xFF]
        var state = UInt64(length) &* 0x9E37_79B9_7F4A_7C15
        for _ in 0..<20 {
            let bytes = (0..<length).map { _ -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(state >> 33) % alphabet.count]
            }
            Self.expectAgreement(bytes, "\(bytes)")
        }
    }

    /// Valid JSON of every length 1…200 (padded with whitespace around a string of escapes): the
    /// parser and the index agree.
    @Test(arguments: 1...200) func validDocumentsOfEveryLength(_ length: Int) {
        let core = #"{"a\"b":[1,"\\",{"":"é\n"}]}"#
        let padding = max(length - core.utf8.count, 0)
        let text = String(repeating: " ", count: padding / 2) + core + String(repeating: "\n", count: padding - padding / 2)
        let bytes = Array(text.utf8)
        Self.expectAgreement(bytes)
        Self.expectParserAgreement(StructuralIndex(bytes: bytes), JSONDocument(bytes: bytes), "length \(length)")
    }
}
