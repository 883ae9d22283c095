// fallback-bench: throughput of the validator beside Foundation's decoders, on the same bytes.
// Run with `swift run -c release fallback-bench [--placements N] [--runs R] [--site-placements N] [--site-runs R]
// [--site-only] [--history | --history-only] [--history-snapshots N] [--history-placements N] [--history-changes N]
// [--validation-only] [--drawing-only] [--git | --git-only] [--git-commits N] [--scaling-only] [--scale-… N] [--large]`
// (README, "Benchmark", lists them all). The whole-process rows need `fallback-site` built in release beside it.
import FallbackAudit
import FallbackHistory
import FallbackSample
import FallbackSite
import Foundation
import RovenueFallback

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The shape a team would reach for with `JSONDecoder`: enough to list placements and what they serve.
struct MinimalFile: Decodable {
    struct Entry: Decodable {
        struct Placement: Decodable {
            let identifier: String
            let revision: Int
        }
        struct Funnel: Decodable {
            struct Page: Decodable {
                let id: String
                let type: String
            }
            let id: String
            let slug: String
            let pages: [Page]
        }
        struct Paywall: Decodable {
            let id: String
            let identifier: String
        }
        struct Experiment: Decodable {
            struct Variant: Decodable {
                let variantId: String
                let weight: Double
                let funnel: Funnel?
                let paywall: Paywall?
            }
            let id: String
            let key: String
            let variants: [Variant]
        }
        let placement: Placement?
        let funnel: Funnel?
        let paywall: Paywall?
        let experiment: Experiment?
    }
    /// Skips an entry that fails to decode, as the SDK does, instead of failing the whole file.
    struct Skippable: Decodable {
        let entry: Entry?
        init(from decoder: any Decoder) throws {
            entry = try? Entry(from: decoder)
        }
    }
    let formatVersion: Int
    let placements: [String: Skippable]
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]) else {
        return value
    }
    return parsed
}

/// The best and the median of `runs` timings, in seconds, and the last result (kept so the work is not optimised away).
func measure<T>(runs: Int, _ body: () throws -> T) rethrows -> (seconds: Double, median: Double, result: T) {
    var times: [Double] = []
    var last: T?
    for _ in 0..<max(runs, 1) {
        let start = DispatchTime.now().uptimeNanoseconds
        last = try body()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (times.min()!, median(times), last!)
}

/// `bodies` timed in `runs` rounds, each round running every body once in turn (see
/// `measureAlternated(_:runs:run:)` for why): for each, the best and the median of its timings, its
/// last result, and its timings in round order.
func measureAlternated(
    runs: Int, _ bodies: [() throws -> Int]
) throws -> [(timing: (seconds: Double, median: Double, result: Int), rounds: [Double])] {
    var times = [[Double]](repeating: [], count: bodies.count)
    var results = [Int](repeating: 0, count: bodies.count)
    for _ in 0..<max(runs, 1) {
        for (index, body) in bodies.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds
            results[index] = try body()
            times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }
    return bodies.indices.map { ((times[$0].min()!, median(times[$0]), results[$0]), times[$0]) }
}

/// The median, over alternated rounds, of `anchor`'s time over `ours` in each round.
func roundMedianSpeedUp(_ ours: [Double], _ anchor: [Double]) -> Double {
    median(zip(ours, anchor).map { $1 / $0 })
}

/// The whole-file validation's phases, each the best of `runs`: the parse and §2 (`FallbackTopLevel`), the
/// decode of every entry (`FallbackFile(topLevel:)`), the audit (`findings(in:)`, its findings let go
/// with it) and the release of the file.
func measureWholeFilePhases(bytes: [UInt8], runs: Int) -> [(name: String, seconds: Double)] {
    let names = ["parse", "decode", "audit", "release"]
    var best = [Double](repeating: .infinity, count: names.count)
    for _ in 0..<max(runs, 1) {
        var marks = [DispatchTime.now().uptimeNanoseconds]
        var topLevel: FallbackTopLevel? = FallbackTopLevel(bytes: bytes)
        marks.append(DispatchTime.now().uptimeNanoseconds)
        var file: FallbackFile? = FallbackFile(topLevel: topLevel!)
        topLevel = nil
        marks.append(DispatchTime.now().uptimeNanoseconds)
        precondition(Audit().findings(in: file!).count >= 0)
        marks.append(DispatchTime.now().uptimeNanoseconds)
        file = nil
        marks.append(DispatchTime.now().uptimeNanoseconds)
        for phase in names.indices { best[phase] = min(best[phase], Double(marks[phase + 1] - marks[phase]) / 1e9) }
    }
    return names.indices.map { (names[$0], best[$0]) }
}

let placementCount = option("placements", default: 10_000)
let runs = option("runs", default: 5)
/// Seconds of idle before each first-run row of the whole-process check; 0 (the default) skips those rows.
let idleSeconds = option("idle-seconds", default: 0)
let historyOnly = CommandLine.arguments.contains("--history-only")
let gitOnly = CommandLine.arguments.contains("--git-only")
/// True when an `--…-only` flag other than `only` was given: that section is skipped.
func otherOnly(_ only: String) -> Bool {
    ["--validation-only", "--site-only", "--history-only", "--drawing-only", "--git-only", "--scaling-only"].contains { $0 != only && CommandLine.arguments.contains($0) }
}
/// Every goal the run measured (or could not), for the summary at the end.
var goals: [Goal] = []

// Memory as `fallback-site` keeps it, so the in-process rows measure what the command does; not in
// the JSONDecoder anchor's child, which stays a plain program.
if !CommandLine.arguments.contains(decodeChildFlag) {
    MemoryPages.keepFreedMemoryWarm()
}
// The history case measures peak memory in child processes of this binary: peak memory only grows.
if let index = CommandLine.arguments.firstIndex(where: { $0.hasPrefix("--history-measure-") }), index + 1 < CommandLine.arguments.count {
    try measureHistoryChild(mode: CommandLine.arguments[index], path: CommandLine.arguments[index + 1])
    exit(0)
}
// The measuring process of every whole-process row (ChildProcess.swift).
if let index = CommandLine.arguments.firstIndex(of: measureChildFlag) {
    runMeasureChild(Array(CommandLine.arguments[(index + 1)...]))
}
// The whole-process anchor of `check`: this binary, decoding a file with JSONDecoder and nothing else.
if let index = CommandLine.arguments.firstIndex(of: decodeChildFlag), index + 1 < CommandLine.arguments.count {
    runDecodeChild(path: CommandLine.arguments[index + 1])
}
// What the whole-process `check` cannot share among cores: starting and reading the file, as check reads it.
if let index = CommandLine.arguments.firstIndex(of: readChildFlag), index + 1 < CommandLine.arguments.count {
    runReadChild(path: CommandLine.arguments[index + 1])
}
switch BenchArguments.request(for: Array(CommandLine.arguments.dropFirst())) {
case .run: break
case .help:
    print(BenchArguments.usage, terminator: "")
    exit(0)
case .invalid(let message):
    FileHandle.standardError.write(Data("fallback-bench: \(message) (--help lists the options)\n".utf8))
    exit(2)
}
let siteCommands = BenchBinaries.fallbackSite().map(SiteCommands.init(executable:))
// An earlier run's deletes would be timed as this run's builds (FileSystemSettling): wait them out
// first, unless the run builds no site.
if !CommandLine.arguments.contains("--validation-only"), !CommandLine.arguments.contains("--drawing-only") {
    FileSystemSettling.waitForEarlierDeletes(wait: !CommandLine.arguments.contains("--no-settle-wait"))
}

if !otherOnly("--validation-only") {
    print("fallback-bench: generating a sample of \(placementCount) placements (seed 1)…")
    let bytes = Array(SampleExport(placementCount: placementCount, seed: 1).jsonText().utf8)
    let data = Data(bytes)
    let megabytes = Double(bytes.count) / 1_000_000
    print(String(format: "sample: %.1f MB, %d runs each (the best, and the median beside it)\n", megabytes, runs))

    let parse = measure(runs: runs) { JSONDocument(bytes: bytes).syntaxError == nil }
    let parseOneThread = measure(runs: runs) { JSONDocument(bytes: bytes, path: .vector, runWords: Int.max, splitAt: Int.max).syntaxError == nil }
    // Stage 1 as the parse runs it (in parallel runs of blocks at this size), and in one run.
    let parseIndex = measure(runs: runs) { bytes.withUnsafeBufferPointer { ParseIndex(bytes: $0, path: .vector).significant.count } }
    let parseIndexSerial = measure(runs: runs) {
        bytes.withUnsafeBufferPointer { ParseIndex(bytes: $0, path: .vector, runWords: Int.max).significant.count }
    }
    let stage1Vector = measure(runs: runs) { StructuralIndex(bytes: bytes, path: .vector).structurals.count }
    let stage1Scalar = measure(runs: runs) { StructuralIndex(bytes: bytes, path: .scalar).structurals.count }
    precondition(stage1Vector.result == stage1Scalar.result, "the vector and scalar stage 1 disagree")
    let load = measure(runs: runs) { FallbackFile(bytes: bytes).loadedCount }
    let phases = measureWholeFilePhases(bytes: bytes, runs: runs)
    // The full validation, what `check` runs (each chunk of entries decoded, audited and let go,
    // `Audit.check`) and the JSONDecoder anchor, in alternated rounds.
    let compared = try measureAlternated(runs: runs, [
        { Audit().findings(in: FallbackFile(bytes: bytes)).count },
        { Audit().check(FallbackTopLevel(bytes: bytes)) { _ in }.findings.count },
        { try JSONDecoder().decode(MinimalFile.self, from: data).placements.values.count { $0.entry != nil } },
    ])
    let (validate, validateChunked, decoder) = (compared[0].timing, compared[1].timing, compared[2].timing)
    precondition(validateChunked.result == validate.result, "the chunked and whole-file audits disagree on the findings")
    let serialization = try measure(runs: runs) { try (JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0 }

    precondition(load.result == decoder.result, "the loader and JSONDecoder disagree on the number of placements")

    print("".padded(to: 46) + "        best    throughput      median")
    func row(_ name: String, _ timing: (seconds: Double, median: Double, result: some Any), _ note: String) {
        let name = name.padding(toLength: 46, withPad: " ", startingAt: 0)
        print(String(format: "%@ %8.1f ms %8.1f MB/s %8.1f ms  %@", name, timing.seconds * 1000, megabytes / timing.seconds, timing.median * 1000, note))
    }

    row("JSONDocument (strict parse, positions)", parse, "goal ≥ 800 MB/s; stage 1 on all cores, stage 2 in two halves; simdjson's DOM parse ≈ 1,100 MB/s")
    row("JSONDocument (strict parse, one thread)", parseOneThread, "stage 1 in one run, stage 2 in one piece")
    row("ParseIndex (the parse's stage 1, parallel)", parseIndex, "\(ProcessInfo.processInfo.activeProcessorCount) cores")
    row("ParseIndex (the parse's stage 1, one thread)", parseIndexSerial, "")
    row("StructuralIndex (string-aware scan, SIMD)", stage1Vector, "\(stage1Vector.result) structurals; the parse does not use it")
    row("StructuralIndex (string-aware scan, scalar)", stage1Scalar, "")
    row("FallbackFile (parse + §2 + typed §4 decode)", load, "\(load.result) entries loaded")
    row("FallbackFile + audit (full validation)", validate, "\(validate.result) findings")
    print("  phases (best of \(runs) each): " + phases.map { String(format: "%@ %.1f ms", $0.name, $0.seconds * 1000) }.joined(separator: ", "))
    row("FallbackTopLevel + chunked audit (check)", validateChunked, "full validation as check runs it, in chunks")
    row("JSONDecoder (minimal typed shape)", decoder, "\(decoder.result) placements")
    row("JSONSerialization (untyped)", serialization, "")
    print("")
    print(String(format: "full validation vs JSONDecoder:      %.2f× its throughput, medians %.2f×; round by round, median %.2f× (goal ≥ 3×)",
        decoder.seconds / validate.seconds, decoder.median / validate.median, roundMedianSpeedUp(compared[0].rounds, compared[2].rounds)))
    print(String(format: "chunked validation (check) vs JSONDecoder: %.2f× its throughput, medians %.2f×; round by round, median %.2f×",
        decoder.seconds / validateChunked.seconds, decoder.median / validateChunked.median, roundMedianSpeedUp(compared[1].rounds, compared[2].rounds)))
    print(String(format: "full validation vs JSONSerialization: %.2f× its throughput, medians %.2f×",
        serialization.seconds / validate.seconds, serialization.median / validate.median))
    let samplePlacements = decimal(Double(placementCount), places: 0)
    goals.append(Goal(
        name: "strict parse (\(samplePlacements) placements)", bound: .atLeast(800), unit: .megabytesPerSecond, figure: megabytes / parse.seconds,
        anchor: "\(millisecondsText(parse.seconds)) for \(decimal(megabytes, places: 1)) MB, median \(millisecondsText(parse.median))"))
    goals.append(Goal(
        name: "full validation vs JSONDecoder (\(samplePlacements) placements)", bound: .atLeast(3), unit: .times, figure: decoder.seconds / validate.seconds,
        anchor: "\(millisecondsText(validate.seconds)) vs JSONDecoder \(millisecondsText(decoder.seconds)); medians "
            + Goal.Unit.times.format(decoder.median / validate.median)))
    if let siteCommands {
        goals += section { try measureWholeProcessCheck(bytes: bytes, placements: placementCount, runs: runs, idleSeconds: idleSeconds, site: siteCommands) }
    } else {
        goals.append(Goal(name: "whole-process check vs JSONDecoder", bound: .atLeast(3), unit: .times, figure: nil, note: "fallback-site is not built"))
    }
}

// MARK: - Site build, beside Hugo

/// What a site's pages weigh: the average, the heaviest page and the overview's first page.
struct PageWeight {
    var averageBytes: Int
    var largestPage: String
    var largestBytes: Int
    var overviewBytes: Int
}

/// Builds the site of a `placements`-placement sample into a temporary folder; returns pages and seconds.
func buildSite(placements: Int) throws -> (pages: Int, seconds: Double, markdownBytes: Int, weight: PageWeight) {
    let bytes = Array(SampleExport(placementCount: placements, seed: 2).jsonText().utf8)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-site-\(UUID().uuidString)").path
    FileSystemSettling.removeAtEnd(folder)  // deleted when the benchmark ends, not before the timed builds
    let start = DispatchTime.now().uptimeNanoseconds
    let file = FallbackFile(bytes: bytes)
    let snapshot = SiteModel.Snapshot(name: "sample.json", bytes: bytes, file: file, findings: Audit().findings(in: file))
    let builder = try SiteBuilder(model: SiteModel(snapshot: snapshot, title: nil, referenceDate: nil), theme: .builtIn)
    let files = try builder.files()
    try SiteWriter(outputPath: folder).write(files)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let pages = files.keys.filter { $0.hasSuffix(".html") }
    let htmlBytes = pages.reduce(0) { $0 + files[$1]!.count }
    let largest = pages.max { (files[$0]!.count, $1) < (files[$1]!.count, $0) } ?? ""
    let weight = PageWeight(
        averageBytes: htmlBytes / max(pages.count, 1), largestPage: largest, largestBytes: files[largest]?.count ?? 0,
        overviewBytes: files["index.html"]?.count ?? 0)
    return (pages.count, seconds, htmlBytes / max(pages.count, 1), weight)
}

let sitePlacements = option("site-placements", default: 1_000)
if !otherOnly("--site-only") {
    print("")
    print("site: building the site of a \(sitePlacements)-placement sample…")
    let site = section { try buildSite(placements: sitePlacements) }
    print(String(format: "fallback-site build  %5d pages in %7.2f s  %8.1f pages/s  (average page %d bytes of HTML)", site.pages, site.seconds, Double(site.pages) / site.seconds, site.markdownBytes))
    let weight = site.weight
    print(String(format: "page weight: average %.1f KB, heaviest %@ %.1f KB (goal ≤ 1,024 KB), overview %.1f KB (goal ≤ 1,536 KB)",
        Double(weight.averageBytes) / 1024, weight.largestPage, Double(weight.largestBytes) / 1024, Double(weight.overviewBytes) / 1024))
    if let siteCommands {
        goals += section { try measureSiteBuilds(small: sitePlacements, runs: option("site-runs", default: 3), site: siteCommands) }
    } else {
        goals.append(Goal(name: "build vs Hugo, plain Markdown", bound: .atLeast(2), unit: .times, figure: nil, note: "fallback-site is not built"))
    }
}

// MARK: - Funnel drawings, beside reading the SVG they make

/// An `XMLParser` delegate that only counts elements: the anchor reads the drawing's SVG.
final class ElementCounter: NSObject, XMLParserDelegate {
    var count = 0
    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) { count += 1 }
}

if !otherOnly("--drawing-only") {
    print("")
    print("funnel drawing: the tests' branching quiz, best of \(runs) runs; the anchor is Foundation's XMLParser reading the SVG drawn")
    for pageCount in [30, 400] {
        guard let funnel = FallbackFile(text: SampleFunnel.fileText(pageCount: pageCount)).loadedEntries.first?.entry.funnel else {
            fatalError("the sample funnel of \(pageCount) pages does not load")
        }
        let draw = measure(runs: runs) { FunnelDrawing(funnel: funnel).svg }
        let svg = Data(draw.result.utf8)
        let read = measure(runs: runs) { () -> Int in
            let counter = ElementCounter()
            let parser = XMLParser(data: svg)
            parser.delegate = counter
            precondition(parser.parse(), "the drawing is not well-formed XML")
            return counter.count
        }
        print(String(
            format: "%4d pages: drawing %8.2f ms   XMLParser reading it %8.2f ms (%d elements, %d KB)   drawing vs reading: %.2f×",
            pageCount, draw.seconds * 1000, read.seconds * 1000, read.result, svg.count / 1024, draw.seconds / read.seconds))
    }
}

// MARK: - History: a series of snapshots folded one at a time

/// The process's peak resident memory in bytes.
func peakResidentBytes() -> Int {
    #if os(Linux)
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    let kilobytes = line.flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
    return (kilobytes ?? 0) * 1024
    #else
    // macOS reports bytes.
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
}

/// In a fresh process: loads and audits one snapshot (`--history-measure-single FILE`), or folds
/// a folder of them into a timeline (`--history-measure-fold FOLDER`); prints seconds and peak bytes.
func measureHistoryChild(mode: String, path: String) throws {
    let start = DispatchTime.now().uptimeNanoseconds
    var note = ""
    if mode == "--history-measure-single" {
        let source = SnapshotFiles(paths: [path])
        let file = FallbackFile(bytes: try source.bytes(of: try source.references()[0]))
        note = "\(file.loadedCount) entries loaded, \(Audit().findings(in: file).count) findings"
    } else if mode == "--history-measure-build-single" || mode == "--history-measure-build-series" {
        // What `fallback-site build` does: one snapshot, or a folder folded into its timeline with
        // the newest shown and compared with the one before.
        func snapshot(_ name: String, _ bytes: [UInt8]) -> SiteModel.Snapshot {
            let file = FallbackFile(bytes: bytes)
            return SiteModel.Snapshot(name: name, bytes: bytes, file: file, findings: Audit().findings(in: file))
        }
        let model: SiteModel
        if mode == "--history-measure-build-single" {
            model = SiteModel(snapshot: snapshot(path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))), title: nil, referenceDate: nil)
        } else {
            let source = SnapshotFolder(path: path)
            let series = try SnapshotSeries(source)
            let timeline = try series.timeline()
            let newest = series.members[series.members.count - 1].reference
            let previous = series.members[series.members.count - 2].reference
            model = SiteModel(
                snapshot: snapshot(newest.name, try source.bytes(of: newest)), baseline: snapshot(previous.name, try source.bytes(of: previous)),
                timeline: timeline, title: nil, referenceDate: nil)
        }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("bench-build-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let files = try SiteBuilder(model: model, theme: .builtIn).files()
        try SiteWriter(outputPath: out).write(files)
        note = "\(files.keys.count { $0.hasSuffix(".html") }) pages"
    } else {
        let timeline = try SnapshotSeries(SnapshotFolder(path: path)).timeline()
        let states = timeline.placements.reduce(0) { $0 + $1.revisions.count }
        var byRule: [Rule.ID: Int] = [:]
        for finding in timeline.findings { byRule[finding.finding.ruleId, default: 0] += 1 }
        note = "\(timeline.placements.count) placements, \(states) placement states, \(timeline.findings.count) history findings ("
            + byRule.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("measured \(seconds) \(peakResidentBytes()) \(note)")
}

/// Runs this binary with `arguments`; returns seconds, peak bytes and the note it measured.
func runHistoryChild(_ arguments: [String]) throws -> (seconds: Double, peak: Int, note: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("measured ") } ?? ""
    let columns = line.split(separator: " ", maxSplits: 3)
    guard process.terminationStatus == 0, columns.count == 4, let seconds = Double(columns[1]), let peak = Int(columns[2]) else {
        throw HistoryError.unreadable(path: "fallback-bench \(arguments.joined(separator: " "))", reason: "the measurement failed")
    }
    return (seconds, peak, String(columns[3]))
}

if historyOnly || (CommandLine.arguments.contains("--history") && !otherOnly("--history-only")) {
    section {
        let snapshotCount = option("history-snapshots", default: 200)
        let historyPlacements = option("history-placements", default: 1_000)
        let changes = option("history-changes", default: 5)
        print("")
        print("history: generating \(snapshotCount) releases of a \(historyPlacements)-placement sample, \(changes) placements republished per release…")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        FileSystemSettling.removeAtEnd(folder.path)
        var export = SampleExport(placementCount: historyPlacements, seed: 3)
        var totalBytes = 0
        var lastPath = ""
        for release in 0..<snapshotCount {
            if release > 0 { export = export.nextRelease(changing: changes) }
            let bytes = Data(export.jsonText().utf8)
            totalBytes += bytes.count
            lastPath = folder.appendingPathComponent(String(format: "release-%04d.json", release)).path
            try bytes.write(to: URL(fileURLWithPath: lastPath))
        }
        print(String(format: "history: %.1f MB in all, %.1f MB per snapshot", Double(totalBytes) / 1e6, Double(totalBytes) / 1e6 / Double(max(snapshotCount, 1))))
        let single = try runHistoryChild(["--history-measure-single", lastPath])
        let history = try runHistoryChild(["--history-measure-fold", folder.path])
        let megabytes = { (bytes: Int) in Double(bytes) / 1_048_576 }
        print(String(format: "single snapshot, load + audit   %9.3f s   peak %7.1f MiB  (%@)", single.seconds, megabytes(single.peak), single.note))
        print(String(format: "history, %4d snapshots folded   %9.3f s   peak %7.1f MiB  (%.1f ms per snapshot)", snapshotCount, history.seconds, megabytes(history.peak), history.seconds * 1000 / Double(max(snapshotCount, 1))))
        print("timeline: \(history.note)")
        print(String(format: "history peak vs single: %.2f× (goal < 2×)", Double(history.peak) / Double(max(single.peak, 1))))
        let singleBuild = try runHistoryChild(["--history-measure-build-single", lastPath])
        let seriesBuild = try runHistoryChild(["--history-measure-build-series", folder.path])
        print(String(format: "site build, newest snapshot only  %9.3f s   peak %7.1f MiB  (%@)", singleBuild.seconds, megabytes(singleBuild.peak), singleBuild.note))
        print(String(format: "site build, %4d-snapshot series  %9.3f s   peak %7.1f MiB  (%@, with History and Changes)", snapshotCount, seriesBuild.seconds, megabytes(seriesBuild.peak), seriesBuild.note))
        print(String(format: "series build peak vs single build: %.2f× (goal < 2×)", Double(seriesBuild.peak) / Double(max(singleBuild.peak, 1))))
    }
}

// MARK: - Whole processes: git history, the scaling table, the 100,000-placement runs

let gitRequested = gitOnly || (CommandLine.arguments.contains("--git") && !otherOnly("--git-only"))
let gitCommits = option("git-commits", default: 1_000)
if let siteCommands, gitRequested {
    goals += section {
        try measureGitHistory(
            commits: gitCommits, placements: option("git-placements", default: 1_000), changes: option("git-changes", default: 5),
            runs: option("git-runs", default: 1), site: siteCommands)
    }
} else if !otherOnly("--git-only") {
    goals.append(Goal(
        name: "history --git-history vs history FOLDER (\(decimal(Double(gitCommits), places: 0)) commits)", bound: .atMost(1.2), unit: .times,
        figure: nil, note: siteCommands == nil ? "fallback-site is not built" : "add --git (or --git-only; --git-commits N) to measure, a few minutes"))
}

if let siteCommands, !otherOnly("--scaling-only") {
    goals += section { try measureScaling(scalingCases { option($0, default: $1) }, runs: option("scaling-runs", default: 3), site: siteCommands) }
}

let largePlacements = option("large-placements", default: 100_000)
if let siteCommands, CommandLine.arguments.contains("--large") {
    goals += section { try measureLargeRuns(placements: largePlacements, site: siteCommands) }
} else if !otherOnly("") {
    let name = decimal(Double(largePlacements), places: 0)
    goals.append(Goal(name: "check: \(name) placements, time", bound: .below(10), unit: .seconds, figure: nil, note: "add --large to measure"))
    goals.append(Goal(name: "check: \(name) placements, peak memory", bound: .below(2000), unit: .megabytes, figure: nil, note: "add --large to measure"))
    goals.append(Goal(name: "build: \(name) placements completes, peak memory", bound: .below(4000), unit: .megabytes, figure: nil, note: "add --large to measure"))
}

// MARK: - Summary: every goal of the run, judged from its figure

FileSystemSettling.removeSpent()

if !goals.isEmpty {
    print("")
    print("summary (issue 10's goals; this machine's figures, noisy when it is shared):")
    print(["goal".padded(to: 58), "bound".padded(to: 12), "measured".padded(to: 12), "verdict"].joined(separator: " "))
    for goal in goals { print(goal.summaryLine) }
    let held = goals.count { $0.holds == true }, missed = goals.count { $0.holds == false }
    print("\(held) hold, \(missed) miss, \(goals.count - held - missed) not measured")
}
