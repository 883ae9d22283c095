// The benchmark's command line, checked before anything runs: a typo or a missing number stops
// with a message and exit status 2 instead of running the whole benchmark with its defaults.
import FallbackAudit
import Foundation

/// Every flag `fallback-bench` takes (README, "Benchmark"), and the check of a command line against them.
enum BenchArguments {
    /// What a command line asks for.
    enum Request: Equatable {
        /// Run the benchmark.
        case run
        /// Print the usage (`--help`, `-h`) and exit 0.
        case help
        /// A flag it does not know, or a flag without its positive whole number: the message says which.
        case invalid(String)
    }

    /// Flags that stand alone, each with what it does.
    static let switches: [(flag: String, help: String)] = [
        ("--validation-only", "only the throughput rows and the whole-process check"),
        ("--site-only", "only the site build, its page weights and Hugo"),
        ("--drawing-only", "only the funnel drawings"),
        ("--scaling-only", "only the scaling table"),
        ("--history", "add 200 releases folded into a timeline and built"),
        ("--history-only", "only that"),
        ("--git", "add history --git-history over N commits (several minutes)"),
        ("--git-only", "only that"),
        ("--large", "add check and build of a 100,000-placement sample"),
        ("--no-settle-wait", "do not wait out an earlier run's deletes before timing builds; warn only"),
    ]

    /// The scaling table's rows (`--scale-NAME N` for check, `--scale-NAME-build N` for build; a
    /// row of one command only, `scalingRowCommands`, takes `--scale-NAME N` for it alone).
    static let scalingRows = [
        "placements", "pages", "options", "findings", "short-targets", "snapshots", "series", "loops", "keys", "locales", "clauses", "clause-objects",
        "marks", "page-locales", "long-key", "same-target-rules", "keyed-findings", "long-page-id", "funnel-copies", "wide-variants",
        "changed-clauses", "deep-value", "plain-to-locales", "renamed-variants", "replaced-placements",
    ]
    /// The rows measured with one command only, and which (no `-build` size): another command than
    /// `check`, or `check` alone.
    static let scalingRowCommands = [
        "snapshots": "history", "series": "build", "renamed-variants": "history", "changed-clauses": "diff", "deep-value": "diff", "plain-to-locales": "diff", "replaced-placements": "history",
        "long-key": "build", "same-target-rules": "build", "keyed-findings": "build", "long-page-id": "build", "funnel-copies": "build",
        "wide-variants": "build", "placements": "check",
        "short-targets": "check",
    ]

    /// Flags followed by a positive whole number, each with what it sets.
    static let numbers: [(flag: String, help: String)] =
        [
            ("--placements", "placements in the throughput sample (default 10,000)"),
            ("--runs", "runs of each throughput and check row (default 5)"),
            ("--idle-seconds", "also time check and JSONDecoder as first runs, each after N s of idle (off by default)"),
            ("--site-placements", "placements of the smaller site; the larger has 10× (default 1,000)"),
            ("--site-runs", "rounds of the site builds and Hugo's, alternated (default 3)"),
            ("--history-snapshots", "releases folded by --history (default 200)"),
            ("--history-placements", "placements in each of them (default 1,000)"),
            ("--history-changes", "changes from one release to the next (default 5)"),
            ("--git-commits", "commits read by --git (default 1,000)"),
            ("--git-placements", "placements in each commit's file (default 1,000)"),
            ("--git-changes", "changes from one commit to the next (default 5)"),
            ("--git-runs", "runs of each --git row (default 1)"),
            ("--scaling-runs", "rounds of each scaling row: 10 runs of N, then one of 10N (default 3)"),
            ("--large-placements", "placements of the --large sample (default 100,000)"),
        ]
        + scalingRows.flatMap { row in
            [("--scale-\(row)", "N of the \(row) row for \(scalingRowCommands[row] ?? "check")")]
                + (scalingRowCommands[row] != nil ? [] : [("--scale-\(row)-build", "N of the \(row) row for build")])
        }

    /// Checks `arguments` (without the program's name) flag by flag.
    static func request(for arguments: [String]) -> Request {
        let switchFlags = Set(switches.map(\.flag))
        let numberFlags = Set(numbers.map(\.flag))
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == "--help" || argument == "-h" { return .help }
            if switchFlags.contains(argument) {
                index += 1
            } else if numberFlags.contains(argument) {
                guard index + 1 < arguments.endIndex else {
                    return .invalid("\(argument) needs a positive whole number after it")
                }
                let value = arguments[index + 1]
                guard let number = Int(value), number > 0 else {
                    return .invalid("\(argument) needs a positive whole number, not '\(VisibleText.forTerminal(value))'")
                }
                index += 2
            } else {
                return .invalid("unknown argument '\(VisibleText.forTerminal(argument))'")
            }
        }
        return .run
    }

    /// The usage `--help` prints.
    static var usage: String {
        let width = (switches.map(\.flag) + numbers.map { $0.flag + " N" }).map(\.count).max() ?? 0
        func line(_ flag: String, _ help: String) -> String {
            "  " + flag.padding(toLength: width + 2, withPad: " ", startingAt: 0) + help
        }
        return (["USAGE: fallback-bench [options]", "",
                 "Measures validation, check, the site build and history beside their anchors (Foundation's",
                 "decoders, Hugo) in the same run, and ends with issue 10's goals. README, \"Benchmark\", says more.",
                 "", "SECTIONS (all but --history, --git and --large run by default):"]
            + switches.map { line($0.flag, $0.help) }
            + ["", "SIZES (positive whole numbers):"]
            + numbers.map { line($0.flag + " N", $0.help) }
            + [line("-h, --help", "show this and exit")])
            .joined(separator: "\n") + "\n"
    }
}
