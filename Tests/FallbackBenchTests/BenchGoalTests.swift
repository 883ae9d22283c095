import Testing

@testable import fallback_bench

@Suite struct BenchGoalTests {
    @Test(arguments: [
        (Goal.Bound.atLeast(3), 3.0, "holds"), (.atLeast(3), 2.99, "misses"), (.atLeast(800), 1_100, "holds"),
        (.below(400), 399.9, "holds"), (.below(400), 400, "misses"), (.below(10), .infinity, "misses"),
        (.atMost(1.2), 1.2, "holds"), (.atMost(1.2), 1.21, "misses"),
    ])
    func verdictFollowsTheFigure(bound: Goal.Bound, figure: Double, verdict: String) {
        let goal = Goal(name: "g", bound: bound, unit: .times, figure: figure)
        #expect(goal.verdict == verdict)
        #expect(goal.summaryLine.hasSuffix(verdict))
    }

    @Test func aGoalWithoutAFigureIsNotMeasuredAndSaysHowToMeasureIt() {
        let goal = Goal(name: "history --git-history", bound: .atMost(1.2), unit: .times, figure: nil, note: "add --git")
        #expect(goal.holds == nil)
        #expect(goal.verdict == "not measured")
        #expect(goal.summaryLine.hasSuffix("not measured (add --git)"))
        #expect(goal.summaryLine.contains("≤ 1.20×"))
    }

    @Test func summaryLineShowsBoundAndFigureInTheirUnits() {
        let line = Goal(name: "build peak", bound: .below(400), unit: .megabytes, figure: 2_431.4).summaryLine
        #expect(line.contains("< 400 MB"))
        #expect(line.contains("2,431 MB"))
        #expect(line.hasSuffix("misses"))
    }

    @Test func theCPUFigureIsJudgedBesideTheWallFigure() {
        let goal = Goal(name: "check vs JSONDecoder", bound: .atLeast(3), unit: .times, figure: 2.5, cpuFigure: 3.4)
        #expect(goal.verdict == "misses")
        #expect(goal.summaryLine.hasSuffix("misses (by CPU time 3.40×: holds)"))
        let both = Goal(name: "g", bound: .below(10), unit: .seconds, figure: 12, note: "one run", cpuFigure: 11)
        #expect(both.summaryLine.hasSuffix("misses (by CPU time 11.00 s: misses; one run)"))
    }

    @Test(arguments: [
        (9.9, 0.5, Growth.linear), (12, 0.5, .superlinear), (49, 0.5, .superlinear), (50, 0.5, .quadratic), (100, 0.05, .quadratic),
        (5, 0.001, .tooSmall), (20, 0.03, .tooSmall), (Double.infinity, 0.5, .tooSmall), (Double.nan, 0.5, .tooSmall),
    ])
    func growthIsJudgedFromTheRatioWhenTheWorkIsLargeEnough(ratio: Double, small: Double, growth: Growth) {
        #expect(Growth(ratio: ratio, small: small) == growth)
    }

    @Test func scalingRatioIsOfCPUTimeWithStartUpTakenOff() {
        let scalingCase = ScalingCase(name: "n", command: .check, size: 1) { _, _ in "" }
        // Wall time stretched by a busy machine does not count: the ratio is of CPU time.
        let small = ChildRun(seconds: 0.9, userSeconds: 0.1, systemSeconds: 0.05, peakBytes: 0, exitStatus: 0)
        let large = ChildRun(seconds: 1.1, userSeconds: 0.95, systemSeconds: 0.1, peakBytes: 0, exitStatus: 0)
        let result = ScalingResult(scalingCase: scalingCase, small: small, large: large, startUp: 0.05)
        #expect(abs(result.growthRatio - 10) < 1e-9)
        #expect(result.growth == .linear)
        // Without the start-up taken off, the same runs would read 7×, hiding growth.
        #expect(ratio(large.cpuSeconds, small.cpuSeconds) < 8)
    }

    @Test(arguments: [
        (1_234.5, 1, "1,234.5"), (0, 2, "0.00"), (2.005, 0, "2"), (1_000_000, 0, "1,000,000"), (0.07, 2, "0.07"),
        (-3.25, 1, "-3.3"), (999.96, 1, "1,000.0"), (Double.infinity, 2, "∞"),
    ])
    func decimalFormatsTheSameEverywhere(value: Double, places: Int, text: String) {
        #expect(decimal(value, places: places) == text)
    }

    @Test func visibleTextSkipsTagsScriptsAndStylesAndFoldsWhiteSpace() {
        let html = "<html><head><style>p { color: red }</style><script>if (a < b) {}</script></head>"
            + "<body>\n  <p>Hello,   <b>world</b></p>\n</body></html>"
        #expect(visibleTextBytes(Array(html.utf8)) == "Hello, world ".utf8.count)
        #expect(visibleTextBytes(Array("<p>".utf8)) == 0)
    }

    /// fast-import reads `data N` as N bytes: "é" is one character and two bytes.
    @Test func fastImportCommitCountsTheBytesOfItsData() {
        let text = "{\"é\":1}"
        let stream = String(decoding: fastImportCommit(index: 2, path: "f.json", text: text), as: UTF8.self)
        #expect(text.count == 7)
        #expect(
            stream == "commit refs/heads/main\ncommitter Bench <bench@example.com> 1767398400 +0000\ndata 10\nrelease 2\n"
                + "M 100644 inline f.json\ndata 8\n\(text)\n\n")
    }
}

/// The low-level spawn the measuring process uses: exit statuses, signals and peak memory.
@Suite struct BenchChildProcessTests {
    private func waited(_ script: String) -> ChildRun {
        let result = ChildCommand.spawnAndWait(["/bin/sh", "-c", script], actions: nil)
        guard case .success(let run) = result else {
            Issue.record("sh did not run: \(result)")
            return ChildRun(seconds: 0, peakBytes: 0)
        }
        // What the measuring process writes is read back whole.
        let line = run.resultLine
        #expect(ChildRun(resultLine: line).map(\.resultLine) == line)
        return run
    }

    @Test(arguments: [0, 1, 3, 255])
    func exitStatusIsRead(status: Int32) {
        let run = waited("exit \(status)")
        #expect(run.exitStatus == status)
        #expect(run.signal == nil)
        #expect(run.peakBytes > 0)
        #expect(run.seconds >= 0)
        #expect(run.cpuSeconds >= 0)
    }

    @Test func aSignalIsToldApartFromAnExit() {
        let run = waited("kill -9 $$")
        #expect(run.exitStatus == nil)
        #expect(run.signal == 9)
    }

    @Test(arguments: ["", "1.0 0.5 1024", "1.0 0.5 x 0", "fast 0 0 0"])
    func aResultLineThatIsNotOneIsRefused(line: String) {
        #expect(ChildRun(resultLine: line) == nil)
    }

    @Test func aMissingProgramIsAnError() {
        let result = ChildCommand.spawnAndWait(["/nonexistent/fallback-bench-test-program"], actions: nil)
        guard case .failure = result else {
            Issue.record("spawning a missing program succeeded: \(result)")
            return
        }
    }
}
