import Testing

@testable import fallback_bench

/// The benchmark checks its command line before it runs anything: a typo or a missing number used
/// to start the whole benchmark (minutes of work) with the defaults.
@Suite struct BenchArgumentsTests {
    @Test(arguments: [
        [], ["--validation-only"], ["--runs", "3"], ["--site-only", "--site-runs", "1", "--site-placements", "200"],
        ["--git", "--git-commits", "50", "--large", "--large-placements", "20000"],
        ["--scaling-only", "--scale-pages", "100", "--scale-pages-build", "10", "--scale-snapshots", "4"],
        ["--scaling-only", "--scale-changed-clauses", "100", "--scale-deep-value", "300", "--scale-plain-to-locales", "50", "--scale-renamed-variants", "10",
         "--scale-page-locales-build", "5"],
        ["--site-only", "--no-settle-wait"], ["--validation-only", "--idle-seconds", "20"],
    ])
    func runsWithKnownFlags(_ arguments: [String]) {
        #expect(BenchArguments.request(for: arguments) == .run)
    }

    @Test(arguments: [["--help"], ["-h"], ["--runs", "3", "--help"]])
    func helpWins(_ arguments: [String]) {
        #expect(BenchArguments.request(for: arguments) == .help)
    }

    @Test(arguments: [
        (["--hlep"], "unknown argument '--hlep'"),
        (["--runs"], "--runs needs a positive whole number after it"),
        (["--runs", "many"], "--runs needs a positive whole number, not 'many'"),
        (["--runs", "0"], "--runs needs a positive whole number, not '0'"),
        (["--placements", "-5"], "--placements needs a positive whole number, not '-5'"),
        (["--scale-snapshots-build", "3"], "unknown argument '--scale-snapshots-build'"),
        (["--scale-changed-clauses-build", "3"], "unknown argument '--scale-changed-clauses-build'"),
        (["--scale-plain-to-locales-build", "3"], "unknown argument '--scale-plain-to-locales-build'"),
        (["--scale-deep-value-build", "3"], "unknown argument '--scale-deep-value-build'"),
        // Rows of check alone have no build size either.
        (["--scale-short-targets-build", "3"], "unknown argument '--scale-short-targets-build'"),
        (["--scale-keyed-findings-build", "3"], "unknown argument '--scale-keyed-findings-build'"),
        (["--scale-long-page-id-build", "3"], "unknown argument '--scale-long-page-id-build'"),
        (["--site-only", "1000"], "unknown argument '1000'"),
        (["--runs", "3", "--validation-only", "extra"], "unknown argument 'extra'"),
        (["--\u{1B}[31mred"], "unknown argument '--<U+001B>[31mred'"),
    ])
    func refusesWithAMessage(_ arguments: [String], _ message: String) {
        #expect(BenchArguments.request(for: arguments) == .invalid(message))
    }

    /// Every flag the usage lists is one the check accepts, and every flag the benchmark reads is listed.
    @Test func usageListsEveryFlag() {
        let usage = BenchArguments.usage
        for (flag, _) in BenchArguments.switches {
            #expect(usage.contains(flag + " "))
            #expect(BenchArguments.request(for: [flag]) == .run)
        }
        for (flag, _) in BenchArguments.numbers {
            #expect(usage.contains(flag + " N"))
            #expect(BenchArguments.request(for: [flag, "7"]) == .run)
        }
        for flag in ["--placements", "--runs", "--site-placements", "--site-runs", "--history-snapshots", "--git-commits",
                     "--scaling-runs", "--large-placements", "--scale-loops", "--scale-keys-build", "--idle-seconds"] {
            #expect(usage.contains(flag + " N"), "\(flag)")
        }
    }

    /// A run after another waits out what is left of the five minutes the file system remembers
    /// the earlier run's deletes, and never waits on a marker dated in the future.
    @Test(arguments: [
        (0.0, 300.0), (1.0, 299.0), (120.5, 179.5), (299.0, 1.0), (300.0, 0.0), (3_600.0, 0.0), (-5.0, 0.0),
    ])
    func waitsOutWhatIsLeftOfEarlierDeletes(age: Double, wait: Double) {
        #expect(FileSystemSettling.remainingWait(afterDeletesAged: age) == wait)
    }
}
