// The scaling table: each dimension at N and 10N, as whole `fallback-site` processes.
import Foundation

/// One row of the scaling table: a dimension, the command that exercises it and its input at size n.
struct ScalingCase {
    enum Command: String, CaseIterable {
        case check, build, history, diff
    }

    var name: String
    var command: Command
    /// N; the row also runs 10N.
    var size: Int
    /// Writes the input of size n into the folder and returns what to pass to the command.
    var input: (_ size: Int, _ folder: BenchFolder) throws -> String
}

/// A measured row: the runs at N and 10N, and how the CPU time grew, start-up taken off. CPU time
/// (user and system), not wall time, since the machine's load stretches wall time run by run.
struct ScalingResult {
    var scalingCase: ScalingCase
    var small: ChildRun
    var large: ChildRun
    /// The CPU time a process of this command takes on an empty input.
    var startUp: Double

    /// How many times N runs, back to back, in each round before 10N runs once. The ten runs of N
    /// take about as long as the one of 10N, so a busy spell of the machine falls on both alike.
    /// Run once a round each, the short run of N caught a quiet moment far more often than the
    /// long run of 10N could, and best against best read as worse than linear: the same binary's
    /// looping-pages `check` read 10.7× in one table and 14.9× in the next, where callgrind counts
    /// grow linearly.
    static let smallRunsPerRound = 10

    var growthRatio: Double { ratio(max(large.cpuSeconds - startUp, 0), max(small.cpuSeconds - startUp, 0)) }
    var growth: Growth { Growth(ratio: growthRatio, small: small.cpuSeconds - startUp) }
}

/// The rows, with N from the options (`--scale-placements`, `--scale-pages`, `--scale-pages-build`, …).
func scalingCases(option optionValue: (String, Int) -> Int) -> [ScalingCase] {
    func file(_ make: @escaping (Int) -> String) -> (Int, BenchFolder) throws -> String {
        { size, folder in try folder.write(make(size), to: "input-\(size).json") }
    }
    let releases: (Int, BenchFolder) throws -> String = { size, folder in
        let path = folder.file("releases-\(size)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try ScalingInputs.forEachRelease(size, placements: 100, changes: 5) { index, text in
            try Data(text.utf8).write(to: URL(fileURLWithPath: (path as NSString).appendingPathComponent(String(format: "release-%05d.json", index))))
        }
        return path
    }
    // N for each row: `--scale-NAME` for check (and history), `--scale-NAME-build` for build, whose
    // work per item is larger. The defaults give each row about 50 ms of work or more at N on a
    // quiet machine, raised as the commands got faster: a row of 20 to 30 ms at N read as 14× to
    // 20× on a machine busy with a build, where callgrind counted 9.4× (locales, 50,000 to 500,000).
    // Locales went from 100,000 to 200,000 when `KeyPositions` took their check at N under 50 ms.
    func dimension(_ name: String, _ option: String, check: Int, build: Int?, _ make: @escaping (Int) -> String) -> [ScalingCase] {
        let checked = ScalingCase(name: name, command: .check, size: optionValue("scale-\(option)", check), input: file(make))
        guard let build else { return [checked] }
        return [checked, ScalingCase(name: name, command: .build, size: optionValue("scale-\(option)-build", build), input: file(make))]
    }
    let history = ScalingCase(
        name: "snapshots (history fold, 100 placements)", command: .history, size: optionValue("scale-snapshots", 20), input: releases)
    // The same releases as a series site: a page per snapshot and per pair, each snapshot's
    // listed findings and each pair's diff kept until the pages are written.
    let series = ScalingCase(
        name: "snapshots (series site, 100 placements)", command: .build, size: optionValue("scale-series", 20), input: releases)
    /// Files written into a folder of their own, which the command reads (a release series for
    /// `history`, the old and new snapshot for `diff`).
    func folder(_ name: String, _ make: @escaping (Int) -> [String]) -> (Int, BenchFolder) throws -> String {
        { size, folder in
            let path = folder.file("\(name)-\(size)")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (index, text) in make(size).enumerated() {
                _ = try BenchFolder(existing: path).write(text, to: String(format: "release-%05d.json", index))
            }
            return path
        }
    }
    let rows: [[ScalingCase]] = [
        dimension("placements (sample)", "placements", check: 2_000, build: nil, ScalingInputs.placements),
        dimension("pages per funnel (branching quiz)", "pages", check: 20_000, build: 1_000, ScalingInputs.quizPages),
        dimension("options per page, each with an imageUrl", "options", check: 100_000, build: 6_000, ScalingInputs.options),
        dimension("findings (rules to unknown pages, one funnel)", "findings", check: 20_000, build: 1_500, ScalingInputs.unknownTargets),
        dimension("short unknown targets among 200 ids of N letters", "short-targets", check: 10_000, build: nil, ScalingInputs.shortTargetsAmongLongIds),
        [history, series],
        dimension("pages that all loop back (cycles)", "loops", check: 40_000, build: 3_000, ScalingInputs.loopingPages),
        dimension("one key written N times (duplicate keys)", "keys", check: 40_000, build: 10_000, ScalingInputs.repeatedKey),
        dimension("locales of one text, in reverse order", "locales", check: 200_000, build: 10_000, ScalingInputs.reversedLocales),
        dimension("clauses on unknown values of N options", "clauses", check: 20_000, build: 3_000, ScalingInputs.unknownOptionValues),
        dimension("a clause value of N objects, copied whole", "clause-objects", check: 100_000, build: 50_000, ScalingInputs.objectsInAClauseValue),
        dimension("N combining marks in every id and text", "marks", check: 40_000, build: 20_000, ScalingInputs.combiningMarks),
        dimension("N pages, each missing N declared locales", "page-locales", check: 5_000, build: 500, ScalingInputs.pagesMissingLocales),
        // Only build spelled a path per URL or packed a row per label; check is fast on both
        // (under 40 ms of work at ten times these N), so these rows time build alone.
        [
            ScalingCase(
                name: "a key of N characters over N image URLs", command: .build, size: optionValue("scale-long-key", 10_000),
                input: file(ScalingInputs.longKeyOverValues)),
            ScalingCase(
                name: "N rules from one page to another", command: .build, size: optionValue("scale-same-target-rules", 10_000),
                input: file(ScalingInputs.rulesToOnePage)),
            // Build alone: check's JSON report spells each finding's whole pointer, as a complete
            // report must, so its output is N² bytes here whatever the program does.
            ScalingCase(
                name: "N findings under a placement key of N letters", command: .build,
                size: optionValue("scale-keyed-findings", 2_000), input: file(ScalingInputs.findingsUnderLongKey)),
            ScalingCase(
                name: "N rules from a page whose id is N letters", command: .build,
                size: optionValue("scale-long-page-id", 2_000), input: file(ScalingInputs.rulesFromALongPageId)),
            ScalingCase(
                name: "N placements serving copies of a funnel of N pages", command: .build,
                size: optionValue("scale-funnel-copies", 1_000), input: file(ScalingInputs.copiesOfAFunnel)),
            ScalingCase(
                name: "N variants against a first variant's funnel of N pages", command: .build,
                size: optionValue("scale-wide-variants", 1_000), input: file(ScalingInputs.variantsAgainstAWideFunnel)),
        ],
        [
            ScalingCase(
                name: "N clauses of a rule, every value changed", command: .diff, size: optionValue("scale-changed-clauses", 20_000),
                input: folder("changed-clauses") { ScalingInputs.changedClauses($0) }),
            ScalingCase(
                name: "N numbers under 120 nested arrays, the last one changed", command: .diff,
                size: optionValue("scale-deep-value", 200_000), input: folder("deep-value") { ScalingInputs.deepValue($0) }),
            ScalingCase(
                name: "a plain text of N words becoming a text for N locales", command: .diff,
                size: optionValue("scale-plain-to-locales", 100_000), input: folder("plain-to-locales") { ScalingInputs.plainTextToLocales($0) }),
            ScalingCase(
                name: "N variants of an experiment, all renamed", command: .history, size: optionValue("scale-renamed-variants", 5_000),
                input: folder("renamed-variants") { ScalingInputs.renamedVariants($0) }),
            ScalingCase(
                name: "N releases, each replacing the last one's placement", command: .history,
                size: optionValue("scale-replaced-placements", 1_000), input: folder("replaced-placements") { ScalingInputs.replacedPlacements($0) }),
        ],
    ]
    return rows.flatMap { $0 }
}

/// Runs every case at N and 10N (best of `runs`), prints the table and returns the linearity goal.
func measureScaling(_ cases: [ScalingCase], runs: Int, site: SiteCommands) throws -> [Goal] {
    let folder = try BenchFolder("scaling")
    let inputs = BenchFolder(existing: folder.file("in"))
    // Each build into a fresh folder, removed when the benchmark ends (FileSystemSettling).
    let outputs = BenchFolder(existing: folder.file("out"))
    try FileManager.default.createDirectory(atPath: inputs.path, withIntermediateDirectories: true)

    var built = 0
    func command(_ kind: ScalingCase.Command, _ input: String) -> ChildCommand {
        switch kind {
        case .check: return site.check([input])
        case .build:
            built += 1
            try? FileManager.default.createDirectory(atPath: outputs.path, withIntermediateDirectories: true)
            return site.build([input], out: outputs.file("site-\(built)"))
        case .history: return site.history([input])
        case .diff: return site.diff(old: (input as NSString).appendingPathComponent("release-00000.json"), new: (input as NSString).appendingPathComponent("release-00001.json"))
        }
    }
    // What each command costs on an empty input: process start-up, taken off every time below.
    // Best of as many runs as N gets (a few milliseconds each): best of three once read 27 ms for
    // a start-up of 7 to 11, and taking that off a row's N moved its ratio by a whole point.
    let empty = try inputs.write(ScalingInputs.empty, to: "empty.json")
    let emptyFolder = inputs.file("empty-history")
    try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
    try BenchFolder(existing: emptyFolder).write(ScalingInputs.empty, to: "release-00000.json")
    // `diff` reads the first two releases of a folder (as its rows' inputs are written).
    let emptyPair = inputs.file("empty-diff")
    try FileManager.default.createDirectory(atPath: emptyPair, withIntermediateDirectories: true)
    for name in ["release-00000.json", "release-00001.json"] { try BenchFolder(existing: emptyPair).write(ScalingInputs.empty, to: name) }
    var startUp: [ScalingCase.Command: Double] = [:]
    for kind in ScalingCase.Command.allCases {
        let input = kind == .history ? emptyFolder : kind == .diff ? emptyPair : empty
        startUp[kind] = try measureChild(runs: runs * ScalingResult.smallRunsPerRound) { _ in command(kind, input) }.best.cpuSeconds
    }
    print("")
    print("scaling: whole fallback-site processes in \(runs) rounds, each \(ScalingResult.smallRunsPerRound) runs of N back to back then one of 10N; N's figures are "
        + "a round's mean run, best round; 10N's the best run. The ratio is of CPU time, steadier on a busy")
    print("machine, less the CPU time of the same command on an empty input (start-up: check \(decimal(startUp[.check]! * 1000, places: 0)) ms, "
        + "build \(decimal(startUp[.build]! * 1000, places: 0)) ms, history \(decimal(startUp[.history]! * 1000, places: 0)) ms, "
        + "diff \(decimal(startUp[.diff]! * 1000, places: 0)) ms); linear is under 12× for 10× the input")
    // Wide enough for the longest row's name and a space: a longer name ran into the command.
    let nameWidth = max(46, (cases.map(\.name.count).max() ?? 0) + 1)
    let columns: [(String, Int)] = [
        ("dimension", nameWidth), ("command", 8), ("N", 10), ("wall", 9), ("user", 9), ("sys", 9), ("peak", 8), ("10N", 10), ("wall", 9), ("user", 9), ("sys", 9),
        ("peak", 8),
        ("input", 8), ("ratio", 8),
    ]
    print(columns.map { $0.0.padded(to: $0.1) }.joined() + "growth")
    var results: [ScalingResult] = []
    for scalingCase in cases {
        // Each round: N ten times back to back, then 10N once (`ScalingResult.smallRunsPerRound`).
        let sized = try [scalingCase.size, scalingCase.size * 10].map { try scalingCase.input($0, inputs) }
        let inputGrowth = ratio(Double(byteCount(of: sized[1])), Double(byteCount(of: sized[0])))
        let repeats = ScalingResult.smallRunsPerRound
        let measured = try measureAlternated(runs: runs) { _ in
            (0..<repeats).map { _ in command(scalingCase.command, sized[0]) } + [command(scalingCase.command, sized[1])]
        }
        for input in sized { try? FileManager.default.removeItem(atPath: input) }
        // N: each round's mean run, then the best round.
        let small = ChildRuns(measured[0].runs.indices.map { round in ChildRun(meanOf: measured.prefix(repeats).map { $0.runs[round] }) }).best
        let result = ScalingResult(scalingCase: scalingCase, small: small, large: measured[repeats].best, startUp: startUp[scalingCase.command]!)
        results.append(result)
        func cells(_ size: Int, _ run: ChildRun) -> [String] {
            let peak = decimal(megabytes(run.peakBytes), places: 0)
            return [
                decimal(Double(size), places: 0).padded(to: 10), "\(decimal(run.seconds, places: 3)) s".padded(to: 9),
                "\(decimal(run.userSeconds, places: 3)) s".padded(to: 9), "\(decimal(run.systemSeconds, places: 3)) s".padded(to: 9),
                "\(peak) MB".padded(to: 8),
            ]
        }
        let name = [scalingCase.name.padded(to: nameWidth), scalingCase.command.rawValue.padded(to: 8)]
        let growth = [
            "\(decimal(inputGrowth, places: 1))×".padded(to: 8), "\(decimal(result.growthRatio, places: 1))×".padded(to: 8), result.growth.rawValue,
        ]
        print((name + cells(scalingCase.size, result.small) + cells(scalingCase.size * 10, result.large) + growth).joined())
    }
    let judged = results.filter { $0.growth != .tooSmall }
    let worst = judged.max { $0.growthRatio < $1.growthRatio }
    let notLinear = judged.filter { $0.growth != .linear }.map { "\($0.scalingCase.name), \($0.scalingCase.command.rawValue)" }
    let tooSmall = results.count - judged.count
    var notes: [String] = []
    if let worst { notes.append("worst: \(worst.scalingCase.name), \(worst.scalingCase.command.rawValue)") }
    if !notLinear.isEmpty { notes.append("not linear: " + notLinear.joined(separator: "; ")) }
    if tooSmall > 0 { notes.append("\(tooSmall) row(s) too small to judge") }
    return [Goal(name: "scaling: worst growth for 10× the input", bound: .below(12), unit: .times, figure: worst?.growthRatio, note: notes.joined(separator: "; "))]
}

/// The bytes of the file at `path`, or of the files in the folder at `path`.
func byteCount(of path: String) -> Int {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    guard manager.fileExists(atPath: path, isDirectory: &isFolder) else { return 0 }
    func size(_ file: String) -> Int { (try? manager.attributesOfItem(atPath: file)[.size] as? Int) ?? 0 }
    guard isFolder.boolValue else { return size(path) }
    return ((try? manager.contentsOfDirectory(atPath: path)) ?? []).reduce(0) { $0 + size((path as NSString).appendingPathComponent($1)) }
}

extension BenchFolder {
    /// A folder that exists already (or is made by the caller) inside a `BenchFolder`, removed with it.
    init(existing path: String) { self.path = path }
}
