import FallbackCLI
import Foundation
import Testing

/// `build` on a terminal: one progress line that the last page ends, then the summary; nothing
/// but errors with `--quiet`. (The pipeline reports each page once; the command draws the line.)
@Suite("build's progress on a terminal")
struct BuildProgressTests {
    func build(_ arguments: [String]) -> (status: Int32, error: String) {
        let capture = Capture()
        let environment = CommandEnvironment(
            writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
            readFile: { [UInt8](try Data(contentsOf: URL(fileURLWithPath: $0))) }, writeFile: { capture.write($0, $1) },
            now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: [:], isErrorTerminal: true)
        let status = CommandLineTool.run(["build"] + arguments, in: environment)
        return (status, capture.snapshot.1)
    }

    @Test func oneLineThenTheSummary() throws {
        let root = try temporaryFolder()
        let out = root + "/site"
        let result = build([funnelEraPath, "--out", out])
        #expect(result.status == 0)
        let pages = try FileManager.default.subpathsOfDirectory(atPath: out).count { $0.hasSuffix(".html") }
        #expect(pages > 0)
        // The progress redraws one line, which the last page ends; then the summary.
        #expect(result.error.hasPrefix("\rRendering pages: "))
        #expect(result.error.hasSuffix("\rRendering pages: \(pages)/\(pages)\nwrote \(pages) pages to \(out); open \(out)/index.html\n"))
        #expect(result.error.split(separator: "\n").count == 2)
        #expect(build([funnelEraPath, "--out", out, "--quiet"]).error.isEmpty)
    }
}
