@testable import FallbackCLI
import Foundation
import Testing

/// A path in a one-line message on standard error cannot forge another line or drive the
/// terminal: a line feed, a carriage return and ESC inside it are spelled out (`<U+000A>`), as
/// check, history and diff spell them out.
@Suite("One-line messages spell out line breaks in paths")
struct OneLineMessageTests {
    static let hostileName = "o\nfake line\r\u{1B}[31mred"
    static let spelled = "o<U+000A>fake line<U+000D><U+001B>[31mred"

    /// Every line `text` holds, each of which must be one the tool wrote.
    func lines(_ text: String) -> [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    @Test func buildsWroteLineNamesTheOutputOnOneLine() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let out = root + "/" + Self.hostileName
        let result = run(["build", repositoryPath("Examples/2026-07-21-release-3.4.json"), "--out", out])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("\u{1B}") && !result.error.contains("\r"))
        let wrote = lines(result.error).filter { $0.hasPrefix("wrote ") }
        #expect(wrote.count == 1)
        #expect(wrote.first?.contains(Self.spelled) == true, "\(result.error)")
        #expect(!lines(result.error).contains { $0.hasPrefix("fake line") })
    }

    @Test func watchLinesNameChangedFilesOnOneLine() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let snapshots = root + "/" + Self.hostileName
        try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
        let example = repositoryPath("Examples/2026-03-03-release-3.0.json")
        try FileManager.default.copyItem(atPath: example, toPath: snapshots + "/a.json")
        let script = WatchScript([
            { try? FileManager.default.copyItem(atPath: repositoryPath("Examples/2026-04-14-release-3.1.json"), toPath: snapshots + "/b\nforged.json") },
            {},
        ])
        let result = runOnTerminal(["build", "--watch", snapshots, "--out", root + "/site"], terminal: false, clockStep: 1.5) {
            $0.watch = script.control
        }
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.error.contains("\u{1B}") && !result.error.contains("\r"))
        let all = lines(result.error)
        #expect(all.contains { $0.hasPrefix("watching \(root)/\(Self.spelled), ") }, "\(result.error)")
        #expect(all.contains { $0.hasPrefix("changed: \(root)/\(Self.spelled)/b<U+000A>forged.json → rebuilt") }, "\(result.error)")
        #expect(!all.contains { $0.hasPrefix("fake line") || $0.hasPrefix("forged") })
    }

    /// A message of several lines the tool wrote (a usage error) keeps its lines; what the user
    /// typed inside it is spelled out.
    @Test func usageErrorKeepsItsOwnLines() {
        let result = run(["check", "--bogus\nUsage: forged"])
        #expect(result.status == 2)
        #expect(lines(result.error).filter { $0.hasPrefix("Usage: ") }.count == 1, "\(result.error)")
        #expect(result.error.contains("--bogus<U+000A>Usage: forged"))
    }
}
