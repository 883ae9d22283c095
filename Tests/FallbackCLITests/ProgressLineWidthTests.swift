@testable import FallbackCLI
import Foundation
import Testing

/// The progress line fits one row of the terminal it is drawn on, so a redraw never wraps and
/// leaves a trail: the terminal's width (`CommandEnvironment.terminalColumns`), else `COLUMNS`,
/// else 80, less one column.
@Suite("Progress line width")
struct ProgressLineWidthTests {
    /// The longest line drawn by `history Examples` on a terminal, with `configure` applied.
    func widestDraw(_ configure: @escaping (inout CommandEnvironment) -> Void) -> Int {
        let result = runOnTerminal(["history", repositoryPath("Examples")], clockStep: 2, configure: configure)
        let draws = result.error.components(separatedBy: "\r").map { $0.replacingOccurrences(of: ProgressLine.clearToEnd, with: "") }
        #expect(draws.contains { $0.hasPrefix("Checking snapshots") })
        return draws.map(\.count).max() ?? 0
    }

    @Test(arguments: [24, 40, 200])
    func fitsTheTerminalsWidth(columns: Int) {
        let widest = widestDraw { $0.terminalColumns = { columns } }
        #expect(widest <= columns - 1)
        if columns < 50 { #expect(widest == columns - 1) }
    }

    @Test func fallsBackToColumnsThenEighty() {
        #expect(widestDraw { $0.terminalColumns = { nil }; $0.variables["COLUMNS"] = "30" } == 29)
        var environment = CommandEnvironment(
            writeOutput: { _ in }, writeError: { _ in }, readFile: { _ in [] }, writeFile: { _, _ in }, now: { Date() }, variables: [:])
        environment.terminalColumns = { nil }
        #expect(environment.errorTerminalWidth == 80)
        environment.variables["COLUMNS"] = "not a number"
        #expect(environment.errorTerminalWidth == 80)
        environment.variables["COLUMNS"] = "132"
        #expect(environment.errorTerminalWidth == 132)
        environment.terminalColumns = { 50 }
        #expect(environment.errorTerminalWidth == 50)
    }
}
