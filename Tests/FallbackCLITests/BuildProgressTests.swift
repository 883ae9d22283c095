import Foundation
import Testing

/// `build` on a terminal: once the build has lasted a second, one progress line redrawn in place,
/// cleared before the summary; nothing for a quick build, nothing but errors with `--quiet`.
/// (The pipeline reports each page once; the command draws the line. The clock is the test's.)
@Suite("build's progress on a terminal")
struct BuildProgressTests {
    func build(_ arguments: [String], clockStep: Double) -> (status: Int32, error: String) {
        let result = runOnTerminal(["build"] + arguments, clockStep: clockStep)
        return (result.status, result.error)
    }

    @Test func oneLineThenTheSummary() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        let result = build([funnelEraPath, "--out", out], clockStep: 2)
        #expect(result.status == 0)
        let pages = try FileManager.default.subpathsOfDirectory(atPath: out).count { $0.hasSuffix(".html") }
        #expect(pages > 0)
        // The progress redraws one line, which is cleared before the summary.
        let summary = "wrote \(pages) pages to \(out); open \(out)/index.html\n"
        #expect(result.error.hasPrefix("\rRendering pages: "))
        #expect(result.error.contains("\rRendering pages: \(pages)/\(pages)\u{1B}[K"))
        #expect(result.error.hasSuffix("\rWriting \(pages) pages\u{1B}[K\r\u{1B}[K" + summary))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(build([funnelEraPath, "--out", out], clockStep: 0).error == summary)
        #expect(build([funnelEraPath, "--out", out, "--quiet"], clockStep: 2).error.isEmpty)
    }
}
