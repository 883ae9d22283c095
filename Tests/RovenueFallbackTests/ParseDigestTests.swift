import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// The strict parse gives today's documents, compared with digests committed in
/// `Tests/RovenueFallbackTests/Expected/parse-digests.txt`.
///
/// `StageTwoParserTests` and `SplitParseTests` compare the indexed parse with the byte-by-byte
/// reference, but both run the same grammar loop, so a change to that loop (a node's end, a flag,
/// an error's message or offset) would change both alike and pass. These digests pin every part
/// of the result instead: each node's kind, flags, offsets, links, parent, ordinal and position,
/// the syntax error with its message, lone surrogates, too-deep containers, overflowing numbers,
/// how far the parse got and the line table; and for the split texts, how many split parses met.
///
/// Every input is committed or generated from a fixed seed; the fuzz corpus (`Fuzz/Corpus`, not
/// committed, growing on each machine) is left out. Each line also carries a digest of its input,
/// so a failure tells a changed input (a new fixture, a changed sample generator) from a changed
/// parse. On any difference the test writes the digests it computed to a new temporary folder
/// and names the file: when the change is intended, copy it over the committed one.
@Suite struct ParseDigestTests {
    static let expectedPath = "Tests/RovenueFallbackTests/Expected/parse-digests.txt"

    // MARK: Digests

    /// Appends `value` to `bytes` as 8 little-endian bytes.
    static func append(_ value: Int, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Every part of `document` a caller can observe, as bytes.
    static func serialization(of document: JSONDocument) -> [UInt8] {
        var out: [UInt8] = []
        let nodes = document.nodes
        append(nodes.count, to: &out)
        for index in nodes.indices {
            let node = nodes[index]
            out.append(node.kind.rawValue)
            out.append(node.flags)
            for value in [Int(node.start), Int(node.end), Int(node.next), Int(node.count),
                          Int(nodes.parent(of: index)), Int(nodes.ordinal(of: index))] {
                append(value, to: &out)
            }
            let position = document.position(ofOffset: Int(node.start))
            append(position.line, to: &out)
            append(position.column, to: &out)
        }
        if let error = document.syntaxError {
            out.append(error.reason == .invalidUTF8 ? 1 : 2)
            append(error.offset, to: &out)
            let position = document.position(ofOffset: error.offset)
            append(position.line, to: &out)
            append(position.column, to: &out)
            out += Array(error.message.utf8)
        }
        out.append(0xFF)
        append(document.loneSurrogates.count, to: &out)
        for lone in document.loneSurrogates {
            append(Int(lone.node), to: &out)
            append(Int(lone.offset), to: &out)
            out.append(lone.isLeading ? 1 : 0)
        }
        append(document.tooDeepContainers.count, to: &out)
        for node in document.tooDeepContainers { append(Int(node), to: &out) }
        append(document.overflowingNumbers.count, to: &out)
        for node in document.overflowingNumbers { append(Int(node), to: &out) }
        append(document.storage.parsedExtent, to: &out)
        append(document.lineStarts.count, to: &out)
        for start in document.lineStarts { append(start, to: &out) }
        return out
    }

    /// The first 16 hex digits of the SHA-256 of `bytes`: enough to tell any change here.
    static func short(_ bytes: [UInt8]) -> String {
        String(SHA256Digest(of: bytes).hexString.prefix(16))
    }

    /// The parse of `bytes` with lone surrogates refused, and accepted when the text has an escape.
    static func parses(of bytes: [UInt8], path: StructuralIndex.Path = .vector, splitAt: Int? = nil) -> [JSONDocument] {
        let acceptances = bytes.contains(UInt8(ascii: "\\")) ? [false, true] : [false]
        return acceptances.map { JSONDocument(bytes: bytes, acceptingLoneSurrogates: $0, path: path, splitAt: splitAt) }
    }

    /// One line of the expected file: a label, the digest of its inputs and of their parses.
    struct Line: Equatable, CustomStringConvertible {
        let label: String
        let input: String
        let parse: String

        var description: String { "\(label) input=\(input) parse=\(parse)" }

        /// A line of `inputs`, each parsed by `parse` (into one or more documents, serialised in turn).
        init(_ label: String, inputs: [[UInt8]], parse: ([UInt8]) -> [UInt8]) {
            // A label is one word of its line.
            self.label = label.replacingOccurrences(of: " ", with: "%20")
            var inputHasher = SHA256Hasher()
            var parseHasher = SHA256Hasher()
            for bytes in inputs {
                var length: [UInt8] = []
                ParseDigestTests.append(bytes.count, to: &length)
                inputHasher.update(length)
                inputHasher.update(bytes)
                parseHasher.update(parse(bytes))
            }
            input = String(inputHasher.finalize().hexString.prefix(16))
            self.parse = String(parseHasher.finalize().hexString.prefix(16))
        }

        /// A line of the expected file, or nil when it is not one.
        init?(parsing text: Substring) {
            let parts = text.split(separator: " ")
            guard parts.count == 3, parts[1].hasPrefix("input="), parts[2].hasPrefix("parse=") else { return nil }
            label = String(parts[0])
            input = String(parts[1].dropFirst("input=".count))
            parse = String(parts[2].dropFirst("parse=".count))
        }
    }

    /// Each document's serialization, one after another.
    static func serialized(_ documents: [JSONDocument]) -> [UInt8] {
        documents.flatMap(serialization(of:))
    }

    // MARK: Inputs

    /// The committed input files: fixtures, fuzz regressions, examples and golden files.
    static var committedFiles: [String] {
        StageTwoParserTests.files.filter { !$0.hasPrefix("Fuzz/Corpus/") }
    }

    /// Every line, in the file's order.
    static func computedLines() throws -> [Line] {
        var lines: [Line] = []
        for path in committedFiles {
            let bytes = try StructuralIndexTests.bytes(ofFile: path)
            lines.append(Line("file:\(path)", inputs: [bytes]) { serialized(parses(of: $0)) })
            // Stage 1's scalar path and one run of blocks give the same document.
            lines.append(Line("scalar:\(path)", inputs: [bytes]) { serialized(parses(of: $0, path: .scalar)) })
        }
        for (which, document) in StageTwoParserTests.smallDocuments.enumerated() {
            let prefixes = (0...document.count).map { Array(document[..<$0]) }
            lines.append(Line("truncations:\(which)", inputs: prefixes) { serialized(parses(of: $0)) })
        }
        for replacement in StageTwoParserTests.replacementBytes {
            let small = StageTwoParserTests.small
            let replaced = small.indices.filter { small[$0] != replacement }.map { offset in
                var bytes = small
                bytes[offset] = replacement
                return bytes
            }
            lines.append(Line("replacement:\(replacement)", inputs: replaced) { serialized(parses(of: $0)) })
        }
        for alignment in [0, 1, 31, 32, 33, 62, 63, 64] {
            let lead = [UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: " "), count: alignment)
            var inputs: [[UInt8]] = []
            for length in [0, 1, 63, 64, 65, 128] {
                let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                for body in [plain, plain + Array(#"\"\\"#.utf8), plain + Array("é😀".utf8), plain + Array(#"\u0041\ud800"#.utf8)] {
                    let string = [UInt8(ascii: "\"")] + body + [UInt8(ascii: "\"")]
                    inputs += [lead + string + Array(#","x"]"#.utf8), lead + string.dropLast(),
                               lead + [UInt8(ascii: "{")] + string + Array(": 1}]".utf8)]
                }
            }
            lines.append(Line("strings-at-alignment:\(alignment)", inputs: inputs) { serialized(parses(of: $0)) })
        }
        for depth in [127, 128, 129, 200, 30_000] {
            let arrays = Array((String(repeating: "[", count: depth) + "0" + String(repeating: "]", count: depth)).utf8)
            let objects = Array((String(repeating: "{\"k\":", count: depth) + "0" + String(repeating: "}", count: depth)).utf8)
            let open = Array(String(repeating: "[{\"k\":", count: depth).utf8)
            lines.append(Line("nesting:\(depth)", inputs: [arrays, objects, open]) { serialized(parses(of: $0)) })
        }
        let compact = SampleExport(placementCount: 40, seed: 7).jsonText()
        for (name, lineEnd) in [("lf", "\n"), ("crlf", "\r\n"), ("cr", "\r")] {
            let pretty = JSONDocument(text: compact).root.owned.jsonText(.prettyPrinted).replacingOccurrences(of: "\n", with: lineEnd)
            lines.append(Line("sample-pretty:\(name)", inputs: [Array(pretty.utf8)]) { serialized(parses(of: $0)) })
        }
        lines.append(Line("sample-compact", inputs: [Array(compact.utf8)]) { serialized(parses(of: $0)) })
        // Split parses: the document at every split offset, and how many met in the middle.
        for (which, text) in SplitParseTests.hostile.enumerated() {
            lines.append(Line("split-hostile:\(which)", inputs: [Array(text.utf8)]) { bytes in
                var out: [UInt8] = []
                var met = 0
                for split in 0...bytes.count {
                    let documents = parses(of: bytes, splitAt: split)
                    out += serialized(documents)
                    met += documents.count { $0.storage.parsedInTwoHalves }
                }
                append(met, to: &out)
                return out
            })
        }
        // A sample export split at each comma where the halves can meet and the offsets around it.
        let sample = SampleExport(placementCount: 12, seed: 3).jsonText()
        let splits = Set(SplitParseTests.meetingCommas(sample).flatMap { ($0 - 3)...($0 + 3) }).sorted()
        lines.append(Line("split-sample", inputs: [Array(sample.utf8)]) { bytes in
            var out: [UInt8] = []
            var met = 0
            for split in splits {
                let documents = parses(of: bytes, splitAt: split)
                out += [UInt8](short(serialized(documents)).utf8)
                met += documents.count { $0.storage.parsedInTwoHalves }
            }
            append(met, to: &out)
            return out
        })
        var generator = SplitMix64(seed: 42)
        let export = Array(SampleExport(placementCount: 4, seed: 5).jsonText().utf8)
        let damaged = (0..<200).map { _ in SplitParseTests.damaged(export, by: &generator) }
        lines.append(Line("damaged-exports", inputs: damaged) { bytes in
            serialized(parses(of: bytes) + parses(of: bytes, splitAt: bytes.count / 2))
        })
        return lines
    }

    // MARK: The comparison

    @Test func theParseGivesTheCommittedDigests() throws {
        let computed = try Self.computedLines()
        let expectedText = try String(contentsOf: StructuralIndexTests.packageRoot.appendingPathComponent(Self.expectedPath), encoding: .utf8)
        let expected = expectedText.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap(Line.init(parsing:))
        let expectedByLabel = Dictionary(expected.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
        let computedLabels = Set(computed.map(\.label))
        var problems: [String] = []
        for line in computed {
            guard let old = expectedByLabel[line.label] else {
                problems.append("new input \(line.label)")
                continue
            }
            if old.input != line.input {
                problems.append("\(line.label): the input changed")
            } else if old.parse != line.parse {
                problems.append("\(line.label): the PARSE changed (same input, different document)")
            }
        }
        for line in expected where !computedLabels.contains(line.label) {
            problems.append("\(line.label): no longer an input")
        }
        guard !problems.isEmpty else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parse-digests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("parse-digests.txt")
        try Self.fileText(computed).write(to: file, atomically: true, encoding: .utf8)
        Issue.record("""
            \(problems.count) parse digests differ from \(Self.expectedPath):
            \(problems.prefix(20).joined(separator: "\n"))
            The digests computed now are in \(file.path); if the change is intended, copy that file over \(Self.expectedPath).
            """)
    }

    /// The expected file's text for `lines`.
    static func fileText(_ lines: [Line]) -> String {
        """
        # Digests of the strict parse (ParseDigestTests): label, a digest of the inputs, a digest of every
        # part of their documents. A changed parse digest with the same input digest is a changed parse.

        """ + lines.map(\.description).joined(separator: "\n") + "\n"
    }

    /// The comparison can fail: a document that differs in one node's end, in its error's message or
    /// in a lone surrogate has another serialization.
    @Test func aChangedDocumentHasAnotherDigest() {
        let bytes = Array(#"{"a":[1,"\ud800"],"b":tru"#.utf8)
        let document = JSONDocument(bytes: bytes, acceptingLoneSurrogates: true, path: .vector)
        let refused = JSONDocument(bytes: bytes, acceptingLoneSurrogates: false, path: .vector)
        let shorter = JSONDocument(bytes: Array(bytes.dropLast()), acceptingLoneSurrogates: true, path: .vector)
        let digests = Set([document, refused, shorter].map { Self.short(Self.serialization(of: $0)) })
        #expect(digests.count == 3)
        #expect(Self.short(Self.serialization(of: document)) == Self.short(Self.serialization(of: JSONDocument(referenceParsing: bytes, acceptingLoneSurrogates: true))))
    }

    @Test func theExpectedFileParses() throws {
        let text = try String(contentsOf: StructuralIndexTests.packageRoot.appendingPathComponent(Self.expectedPath), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { Line(parsing: $0) != nil })
        #expect(Set(lines.compactMap { Line(parsing: $0)?.label }).count == lines.count, "a label is repeated")
    }
}
