import FallbackAudit
import FallbackSample
import FallbackTestSupport
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// The source listing written as bytes (issue 10, render cost): its escaping table, its plain-token
/// test, its numbers and its position cursor each agree with what they replace, and the listing
/// stays byte for byte the reference listing (`ReferenceSourceListing`, the line-array version) on
/// every Example, fixture, fuzz input and sample entry, and on hostile strings.
@Suite("Source listing as bytes")
struct ListingBytesTests {
    /// Every snapshot-like input of the repository: the Examples, the test fixtures, the fuzz corpus and regressions.
    static let files = corpusFiles

    static func bytes(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { ListingBytes.appendHTMLText($0, to: &output) }
        return output
    }

    @Test func theEscapingTableEscapesEveryByteAsMarkupEscapingDoes() {
        for byte in 0..<128 {
            let text = String(UnicodeScalar(UInt8(byte)))
            #expect(Self.bytes(text) == Array(MarkupEscaping.htmlText.escape(text).utf8), "byte \(byte)")
        }
        // Bytes of multi-byte characters pass through: every scalar form of a lead and continuation byte.
        for scalar in ["é", "\u{202E}", "\u{FFFF}", "😀", "\u{80}", "\u{7FF}", "\u{10FFFF}"] {
            #expect(Self.bytes(scalar + "<&>") == Array(MarkupEscaping.htmlText.escape(scalar + "<&>").utf8))
        }
        for byte in 128..<256 { #expect(ListingBytes.htmlTextReplacements[byte].isEmpty) }
    }

    /// What the reference shows for `text` as a string token, and what the plain path writes for it.
    static func referenceAndPlain(_ text: String) -> (reference: String, plain: String?) {
        let reference = SnapshotText.html(JSONValue.quoted(text), limit: nil, escaping: .htmlText)
        guard let form = Array(text.utf8).withUnsafeBufferPointer(ListingBytes.plainForm) else { return (reference, nil) }
        let escaped = "\"" + String(decoding: bytes(text), as: UTF8.self) + "\""
        return (reference, form == .isolated ? "<bdi>" + escaped + "</bdi>" : escaped)
    }

    /// A one-byte token takes the plain path exactly when the reference token is the byte quoted and escaped.
    @Test func thePlainTestAcceptsExactlyTheBytesTheReferenceShowsAsTheyAre() {
        for byte in 0..<128 {
            let text = String(UnicodeScalar(UInt8(byte)))
            let (reference, plain) = Self.referenceAndPlain(text)
            let asItIs = "\"" + String(decoding: Self.bytes(text), as: UTF8.self) + "\""
            #expect((plain != nil) == (reference == asItIs), "byte \(byte)")
            if let plain { #expect(plain == reference, "byte \(byte)") }
        }
        // A lone byte that is not ASCII is not UTF-8; nor are overlong forms, surrogates or cut sequences.
        for bytes: [UInt8] in (0x80..<0x100).map({ [UInt8($0)] }) + [[0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80]] {
            #expect(bytes.withUnsafeBufferPointer(ListingBytes.plainForm) == nil, "\(bytes)")
        }
    }

    /// Every scalar up to U+3000 and every 61st beyond, alone and between ASCII: the plain path
    /// writes what the reference does, and refuses exactly the hidden characters.
    @Test func everyScalarIsShownAsTheReferenceShowsIt() {
        let scalars = (0x80..<0x3000).compactMap(Unicode.Scalar.init) + Swift.stride(from: 0x3000, through: 0x10FFFF, by: 61).compactMap(Unicode.Scalar.init)
        for scalar in scalars {
            for text in [String(scalar), "a<" + String(scalar) + "&b"] {
                let (reference, plain) = Self.referenceAndPlain(text)
                #expect((plain == nil) == VisibleText.isHidden(scalar), "U+\(String(scalar.value, radix: 16))")
                if let plain, plain != reference {
                    Issue.record("U+\(String(scalar.value, radix: 16)): \(plain) against \(reference)")
                    return
                }
            }
        }
    }

    @Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, 4000, 1 << 31, Int.max, -1, -42, Int.min])
    func decimalsAreSpelledAsStringSpellsThem(number: Int) {
        var output: [UInt8] = [UInt8(ascii: "x")]
        ListingBytes.appendDecimal(number, to: &output)
        #expect(output == Array(("x" + String(number)).utf8))
    }

    /// Every number below 2,000, across the short path for numbers below 1,000 and the general one.
    @Test func smallDecimalsAreSpelledAsStringSpellsThem() {
        for number in 0..<2000 {
            var output: [UInt8] = []
            ListingBytes.appendDecimal(number, to: &output)
            if output != Array(String(number).utf8) {
                Issue.record("\(number): \(String(decoding: output, as: UTF8.self))")
                return
            }
        }
    }

    @Test(arguments: [0, 1, 31, 32])
    func indentationIsTwoSpacesALevel(levels: Int) {
        var output: [UInt8] = []
        ListingBytes.appendIndentation(levels, to: &output)
        #expect(output == Array(String(repeating: "  ", count: levels).utf8))
    }

    /// Every node's offset, in order, then backwards, then every third: as the document says.
    static func expectCursorAgrees(_ text: String, file: String = "") {
        let document = JSONDocument(text: text)
        guard document.hasRoot else { return }
        // Every value and key, in text order.
        var offsets: [Int] = []
        var pending = [document.root]
        while let value = pending.popLast() {
            offsets.append(value.byteRange.lowerBound)
            for member in value.members.reversed() { pending += [member.value, member.keyValue] }
            pending += value.elements.reversed()
        }
        offsets.sort()
        for order in [offsets, offsets.reversed(), offsets.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) + [document.bytes.count]] {
            var cursor = PositionCursor(document: document)
            for offset in order {
                let expected = document.position(ofOffset: offset)
                let found = cursor.position(ofOffset: offset)
                guard found == expected else {
                    Issue.record("\(file) offset \(offset): \(found) against \(expected)")
                    return
                }
            }
        }
    }

    static let hostile: String = {
        let long = String(repeating: "é<&>\"", count: 300)
        let longASCII = String(repeating: "a<", count: 300)
        var nested = "1"
        for depth in 0..<40 { nested = "{\"d\(depth)\":[\(nested),\"x\"]}" }
        return "{\"k\":{\r\n  \"a/b\":{\"~0\":[1,{\"\":\"</script><script>alert(1)</script>\"}]},\n\"\":\"empty key\",\"x\":\"\\u202Eevil\\u0007\","
            + "\"ctl\":\"a\\u0000b\\u001fc\\u007f\u{7F}\",\"bidi\":\"\u{202E}\u{2066}abc\u{200B}\",\"dup\":1,\"dup\":2,"
            + "\"long\":\"" + long + "\",\"longASCII\":\"" + longASCII + "\",\"exact\":\"" + String(repeating: "b", count: 400) + "\","
            + "\"over\":\"" + String(repeating: "c", count: 401) + "\",\"n\":" + String(repeating: "1", count: 450) + ",\n"
            + "\"ü/~1\":{\"q\":\"\\\"quoted\\\" 'single' \\\\ \\/\",\"n\":-0.0e+00},\"arr\":[[],{},[{\"a\":null,\"b\":true,\"c\":false}]],"
            + "\"ü\(String(repeating: "k", count: 500))\":\"\",\"deep\":" + nested + "}}"
    }()

    @Test func theCursorAgreesWithTheDocumentOnEveryNode() throws {
        Self.expectCursorAgrees(Self.hostile)
        Self.expectCursorAgrees("\n\n  {\"a\":\n[1,\n \"é\u{202E}😀\",\r\n\"x\"]}\n")
        Self.expectCursorAgrees(SampleExport(placementCount: 30, seed: 5).jsonText())
        for file in Self.files {
            Self.expectCursorAgrees(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self), file: file)
        }
    }

    /// Every placement entry of `text` listed both ways, with a finding at every `stride`-th value
    /// (none for 0) and change anchors at some values' positions.
    static func expectListingsAgree(_ text: String, stride: Int, file: String = "") {
        let document = JSONDocument(text: text)
        guard document.hasRoot, document.root.kind == .object else { return }
        let entries = document.root["placements"].map { $0.members } ?? document.root.members
        for entry in entries {
            var pointers: [String] = []
            var positions: [JSONDocument.Position] = []
            var pending = [entry.value]
            while let value = pending.popLast() {
                pointers.append(value.pointer)
                positions.append(value.position)
                pending += value.members.map(\.value) + value.elements
            }
            let findings: [Finding] =
                stride == 0
                ? []
                : pointers.enumerated().filter { $0.offset % stride == 0 }.map { index, pointer in
                    Finding(
                        ruleId: index % 2 == 0 ? "number-bad" : "duplicate-key", severity: [.info, .warning, .error][index % 3],
                        message: "m", placementKey: entry.key, pointer: pointer, line: positions[index].line, column: positions[index].column)
                }
            let anchors = positions.enumerated().filter { $0.offset % 5 == 1 }.map { SourceListing.anchor(line: $0.element.line, column: $0.element.column) }
                + ["L0-0", "L1-", "Lx-1", "L01-1"]
            let listing = SourceListing.html(for: entry.value, key: entry.key, findings: findings, linkedFrom: stride == 0 ? [] : anchors)
            let reference = ReferenceSourceListing.html(for: entry.value, key: entry.key, findings: findings, linkedFrom: stride == 0 ? [] : anchors)
            guard listing == reference else {
                Issue.record("\(file): the listing of \(entry.key.prefix(60)) differs from the reference")
                return
            }
        }
    }

    @Test(arguments: [0, 1, 4])
    func hostileValuesListAsTheReferenceDoes(stride: Int) {
        Self.expectListingsAgree(Self.hostile, stride: stride)
        Self.expectListingsAgree("{\"placements\":" + Self.hostile + "}", stride: stride)
    }

    @Test(arguments: [0, 7])
    func everyExampleFixtureAndFuzzEntryListsAsTheReferenceDoes(stride: Int) throws {
        for file in Self.files {
            Self.expectListingsAgree(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self), stride: stride, file: file)
        }
    }

    @Test func everySampleEntryListsAsTheReferenceDoes() {
        Self.expectListingsAgree(SampleExport(placementCount: 60, seed: 1).jsonText(), stride: 0)
        Self.expectListingsAgree(SampleExport(placementCount: 20, seed: 2).jsonText(), stride: 3)
    }
}
