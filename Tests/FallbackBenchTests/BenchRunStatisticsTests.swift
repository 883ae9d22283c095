import Foundation
import Testing

@testable import fallback_bench

/// The runs of a whole-process row: user and system time apart, best and median of each, and the
/// ratios by wall and by user time side by side.
@Suite struct BenchRunStatisticsTests {
    private func run(_ wall: Double, user: Double, system: Double, peak: Int = 1_000_000) -> ChildRun {
        ChildRun(seconds: wall, userSeconds: user, systemSeconds: system, peakBytes: peak, exitStatus: 0)
    }

    @Test(arguments: [
        ([3.0], 3.0), ([2.0, 1.0], 1.5), ([5.0, 1.0, 3.0], 3.0), ([4.0, 1.0, 3.0, 2.0], 2.5), ([1.0, 9.0, 9.0], 9.0),
    ])
    func medianIsTheMiddleOfTheSortedValues(values: [Double], expected: Double) {
        #expect(median(values) == expected)
    }

    @Test func medianOfNothingIsNotANumber() {
        #expect(median([]).isNaN)
    }

    @Test func bestAndMedianAreTakenForEachTimeOnItsOwn() {
        // The fastest run by wall time paid the most system time: its figures are not the best user or system times.
        let runs = ChildRuns([
            run(2.0, user: 2.3, system: 1.5, peak: 70_000_000), run(1.4, user: 2.2, system: 0.9, peak: 75_000_000),
            run(3.0, user: 2.1, system: 0.2, peak: 72_000_000),
        ])
        let best = runs.best
        #expect(best.seconds == 1.4)
        #expect(best.userSeconds == 2.1)
        #expect(best.systemSeconds == 0.2)
        #expect(best.peakBytes == 75_000_000)
        let middle = runs.median
        #expect(middle.seconds == 2.0)
        #expect(middle.userSeconds == 2.2)
        #expect(middle.systemSeconds == 0.9)
        #expect(middle.peakBytes == 75_000_000)
    }

    @Test func aRowOfSeveralRunsPrintsTheMedianBesideTheBest() {
        let runs = ChildRuns([run(1.35, user: 2.2, system: 0.2, peak: 65_000_000), run(2.05, user: 2.3, system: 1.0, peak: 66_000_000)])
        #expect(runs.summary == "best 1.350 s wall, 2.200 user, 0.200 sys; median 1.700 s wall, 2.250 user, 0.600 sys; peak 66 MB")
    }

    @Test func aRowOfOneRunHasNoMedian() {
        let runs = ChildRuns([run(19.7, user: 20.2, system: 1.25, peak: 389_000_000)])
        #expect(runs.summary == "19.700 s wall, 20.200 user, 1.250 sys; peak 389 MB")
    }

    @Test func growthIsOursOverTheAnchorByWallAndByUserTime() {
        // System time swings (the 10k build's wall time with it); user time grows with the work.
        let small = ChildRuns([run(1.5, user: 2.0, system: 0.2), run(2.5, user: 2.2, system: 1.4)])
        let large = ChildRuns([run(19.5, user: 18.4, system: 3.0), run(27.0, user: 20.0, system: 9.0)])
        let growth = RunComparison(large, small)
        #expect(abs(growth.wall - 13) < 1e-9)
        #expect(abs(growth.user - 9.2) < 1e-9)
        #expect(abs(growth.medianWall - 23.25 / 2) < 1e-9)
        #expect(abs(growth.medianUser - 19.2 / 2.1) < 1e-9)
        #expect(abs(growth.cpu - 21.4 / 2.2) < 1e-9)
        #expect(growth.summary == "13.00× by wall time, 9.20× by user time (medians 11.63×, 9.14×; by CPU time 9.73×)")
    }

    @Test func aSpeedUpIsTheAnchorsTimeOverOurs() {
        let ours = ChildRuns([run(0.4, user: 0.6, system: 0.1)])
        let anchor = ChildRuns([run(0.5, user: 0.45, system: 0.05)])
        let speedUp = RunComparison(ours, anchor, speed: true)
        #expect(abs(speedUp.wall - 1.25) < 1e-9)
        #expect(abs(speedUp.user - 0.75) < 1e-9)
        #expect(abs(speedUp.cpu - 0.5 / 0.7) < 1e-9)
    }

    @Test func alternatedRoundsRunEachCommandOnceInTurn() throws {
        var order: [String] = []
        var clock = 0.0
        let commands = [ChildCommand("ours", []), ChildCommand("anchor", [])]
        let measured = try measureAlternated(commands, runs: 3) { command in
            order.append(command.executable)
            clock += 1
            return run(clock, user: clock, system: 0)
        }
        #expect(order == ["ours", "anchor", "ours", "anchor", "ours", "anchor"])
        #expect(measured.map { $0.runs.map(\.seconds) } == [[1, 3, 5], [2, 4, 6]])
    }

    @Test func roundsOfCommandsThatWriteFilesGiveEachRunItsOwnOutput() throws {
        var ran: [[String]] = []
        var clock = 0.0
        let measured = try measureAlternated(runs: 3, commands: { round in
            [ChildCommand("ours", ["--out", "small-\(round)"]), ChildCommand("ours", ["--out", "large-\(round)"]), ChildCommand("hugo", ["-d", "public-\(round)"])]
        }) { command in
            ran.append([command.executable] + command.arguments)
            clock += 1
            return run(clock, user: clock, system: 0)
        }
        #expect(ran.map { $0.last! } == ["small-0", "large-0", "public-0", "small-1", "large-1", "public-1", "small-2", "large-2", "public-2"])
        #expect(measured.map { $0.runs.map(\.seconds) } == [[1, 4, 7], [2, 5, 8], [3, 6, 9]])
    }

    @Test func aMeanRunAveragesEachTimeAndKeepsTheHighestPeak() {
        let runs = [
            ChildRun(seconds: 0.2, userSeconds: 0.3, systemSeconds: 0.05, peakBytes: 40, exitStatus: 0),
            ChildRun(seconds: 0.4, userSeconds: 0.5, systemSeconds: 0.15, peakBytes: 70, exitStatus: 0),
            ChildRun(seconds: 0.9, userSeconds: 0.7, systemSeconds: 0.10, peakBytes: 50, exitStatus: 0),
        ]
        let mean = ChildRun(meanOf: runs)
        #expect(abs(mean.seconds - 0.5) < 1e-9)
        #expect(abs(mean.userSeconds - 0.5) < 1e-9)
        #expect(abs(mean.systemSeconds - 0.1) < 1e-9)
        #expect(mean.peakBytes == 70)
    }

    @Test func inProcessRoundsRunEachBodyOnceInTurnAndKeepTheirTimingsInOrder() throws {
        var order: [Int] = []
        let measured = try measureAlternated(runs: 4, [
            { order.append(0); return 10 },
            { order.append(1); return 20 },
            { order.append(2); return 30 },
        ])
        #expect(order == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
        #expect(measured.map(\.timing.result) == [10, 20, 30])
        #expect(measured.allSatisfy { $0.rounds.count == 4 && $0.timing.seconds == $0.rounds.min() })
    }

    @Test func alternatedRunsAlsoGiveTheMedianOfEachRoundsRatio() {
        // Round 2 was slow for both: best against best and round by round tell different stories.
        let ours = ChildRuns([run(0.4, user: 0.6, system: 0.1), run(0.9, user: 0.7, system: 0.1), run(0.5, user: 0.6, system: 0.1)])
        let anchor = ChildRuns([run(1.0, user: 0.9, system: 0.1), run(2.7, user: 1.0, system: 0.1), run(1.6, user: 0.9, system: 0.1)])
        let speedUp = RunComparison(ours, anchor, speed: true, alternated: true)
        #expect(abs(speedUp.wall - 2.5) < 1e-9)
        #expect(abs(speedUp.roundMedianWall! - 3.0) < 1e-9)
        #expect(speedUp.summary.hasSuffix("; round by round, median 3.00×)"))
        #expect(RunComparison(ours, anchor, speed: true).roundMedianWall == nil)
        #expect(abs(roundMedianSpeedUp([0.4, 0.9, 0.5], [1.0, 2.7, 1.6]) - 3.0) < 1e-9)
    }

    @Test func theSummaryJudgesTheUserFigureBesideTheWallAndCPUFigures() {
        let goal = Goal(name: "build: 10k vs 1k", bound: .below(10), unit: .times, figure: 13.6, cpuFigure: 12.4, userFigure: 9.2)
        #expect(goal.verdict == "misses")
        #expect(goal.summaryLine.hasSuffix("misses (by user time 9.20×: holds; by CPU time 12.40×: misses)"))
    }

    @Test func theResultLineCarriesUserAndSystemTimeApart() {
        let measured = ChildRun(seconds: 1.5, userSeconds: 2.25, systemSeconds: 0.75, peakBytes: 4096, exitStatus: 3)
        #expect(measured.resultLine == "1.5 2.25 0.75 4096 768")
        let read = ChildRun(resultLine: measured.resultLine)
        #expect(read?.userSeconds == 2.25)
        #expect(read?.systemSeconds == 0.75)
        #expect(read?.cpuSeconds == 3)
        #expect(read?.exitStatus == 3)
        // A line in the old four-column shape (user and system added up) is not read as one.
        #expect(ChildRun(resultLine: "1.5 3.0 4096 768") == nil)
    }

    @Test func aBusyLoopIsCountedAsUserTime() {
        let result = ChildCommand.spawnAndWait(["/bin/sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done"], actions: nil)
        guard case .success(let measured) = result else {
            Issue.record("sh did not run: \(result)")
            return
        }
        #expect(measured.exitStatus == 0)
        #expect(measured.userSeconds > measured.systemSeconds)
        #expect(measured.cpuSeconds == measured.userSeconds + measured.systemSeconds)
    }

    @Test func queuedFoldersStayUntilTheBenchmarkEnds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-spent-test-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/site-0", withIntermediateDirectories: true)
        try Data("<p>page</p>".utf8).write(to: URL(fileURLWithPath: folder + "/site-0/index.html"))
        FileSystemSettling.removeAtEnd(folder)
        #expect(FileManager.default.fileExists(atPath: folder + "/site-0/index.html"))
        FileSystemSettling.removeSpent()
        #expect(!FileManager.default.fileExists(atPath: folder))
    }
}

/// Each goal's line in the summary shows what its figure was computed from in the same run.
@Suite struct BenchGoalAnchorTests {
    @Test func theAnchorComesFirstBesideTheFigure() {
        let goal = Goal(
            name: "whole-process check vs JSONDecoder", bound: .atLeast(3), unit: .times, figure: 1.25, cpuFigure: 0.9, userFigure: 0.95,
            anchor: "check \(secondsText(0.4)) vs JSONDecoder \(secondsText(0.5))")
        #expect(goal.summaryLine.hasSuffix("misses (check 0.40 s vs JSONDecoder 0.50 s; by user time 0.95×: misses; by CPU time 0.90×: misses)"))
    }

    @Test func aGoalWithoutAnAnchorKeepsItsNote() {
        let goal = Goal(name: "build peak", bound: .below(400), unit: .megabytes, figure: 391, note: "one run")
        #expect(goal.summaryLine.hasSuffix("holds (one run)"))
    }

    @Test(arguments: [(0.0605, "60.5 ms"), (0.35249, "352.5 ms"), (1.5, "1,500.0 ms")])
    func millisecondsAreWrittenWithOneDecimal(seconds: Double, text: String) {
        #expect(millisecondsText(seconds) == text)
    }
}
