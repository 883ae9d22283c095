import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// Stage 2: the parser driven by stage 1's bitmaps (`ParseIndex`, on its vector and its scalar
/// path) gives exactly the document the byte-by-byte parse gives (`init(referenceParsing:)`): every
/// node, the syntax error, lone surrogates, too-deep containers, overflowing numbers, how far the
/// parse got and every position, on every input file of the repository and on generated mutations.
@Suite struct StageTwoParserTests {
    // MARK: Comparing

    /// Parses `bytes` both ways (each stage 1 path, lone surrogates accepted or not) and expects the
    /// same document. Positions are compared at every offset of a short text, else at every node's
    /// ends and the error.
    static func expectIdentical(_ bytes: [UInt8], _ comment: @autoclosure () -> String = "",
                                sourceLocation: SourceLocation = #_sourceLocation) {
        let acceptances = bytes.contains(UInt8(ascii: "\\")) ? [false, true] : [false]
        for accepting in acceptances {
            let reference = JSONDocument(referenceParsing: bytes, acceptingLoneSurrogates: accepting)
            for path in StructuralIndex.Path.allCases {
                let document = JSONDocument(bytes: bytes, acceptingLoneSurrogates: accepting, path: path)
                expectSame(document, as: reference, bytes: bytes, "\(comment()) \(path) accepting \(accepting)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Expects `document` to be `reference` in every part: nodes, error, lists, extent and, unless
    /// `comparingPositions` is false (the line and block tables they come from are compared anyway),
    /// the position of every offset of a short text or every node's ends.
    static func expectSame(
        _ document: JSONDocument, as reference: JSONDocument, bytes: [UInt8], _ label: String, comparingPositions: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard document.nodes == reference.nodes else {
            let first = document.nodes.indices.first { $0 >= reference.nodes.count || document.nodes[$0] != reference.nodes[$0] } ?? document.nodes.count
            Issue.record("nodes differ from node \(first) (\(document.nodes.count) vs \(reference.nodes.count)): \(label)", sourceLocation: sourceLocation)
            return
        }
        #expect(document.syntaxError == reference.syntaxError, "\(label)", sourceLocation: sourceLocation)
        #expect(document.loneSurrogates == reference.loneSurrogates, "\(label)", sourceLocation: sourceLocation)
        #expect(document.tooDeepContainers == reference.tooDeepContainers, "\(label)", sourceLocation: sourceLocation)
        #expect(document.overflowingNumbers == reference.overflowingNumbers, "\(label)", sourceLocation: sourceLocation)
        #expect(document.storage.parsedExtent == reference.storage.parsedExtent, "\(label)", sourceLocation: sourceLocation)
        #expect(document.lineStarts == reference.lineStarts, "\(label)", sourceLocation: sourceLocation)
        #expect(document.storage.continuationsInBlock == reference.storage.continuationsInBlock, "\(label)", sourceLocation: sourceLocation)
        #expect(document.storage.continuationsBeforeBlock == reference.storage.continuationsBeforeBlock, "\(label)", sourceLocation: sourceLocation)
        guard comparingPositions else { return }
        var offsets: [Int]
        if bytes.count <= 600 {
            offsets = Array(0...bytes.count + 1)
        } else {
            offsets = reference.nodes.flatMap { [Int($0.start), Int($0.end)] }
            offsets.append(bytes.count)
        }
        if let error = reference.syntaxError { offsets.append(error.offset) }
        let moved = offsets.first { document.position(ofOffset: $0) != reference.position(ofOffset: $0) }
        #expect(moved == nil, "position of \(moved ?? -1): \(label)", sourceLocation: sourceLocation)
    }

    // MARK: Files

    /// Every input `StructuralIndexTests` reads (fixtures, fuzz corpus and regressions, examples)
    /// and every golden file.
    static let files: [String] = {
        let root = StructuralIndexTests.packageRoot
        let walker = FileManager.default.enumerator(at: root.appendingPathComponent("Tests/Golden"), includingPropertiesForKeys: nil)
        let golden = (walker?.allObjects as? [URL] ?? []).filter { !$0.hasDirectoryPath }.map { String($0.path.dropFirst(root.path.count + 1)) }
        return StructuralIndexTests.files + golden.sorted()
    }()

    @Test func theInputsAreFound() {
        #expect(Self.files.contains("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"))
        #expect(Self.files.contains("Tests/Golden/check/funnel-era.json"))
        #expect(Self.files.contains { $0.hasPrefix("Fuzz/Regressions/json/") })
        #expect(Self.files.contains { $0.hasPrefix("Examples/") && $0.hasSuffix(".json") })
    }

    @Test(arguments: files) func identicalOnFile(_ path: String) throws {
        Self.expectIdentical(try StructuralIndexTests.bytes(ofFile: path), path)
    }

    /// A generated export, compact and pretty-printed with each kind of line end.
    @Test(arguments: ["\n", "\r\n", "\r"]) func identicalOnASampleExport(_ lineEnd: String) throws {
        let text = SampleExport(placementCount: 40, seed: 7).jsonText()
        Self.expectIdentical(Array(text.utf8), "compact sample")
        let pretty = JSONDocument(text: text).root.owned.jsonText(.prettyPrinted).replacingOccurrences(of: "\n", with: lineEnd)
        Self.expectIdentical(Array(pretty.utf8), "pretty sample")
    }

    // MARK: Mutations

    /// A small document with every kind of token, escapes of each kind, non-ASCII text, a lone and
    /// a paired surrogate, an overflowing number, and whitespace of each kind between tokens.
    static let small = Array("""
    {"a": [1, -0.5e+3, 1e999, true, false, null],\r\n\t"é\\n\\"\\\\\\/\\b\\f\\r\\t": "x—😀\\u00e9\\ud83d\\ude00",
     "lone": "\\udc00\\ud800", "o": {"": [], "k": {}}, "n": -12.25E-2 }
    """.utf8)

    static let smallDocuments: [[UInt8]] = [
        small,
        Array(#"[{"k":"v"},[[]],"s\"",0,1.5,"\ud800x"]"#.utf8),
        Array("\"\u{7F}é\"".utf8),
        Array(" \n 123 \n".utf8),
    ]

    /// Every prefix of each small document: each place a text can break off.
    @Test(arguments: 0..<smallDocuments.count) func everyTruncation(_ which: Int) {
        let bytes = Self.smallDocuments[which]
        for length in 0...bytes.count {
            Self.expectIdentical(Array(bytes[..<length]), "document \(which) cut at \(length)")
        }
    }

    /// Each byte that means something to either stage, and every byte 0x80–0xFF.
    static let replacementBytes: [UInt8] = Array("{}[]:,\"\\ -+.0eEtu".utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x1F, 0x7F] + Array(0x80...0xFF)

    /// Every single-byte replacement of the small document.
    @Test(arguments: replacementBytes) func everyReplacementBy(_ replacement: UInt8) {
        for offset in Self.small.indices where Self.small[offset] != replacement {
            var bytes = Self.small
            bytes[offset] = replacement
            Self.expectIdentical(bytes, "byte \(replacement) at \(offset)")
        }
    }

    /// Strings with escapes, non-ASCII and a broken end starting at every alignment to the 64-byte
    /// blocks, and ending at every alignment.
    @Test(arguments: 0...64) func stringsAcrossBlocksAtAlignment(_ alignment: Int) {
        let lead = [UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: " "), count: alignment)
        for length in [0, 1, 7, 8, 62, 63, 64, 65, 127, 128, 130] {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            for body in [plain, plain + Array(#"\"\\"#.utf8), plain + Array("é😀".utf8), Array("é".utf8) + plain, plain + Array(#"\u0041"#.utf8)] {
                let string = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
                Self.expectIdentical(lead + string + Array(#","x"]"#.utf8), "string of \(body.count) at \(alignment)")
                Self.expectIdentical(lead + string.dropLast(), "open string of \(body.count) at \(alignment)")
                Self.expectIdentical(lead + [UInt8(ascii: "{")] + string + Array(": 1}]".utf8), "key of \(body.count) at \(alignment)")
            }
        }
    }

    /// Invalid UTF-8 (each kind) at every position of a block, inside a string and between tokens,
    /// before and after a syntax error.
    @Test(arguments: [[0xFF], [0x80], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] as [[UInt8]])
    func invalidUTF8AtEveryPosition(_ invalid: [UInt8]) {
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 150)
        for position in 0...130 {
            let inString = Array(#"["#.utf8) + [UInt8(ascii: "\"")] + body[..<position] + invalid + body[position...] + Array(#""]"#.utf8)
            Self.expectIdentical(inString, "\(invalid) in a string at \(position)")
            var afterError = Array(#"[1,,"#.utf8) + [UInt8](repeating: UInt8(ascii: " "), count: position) + [UInt8(ascii: "\"")]
            afterError += invalid + Array(#""]"#.utf8)
            Self.expectIdentical(afterError, "\(invalid) after an error at \(position)")
            let between = [UInt8](repeating: UInt8(ascii: " "), count: position) + invalid + Array("[]".utf8)
            Self.expectIdentical(between, "\(invalid) between tokens at \(position)")
        }
    }

    /// Nesting past the SDK's limit of 127, closed, left open and broken off.
    @Test(arguments: [127, 128, 129, 300]) func deepNesting(_ depth: Int) {
        let arrays = [UInt8](repeating: UInt8(ascii: "["), count: depth) + [UInt8](repeating: UInt8(ascii: "]"), count: depth)
        Self.expectIdentical(arrays, "arrays \(depth)")
        Self.expectIdentical(Array(arrays.dropLast(depth / 2)), "open arrays \(depth)")
        let objects = Array(String(repeating: "{\"a\" :\n", count: depth).utf8) + [UInt8(ascii: "1")]
            + [UInt8](repeating: UInt8(ascii: "}"), count: depth)
        Self.expectIdentical(objects, "objects \(depth)")
        Self.expectIdentical(Array(objects.dropLast(depth / 2)) + Array(",]".utf8), "broken objects \(depth)")
    }

    /// Line feeds, carriage returns and both between tokens at every position around a block edge,
    /// with a non-ASCII string on the line, and a break inside a string (an error).
    @Test(arguments: ["\n", "\r", "\r\n", "\n\r"]) func lineEndsForPositions(_ lineEnd: String) {
        for offset in 0...130 {
            let text = "[\"é—\"," + String(repeating: " ", count: offset) + lineEnd + "1," + lineEnd + "\"😀x\"" + lineEnd + "]"
            Self.expectIdentical(Array(text.utf8), "break at \(offset)")
            Self.expectIdentical(Array((text + "x").utf8), "break at \(offset), then trailing characters")
            Self.expectIdentical(Array(("[\"é" + String(repeating: "a", count: offset) + lineEnd + "\"]").utf8), "break in a string at \(offset)")
        }
    }

    /// Larger than one 4 KiB position block: continuation counts, lines and an error in a later block.
    @Test func errorsPastTheFirstPositionBlock() {
        let line = Array("  \"ééé—\": [1, 2, \"😀😀\"],\r\n".utf8)
        var bytes = Array("{\n".utf8)
        for _ in 0..<400 { bytes += line }
        let valid = bytes + Array("\"end\": 0}".utf8)
        Self.expectIdentical(valid, "long")
        for cut in stride(from: 4000, to: valid.count, by: 997) {
            Self.expectIdentical(Array(valid[..<cut]), "long cut at \(cut)")
            var broken = valid
            broken[cut] = 0xFF
            Self.expectIdentical(broken, "long with 0xFF at \(cut)")
            broken[cut] = UInt8(ascii: "}")
            Self.expectIdentical(broken, "long with } at \(cut)")
        }
    }

    @Test func emptyAndWhitespaceOnly() {
        for text in ["", " ", "\n", "\r\n\t ", String(repeating: " ", count: 64), String(repeating: "\n", count: 128)] {
            Self.expectIdentical(Array(text.utf8), "\(text.utf8.count) bytes of whitespace")
        }
    }
}
