import FallbackAudit
@testable import FallbackReports
import Foundation
import RovenueFallback
import Testing

/// `check --format json` and SARIF are written straight into bytes (`PrettyJSONWriter`, issue 10)
/// rather than through a `JSONValue` tree and `jsonText`: each still writes byte for byte what
/// `jsonText([.prettyPrinted])` writes, which stays here as the reference.
@Suite("check's JSON writers match jsonText")
struct CheckJSONWriterTests {
    /// Strings a report can carry: every control character, quotes, backslashes, markup, line and
    /// paragraph separators, non-ASCII, a lone BOM, long runs between escapes.
    static let texts: [String] = hostileTexts + [
        "", "plain", String((0..<0x20).map { Character(Unicode.Scalar(UInt8($0))) }), "\"quoted\" \\ \\\\ \"\"",
        "</script><script>alert(1)</script>", "line\u{2028}separator\u{2029}paragraph", "café naïve 日本語 🙂 e\u{301}",
        "\u{FEFF}bom", "\u{7F}\u{80}\u{9F}", String(repeating: "long run ", count: 200) + "\n" + String(repeating: "é", count: 100),
        "tab\there\u{0}nul",
    ]

    static func written(_ value: JSONValue) -> String {
        var writer = PrettyJSONWriter()
        writer.value(value)
        return writer.finishText()
    }

    @Test("a value is written as jsonText writes it", arguments: 0..<6)
    func valuesMatchJSONText(shape: Int) {
        let strings = Self.texts.map(JSONValue.string)
        let numbers: [JSONValue] = ["0", "-0", "1.0", "1e5", "-12.5E-3", "123456789012345678901234567890"].map { .number(JSONNumber(text: $0)) }
        let scalars: [JSONValue] = strings + numbers + [.null, true, false, 42, -7]
        let value: JSONValue
        switch shape {
        case 0: value = .array(scalars)
        case 1: value = .object(Self.texts.enumerated().map { .init($1, scalars[$0 % scalars.count]) })
        case 2: value = .array([[], .object([]), [[]], .object([.init("", .object([]))]), [.null]])
        case 3:
            // Nested 60 deep, alternating arrays and objects, with siblings at each level.
            var nested: JSONValue = "leaf"
            for level in 0..<60 {
                nested = level.isMultiple(of: 2) ? [nested, .number(JSONNumber(level)), []] : .object([.init("k\(level)", nested), .init("\"", nil)])
            }
            value = nested
        case 4: value = strings[11]
        default: value = .object([.init("a", .object([.init("b", []), .init("c", [.object([])])])), .init("a", 1)])
        }
        #expect(Self.written(value) == value.jsonText([.prettyPrinted]) + "\n")
    }

    @Test("the streaming calls write what the same value gives")
    func streamingMatchesTheValue() {
        var writer = PrettyJSONWriter()
        writer.beginObject()
        writer.pair("text", "a\"b")
        writer.pair("number", -3)
        writer.key("none")
        writer.string(orNull: nil)
        writer.key("empty")
        writer.beginArray()
        writer.end()
        writer.key("list")
        writer.beginArray()
        writer.string("x")
        writer.beginObject()
        writer.end()
        writer.value(.object([.init("in", [1, 2])]))
        writer.end()
        writer.end()
        let value: JSONValue = .object([
            .init("text", "a\"b"), .init("number", -3), .init("none", nil), .init("empty", []),
            .init("list", ["x", .object([]), .object([.init("in", [1, 2])])]),
        ])
        #expect(writer.finishText() == value.jsonText([.prettyPrinted]) + "\n")
    }

    @Test("keys spelled once for their depth write what key(text:) writes", arguments: [0, 1, 3, 20])
    func memberKeysMatchTheGeneralKey(depth: Int) {
        // Names that need escaping, and plain ones, each as first and as following member.
        let names = ["rule", "", "\"quoted\"", "back\\slash", "tab\tnl\n\u{1}", "café 🙂", "</script>"]
        for nested in [false, true] {
            var general = PrettyJSONWriter()
            var spelled = PrettyJSONWriter()
            for index in 0..<depth {
                general.beginArray()
                spelled.beginArray()
                if index.isMultiple(of: 2) {
                    general.null()
                    spelled.null()
                }
            }
            let keys = spelled.keysOfElementObjects(names)
            general.beginObject()
            spelled.beginObject()
            for (index, name) in names.enumerated() {
                general.key(text: name)
                spelled.key(index, of: keys)
                if nested {
                    general.beginObject()
                    general.end()
                    spelled.beginObject()
                    spelled.end()
                } else {
                    general.string(name)
                    spelled.string(name)
                }
            }
            for _ in 0...depth {
                general.end()
                spelled.end()
            }
            let expected = general.finishText()
            #expect(spelled.finishText() == expected, "depth \(depth), nested \(nested)")
        }
    }

    /// What `elements` is given to write: `count` hostile texts, each told apart by its index.
    static func elementItems(_ count: Int) -> [String] { (0..<count).map { texts[$0 % texts.count] + "#\($0)" } }

    /// `items` as elements of a list (after a first element when `leading`, before a last one),
    /// written through `elements` into `writer`; the text is what `elementsValue` pretty-prints.
    static func writeElements(
        _ items: [String], leading: Bool, estimatedBytes: (String) -> Int = { $0.utf8.count }, to writer: inout PrettyJSONWriter
    ) {
        writer.beginObject()
        writer.key("list")
        writer.beginArray()
        if leading { writer.string("first") }
        writer.elements(items, estimatedBytes: estimatedBytes) { writer, text in
            writer.beginObject()
            writer.pair("text", text)
            writer.key("inner")
            writer.beginArray()
            writer.string(text)
            writer.end()
            writer.end()
        }
        writer.null()
        writer.end()
        writer.end()
    }

    static func elementsValue(_ items: [String], leading: Bool) -> JSONValue {
        let elements = items.map { text in JSONValue.object([.init("text", .string(text)), .init("inner", [.string(text)])]) }
        return .object([.init("list", .array((leading ? ["first"] : []) + elements + [nil]))])
    }

    @Test(
        "elements written in parallel batches are the text of writing them one by one",
        arguments: [0, 1, 2, 127, 128, 129, 2047, 2048, 2049, 4500])
    func elementsMatchOneByOne(count: Int) {
        let items = Self.elementItems(count)
        for leading in [false, true] {
            let expected = Self.elementsValue(items, leading: leading).jsonText([.prettyPrinted]) + "\n"
            var gathered = PrettyJSONWriter()
            Self.writeElements(items, leading: leading, to: &gathered)
            #expect(gathered.finishText() == expected, "\(count) elements, leading \(leading)")
            for chunkSize in [1, 100, ReportSink.defaultChunkSize] {
                final class Received: @unchecked Sendable { var text = "" }
                let received = Received()
                let sink = ReportSink(chunkSize: chunkSize) { received.text += $0 }
                var writer = PrettyJSONWriter(output: sink)
                Self.writeElements(items, leading: leading, to: &writer)
                writer.finish()
                sink.finish()
                #expect(received.text == expected, "\(count) elements, leading \(leading), chunks of \(chunkSize)")
            }
        }
    }

    /// Items estimated large end their wave early (a wave's text is held whole): waves of one,
    /// two and three items, and of a few hundred, in batches smaller than 128, write the same text.
    @Test("elements in waves their estimated bytes cut short are the text of writing them one by one",
          arguments: [PrettyJSONWriter.elementWaveBytes, PrettyJSONWriter.elementWaveBytes / 2, PrettyJSONWriter.elementWaveBytes / 3,
                      PrettyJSONWriter.elementWaveBytes / 300])
    func elementsInShortWavesMatchOneByOne(estimate: Int) {
        let items = Self.elementItems(700)
        for leading in [false, true] {
            let expected = Self.elementsValue(items, leading: leading).jsonText([.prettyPrinted]) + "\n"
            var gathered = PrettyJSONWriter()
            Self.writeElements(items, leading: leading, estimatedBytes: { _ in estimate }, to: &gathered)
            #expect(gathered.finishText() == expected, "estimate \(estimate), leading \(leading)")
            final class Received: @unchecked Sendable { var text = "" }
            let received = Received()
            let sink = ReportSink(chunkSize: 100) { received.text += $0 }
            var writer = PrettyJSONWriter(output: sink)
            Self.writeElements(items, leading: leading, estimatedBytes: { _ in estimate }, to: &writer)
            writer.finish()
            sink.finish()
            #expect(received.text == expected, "estimate \(estimate), leading \(leading), through a sink")
        }
    }

    /// With items estimated at a whole wave each, the sink receives text after the first few items
    /// are written, not once all of them are (2,048 items a wave): items that each name a
    /// megabyte key are not all held at once.
    @Test func largeItemsAreHandedOnAsTheirWavesEnd() {
        final class Progress: @unchecked Sendable {
            let lock = NSLock()
            var written = 0
            var writtenAtFirstChunk: Int?
        }
        let progress = Progress()
        let items = (0..<500).map { String(repeating: "x", count: 300) + "#\($0)" }
        let sink = ReportSink(chunkSize: 100) { _ in
            progress.lock.withLock { progress.writtenAtFirstChunk = progress.writtenAtFirstChunk ?? progress.written }
        }
        var writer = PrettyJSONWriter(output: sink)
        writer.beginArray()
        writer.elements(items, estimatedBytes: { _ in PrettyJSONWriter.elementWaveBytes }) { writer, text in
            progress.lock.withLock { progress.written += 1 }
            writer.string(text)
        }
        writer.end()
        writer.finish()
        sink.finish()
        let first = progress.lock.withLock { progress.writtenAtFirstChunk }
        #expect(first.map { $0 <= 3 } == true, "first chunk after \(first.map(String.init) ?? "no") items")
    }

    /// An item estimated at a whole wave by itself is handed on while it is written, alone or after
    /// small items (it ends their wave): a copy change of hundreds of thousands of locales is never
    /// held whole as one item's text.
    @Test(arguments: [["huge"], ["small", "small", "huge"]])
    func anItemPastAWaveIsHandedOnWhileItIsWritten(items: [String]) {
        final class Progress: @unchecked Sendable {
            let lock = NSLock()
            var strings = 0
            var stringsAtFirstChunk: Int?
        }
        let progress = Progress()
        let sink = ReportSink(chunkSize: 1_000) { _ in
            progress.lock.withLock { progress.stringsAtFirstChunk = progress.stringsAtFirstChunk ?? progress.strings }
        }
        var writer = PrettyJSONWriter(output: sink)
        writer.beginArray()
        writer.elements(items, estimatedBytes: { $0 == "huge" ? PrettyJSONWriter.elementWaveBytes : 10 }) { writer, text in
            guard text == "huge" else {
                writer.string(text)
                return
            }
            writer.beginArray()
            for index in 0..<1_000 {
                progress.lock.withLock { progress.strings += 1 }
                writer.string(text + "\(index)")
            }
            writer.end()
        }
        writer.end()
        writer.finish()
        sink.finish()
        let first = progress.lock.withLock { progress.stringsAtFirstChunk }
        #expect(first.map { $0 < 200 } == true, "first chunk after \(first.map(String.init) ?? "no") strings of 1,000")
    }

    /// A snapshot whose keys and texts are hostile, so findings carry them in messages, keys and pointers.
    static func hostileSnapshot() -> String {
        let entries = texts.enumerated().map { index, text in
            let key = JSONValue.quoted(text + "#\(index)")
            let identifier = JSONValue.quoted("id \(text)")
            return #"\#(key):{"placement":{"identifier":\#(identifier),"revision":\#(index % 2 == 0 ? "1" : "\"r\"")},"#
                + #""paywall":{"id":\#(JSONValue.quoted(text)),"title":\#(JSONValue.quoted(text))}}"#
        }
        return #"{"formatVersion":1,"generatedAt":1760000000000,"projectId":"p\u2028","placements":{"# + entries.joined(separator: ",") + "}}"
    }

    static func reports() throws -> [CheckedFilesReport] {
        let fixtures = [funnelEraPath, paywallEraPath] + (try FileManager.default.contentsOfDirectory(atPath: repositoryPath("Examples")))
            .filter { $0.hasSuffix(".json") }.sorted().map { repositoryPath("Examples/\($0)") }
        let files = try fixtures.map { path -> (path: String, outcome: Result<FallbackFile, UnreadableFile>) in
            (path, .success(FallbackFile(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))))
        } + [
            ("hostile \"</script>\"\u{2028}.json", .success(FallbackFile(text: hostileSnapshot()))),
            ("bad & <rejected>.json", .success(FallbackFile(text: #"[{"formatVersion":1}]"#))),
            ("syntax.json", .success(FallbackFile(text: "{\"formatVersion\":1,\n\"placements\":{\"a\u{1}\":"))),
            ("missing \"one\"\n.json", .failure(UnreadableFile(reason: "no such file\u{7}"))),
        ]
        return [FailureThreshold.error, .never].map { threshold in
            CheckedFilesReport(
                files: files, audit: Audit(now: Date(timeIntervalSince1970: 1_790_000_000)), failOn: threshold,
                title: "fallback-site check", tool: ReportTool(name: "fallback-site", version: "1", rulesURL: "https://x.test/rules.md"))
        }
    }

    @Test("check's JSON report is jsonValue's pretty text, byte for byte")
    func checkJSONMatchesItsValue() throws {
        let reports = try Self.reports()
        for report in reports {
            #expect(report.json() == report.jsonValue.jsonText([.prettyPrinted]) + "\n")
        }
        // The hostile snapshot's findings reach the writer with their text.
        let hostile = try #require(reports.first?.inputs.first { $0.path.hasPrefix("hostile") })
        #expect(hostile.findings.count >= Self.texts.count)
        #expect(hostile.findings.contains { $0.message.contains("</script>") })
    }

    @Test("SARIF is its document's pretty text, byte for byte")
    func sarifMatchesItsDocument() throws {
        for report in try Self.reports().map(\.ciReport) + [syntheticReport(messages: Self.texts, keys: Self.texts)] {
            #expect(SARIFReport.render(report) == SARIFReport.document(report).jsonText([.prettyPrinted]) + "\n")
        }
    }
}
