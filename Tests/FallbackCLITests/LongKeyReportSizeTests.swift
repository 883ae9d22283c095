@testable import FallbackCLI
@testable import FallbackReports
import FallbackTestSupport
import Foundation
@testable import RovenueFallback
import Testing

/// A placement key, id or pointer that the machine reports repeat in every finding or change is
/// written whole up to `RepeatedText.wholeLimit` bytes, and as its two ends around `…` past it: a
/// long key in each of thousands of findings no longer makes a report of the key's length times
/// its findings (a 776 KB file made 1.2 GB of `check --format json` and of `sarif`, and 804 MB of
/// `diff --format json`). The whole key is still in `check`'s JSON once, in `loaded`.
@Suite("machine reports: a long key repeated in every finding is cut to its ends")
struct LongKeyReportSizeTests {
    /// One placement `key` serving a funnel of `pages` pages, each title missing locale `de`.
    static func snapshot(key: String, pages: Int, title: String = "Hi", generatedAt: String = "1764400000000") -> String {
        let list = (0..<pages).map { Snap.page("p\($0)", "statement", #""title":{"en":"\#(title)"}"#) }
        return Snap.file(
            Snap.entry(key, #""funnel":{"id":"f","slug":"f","locales":["en","de"],"pages":[\#(list.joined(separator: ","))]}"#),
            generatedAt: generatedAt)
    }

    /// `fallback-site arguments` over files held in memory.
    static func run(_ arguments: [String], files: [String: String]) -> (status: Int32, output: String) {
        let output = OutputBox()
        let errors = OutputBox()
        let environment = CommandEnvironment(
            writeOutput: { output.append($0) }, writeError: { errors.append($0) },
            readFile: { path in
                guard let text = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
                return Array(text.utf8)
            },
            writeFile: { _, _ in }, now: { testNow }, variables: [:])
        let status = CommandLineTool.run(arguments, in: environment)
        // Only findings end a run with status 1: anything else (a usage error) says why here.
        #expect(errors.text.isEmpty || status <= 1, "\(errors.text)")
        return (status, output.text)
    }

    final class OutputBox: @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [String] = []
        func append(_ text: String) { lock.withLock { parts.append(text) } }
        var text: String { lock.withLock { parts.joined() } }
    }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func shortenedKeepsTextUpToTheLimitAndBothEndsPastIt() throws {
        let limit = RepeatedText.wholeLimit
        for length in [0, 1, limit - 1, limit] {
            let text = String(repeating: "a", count: length)
            #expect(RepeatedText.shortened(text) == text)
        }
        let long = String(repeating: "a", count: limit + 1)
        let cut = RepeatedText.shortened(long)
        #expect(cut == String(repeating: "a", count: RepeatedText.keptBytes) + "…" + String(repeating: "a", count: RepeatedText.keptBytes))
        // Multi-byte scalars across both cuts: never split, each end a prefix or suffix of the text.
        for filler in ["é", "€", "😀", "e\u{301}", "a€😀"] {
            for offset in 0..<4 {
                let text = String(repeating: "x", count: offset) + String(repeating: filler, count: 600) + "/tail"
                // Split at the ellipsis's bytes: the tail may start with a combining mark.
                let bytes = Array(RepeatedText.shortened(text).utf8)
                let ellipsis = Array("…".utf8)
                let at = try #require((0...(bytes.count - 3)).first { Array(bytes[$0..<$0 + 3]) == ellipsis })
                let (head, tail) = (Array(bytes[..<at]), Array(bytes[(at + 3)...]))
                #expect(String(validating: head, as: UTF8.self) != nil)
                #expect(String(validating: tail, as: UTF8.self) != nil)
                #expect(text.utf8.starts(with: head) && text.utf8.reversed().starts(with: tail.reversed()))
                #expect(head.count <= RepeatedText.keptBytes && head.count > RepeatedText.keptBytes - 4)
                #expect(tail.count <= RepeatedText.keptBytes && tail.count > RepeatedText.keptBytes - 4)
                #expect(tail.suffix(5) == Array("/tail".utf8))
            }
        }
        // A pointer is whole up to its own limit: a whole key and a path below it.
        let pointer = "/placements/" + String(repeating: "k", count: limit) + "/funnel/pages/0/title"
        #expect(RepeatedText.shortened(pointer: pointer) == pointer)
        let longPointer = String(repeating: "/p", count: RepeatedText.wholePointerLimit / 2) + "/x"
        #expect(RepeatedText.shortened(pointer: String(longPointer.dropLast(2))) == String(longPointer.dropLast(2)))
        #expect(RepeatedText.shortened(pointer: longPointer).hasSuffix("/p/x") && RepeatedText.shortened(pointer: longPointer).utf8.count == 2 * RepeatedText.keptBytes + 3)
        // A pointer held as links (a long token each) and a tail is cut as its joined text is.
        for token in ["k", "é", "😀", "e\u{301}"] {
            let long = String(repeating: token, count: 700)
            var built = JSONPointer("/placements/" + long).appending(escapedToken: "funnel").appending(escapedToken: String(repeating: "€", count: 200))
            built = built.appending(escapedToken: "x").appending(escapedToken: long).appending(escapedToken: "title")
            #expect(built.head != nil)
            #expect(RepeatedText.shortened(pointer: built) == RepeatedText.shortened(pointer: built.string))
            let short = JSONPointer("/placements/" + String(long.prefix(10)))
            #expect(RepeatedText.shortened(pointer: short) == short.string)
        }
        // Two long keys that differ only at the end read apart.
        let shared = String(repeating: "k", count: 5_000)
        #expect(RepeatedText.shortened(shared + "1") != RepeatedText.shortened(shared + "2"))
    }

    /// `check --format json` and `sarif`: the size grows with the findings, not with the key's length
    /// times them; `loaded` still holds the whole key, once.
    @Test(arguments: ["json", "sarif"])
    func checkReportsStayLinear(format: String) throws {
        let key = String(repeating: "k", count: 50_000)
        var sizes: [Int] = []
        for pages in [100, 200] {
            let (status, output) = Self.run(["check", "f.json", "--format", format], files: ["f.json": Self.snapshot(key: key, pages: pages)])
            #expect(status == 0, "warnings only")
            // One translation-missing finding a page, each naming the placement and its pointer.
            #expect(Self.occurrences(of: "translation-missing", in: output) >= pages, "\(format)")
            #expect(Self.occurrences(of: key, in: output) == (format == "json" ? 1 : 0), "\(format)")
            let cut = RepeatedText.shortened(key)
            #expect(Self.occurrences(of: cut, in: output) >= pages)
            sizes.append(output.utf8.count)
        }
        // Under 2 KB a finding beyond the key written once (it was over 100 KB a finding).
        #expect(sizes[1] - sizes[0] < 100 * 2_048, "\(sizes)")
        #expect(sizes[0] < key.utf8.count + 100 * 2_048 + 50_000, "\(sizes)")
    }

    /// A key up to the limit is written whole in every finding, as before.
    @Test(arguments: ["json", "sarif"])
    func aKeyUpToTheLimitIsWrittenWhole(format: String) throws {
        let key = String(repeating: "k", count: RepeatedText.wholeLimit)
        let (_, output) = Self.run(["check", "f.json", "--format", format], files: ["f.json": Self.snapshot(key: key, pages: 5)])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let findings: [[String: Any]]
        if format == "json" {
            let files = try #require(root["files"] as? [[String: Any]])
            findings = try #require(files.first?["findings"] as? [[String: Any]])
        } else {
            let runs = try #require(root["runs"] as? [[String: Any]])
            let results = try #require(runs.first?["results"] as? [[String: Any]])
            findings = results.compactMap { $0["properties"] as? [String: Any] }
        }
        #expect(findings.count >= 5)
        for finding in findings {
            #expect(finding["placement"] as? String == key)
            let pointer = try #require(finding["pointer"] as? String)
            #expect(pointer.hasPrefix("/placements/" + key))
        }
    }

    /// `history --format json`: each history finding names the placement and points into it.
    @Test func historyJSONCutsTheKey() throws {
        let key = String(repeating: "k", count: 50_000)
        // The same revision with other content: a finding about the placement in the second snapshot.
        // History reads its snapshots from disk: written into a folder of the test's own.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (a, b) = (folder + "/a.json", folder + "/b.json")
        try Data(Self.snapshot(key: key, pages: 3).utf8).write(to: URL(fileURLWithPath: a))
        try Data(Self.snapshot(key: key, pages: 3, title: "Hello", generatedAt: "1764500000000").utf8).write(to: URL(fileURLWithPath: b))
        let output = runAt(["history", a, b, "--format", "json"], clock: Date(timeIntervalSince1970: 1_764_600_000)).output
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(!findings.isEmpty)
        for finding in findings where finding["placement"] is String {
            #expect(finding["placement"] as? String == RepeatedText.shortened(key))
            #expect((finding["pointer"] as? String).map { $0.utf8.count <= 2 * RepeatedText.keptBytes + 3 } == true)
        }
    }

    /// `diff --format json`: each change names the placement and points into it.
    @Test func diffJSONStaysLinear() {
        let key = String(repeating: "k", count: 50_000)
        var sizes: [Int] = []
        for pages in [100, 200] {
            let files = ["old.json": Self.snapshot(key: key, pages: pages), "new.json": Self.snapshot(key: key, pages: pages, title: "Hello")]
            let (status, output) = Self.run(["diff", "old.json", "new.json", "--format", "json"], files: files)
            #expect(status == 0 || status == 1)
            #expect(!output.contains(key))
            #expect(Self.occurrences(of: RepeatedText.shortened(key), in: output) >= pages)
            sizes.append(output.utf8.count)
        }
        #expect(sizes[1] - sizes[0] < 100 * 4_096, "\(sizes)")
    }
}
