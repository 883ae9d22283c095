import FallbackAudit
import FallbackHistory
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A snapshot with one placement `a` (plus `extra` when given), generated at `generatedAt` ms.
private func snapshot(generatedAt: Int64, revision: Int = 1, extra: String? = nil) -> [UInt8] {
    func entry(_ key: String) -> String {
        #""\#(key)":{"placement":{"identifier":"\#(key)","revision":\#(revision)},"paywall":{"id":"pw_\#(key)","identifier":"pw_\#(key)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}}"#
    }
    let entries = ([entry("a")] + (extra.map { [entry($0)] } ?? [])).joined(separator: ",")
    return Array(#"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"proj_1","placements":{\#(entries)}}"#.utf8)
}

/// A fresh folder below the system's temporary folder, removed by `defer` in each test.
private func temporaryFolder() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("build-pipeline-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Files served from memory, by path.
private func reader(_ files: [String: [UInt8]]) -> @Sendable (String) throws -> [UInt8] {
    { path in
        guard let bytes = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
        return bytes
    }
}

/// A series source over snapshots in memory, in the order given.
private struct MemorySeries: SnapshotSource {
    let snapshots: [(name: String, bytes: [UInt8])]

    func references() throws -> [SnapshotReference] {
        snapshots.map { SnapshotReference(name: $0.name, location: $0.name) }
    }

    func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        snapshots.first { $0.name == reference.name }!.bytes
    }
}

private let july2026: Int64 = 1_784_000_000_000

@Suite("The build pipeline, step by step")
struct BuildPipelineTests {
    // MARK: checkOutput

    @Test func checkOutputRefusesAFileAndTouchesNothing() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = root + "/not-a-folder"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        #expect {
            try SiteBuild.checkOutput(SiteWriter(outputPath: file))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .output = error else { return false }
            return error.isUsageProblem
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["not-a-folder"])
        try SiteBuild.checkOutput(SiteWriter(outputPath: root + "/site"))
        #expect(!FileManager.default.fileExists(atPath: root + "/site"))
    }

    // MARK: loadSeries

    @Test func loadSeriesReadsOneFileAndAnExplicitBaseline() throws {
        let read = reader(["new.json": snapshot(generatedAt: july2026), "old.json": snapshot(generatedAt: july2026 - 1)])
        let loaded = try SiteBuild.loadSeries(.file("new.json"), baseline: "old.json", readFile: read)
        #expect(loaded.newest.name == "new.json")
        #expect(loaded.newest.bytes == snapshot(generatedAt: july2026))
        #expect(loaded.baseline?.name == "old.json")
        #expect(loaded.series == nil)
        #expect(try SiteBuild.loadSeries(.file("new.json"), baseline: nil, readFile: read).baseline == nil)
    }

    @Test(arguments: [(file: "missing.json", baseline: nil as String?), (file: "new.json", baseline: "missing.json")])
    func loadSeriesNamesAnUnreadablePath(file: String, baseline: String?) {
        let read = reader(["new.json": snapshot(generatedAt: july2026)])
        #expect {
            _ = try SiteBuild.loadSeries(.file(file), baseline: baseline, readFile: read)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .unreadable(let path, _) = error else { return false }
            return path == "missing.json" && error.isUsageProblem && error.description.hasPrefix("cannot read missing.json: ")
        }
    }

    @Test func loadSeriesShowsTheNewestByGeneratedAtAndComparesWithTheOneBefore() throws {
        // Given out of order: the series orders by generatedAt.
        let source = MemorySeries(snapshots: [
            ("b.json", snapshot(generatedAt: july2026 + 2)), ("c.json", snapshot(generatedAt: july2026 + 3)),
            ("a.json", snapshot(generatedAt: july2026 + 1)),
        ])
        let loaded = try SiteBuild.loadSeries(.series(source), baseline: nil, readFile: reader([:]))
        #expect(loaded.newest.name == "c.json")
        #expect(loaded.baseline?.name == "b.json")
        #expect(loaded.series?.members.map(\.reference.name) == ["a.json", "b.json", "c.json"])

        let explicit = try SiteBuild.loadSeries(
            .series(source), baseline: "x.json", readFile: reader(["x.json": snapshot(generatedAt: 1)]))
        #expect(explicit.newest.name == "c.json")
        #expect(explicit.baseline?.name == "x.json")
    }

    @Test func anEmptySeriesIsAnErrorNotACrash() {
        #expect {
            _ = try SiteBuild.loadSeries(.series(MemorySeries(snapshots: [])), baseline: nil, readFile: reader([:]))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .emptySeries = error else { return false }
            return error.isUsageProblem
        }
    }

    // MARK: audit

    @Test func auditReadsTheClockOnlyFromTheReferenceDate() throws {
        // Generated in 2100: only a clock can call that the future.
        let future = SiteBuild.LoadedSnapshots(newest: .init(name: "s.json", bytes: snapshot(generatedAt: 4_102_444_800_000)))
        let clockless = try SiteBuild.audit(future, settings: SiteBuild.AuditSettings())
        #expect(!clockless.snapshot.findings.contains { $0.ruleId == "generated-at-future" })
        #expect(clockless.timeline == nil)
        #expect(clockless.baseline == nil)
        let dated = try SiteBuild.audit(future, settings: SiteBuild.AuditSettings(referenceDate: 1_790_000_000))
        #expect(dated.snapshot.findings.contains { $0.ruleId == "generated-at-future" })
    }

    @Test func auditAppliesTheConfigurationAndFoldsTheSeries() throws {
        let source = MemorySeries(snapshots: [
            ("1.json", snapshot(generatedAt: july2026, revision: 5)), ("2.json", snapshot(generatedAt: july2026 + 1, revision: 3)),
        ])
        let loaded = try SiteBuild.loadSeries(.series(source), baseline: nil, readFile: reader([:]))
        let audited = try SiteBuild.audit(loaded, settings: SiteBuild.AuditSettings())
        let timeline = try #require(audited.timeline)
        #expect(timeline.snapshots.map(\.stamp.name) == ["1.json", "2.json"])
        #expect(timeline.findings.contains { $0.finding.ruleId == "revision-regressed" })
        #expect(audited.baseline?.name == "1.json")

        let off = AuditConfiguration(overrides: ["revision-regressed": .off])
        let quiet = try SiteBuild.audit(loaded, settings: SiteBuild.AuditSettings(configuration: off))
        #expect(!(quiet.timeline?.findings.contains { $0.finding.ruleId == "revision-regressed" } ?? true))
    }

    // MARK: diff and model

    @Test func diffComparesTheBaselineWithTheNewestOnce() throws {
        let loaded = SiteBuild.LoadedSnapshots(
            newest: .init(name: "new.json", bytes: snapshot(generatedAt: july2026 + 1, extra: "added")),
            baseline: .init(name: "old.json", bytes: snapshot(generatedAt: july2026)))
        let compared = SiteBuild.diff(try SiteBuild.audit(loaded, settings: SiteBuild.AuditSettings()))
        let changes = try #require(compared.changes)
        #expect(changes.changes.contains { $0.placementKey == "added" })

        let model = SiteBuild.model(compared, title: nil, referenceDate: nil)
        #expect(model.changes?.changes.count == changes.changes.count)
        #expect(model.title == "Fallback file of proj_1")
        #expect(SiteBuild.model(compared, title: "Mine", referenceDate: 7).title == "Mine")

        let alone = SiteBuild.diff(try SiteBuild.audit(SiteBuild.LoadedSnapshots(newest: loaded.newest), settings: SiteBuild.AuditSettings()))
        #expect(alone.changes == nil)
        #expect(SiteBuild.model(alone, title: nil, referenceDate: nil).changes == nil)
    }

    // MARK: loadTheme, render, write

    @Test func loadThemeRefusesATemplateThatDoesNotParse() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("{{#open}} never closed".utf8).write(to: URL(fileURLWithPath: root + "/overview.md"))
        #expect {
            _ = try SiteBuild.loadTheme(templates: root, assets: nil)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .theme = error else { return false }
            return error.isUsageProblem
        }
        #expect(try SiteBuild.loadTheme(templates: nil, assets: nil).theme.templates == Theme.builtIn.templates)
    }

    /// `run` reads the theme beside the snapshot, on another core, yet reports as the steps in
    /// order would: an unreadable input before a theme that does not parse, the theme's failure
    /// when the input is good, and nothing written either way.
    @Test func runReportsTheInputBeforeTheThemeThoughItReadsThemTogether() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/templates", withIntermediateDirectories: true)
        try Data("{{#open}} never closed".utf8).write(to: URL(fileURLWithPath: root + "/templates/overview.md"))
        let read = reader(["new.json": snapshot(generatedAt: july2026)])
        func build(_ input: String) -> SiteBuild {
            SiteBuild(input: .file(input), templates: root + "/templates", writer: SiteWriter(outputPath: root + "/site"), readFile: read)
        }
        #expect {
            _ = try build("missing.json").run()
        } throws: { error in
            guard let error = error as? SiteBuildError, case .unreadable(let path, _) = error else { return false }
            return path == "missing.json"
        }
        #expect {
            _ = try build("new.json").run()
        } throws: { error in
            guard let error = error as? SiteBuildError, case .theme = error else { return false }
            return error.isUsageProblem
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/site"))
    }

    @Test func renderReportsEveryPageOnceAndAddsTheAssets() throws {
        let loaded = SiteBuild.LoadedSnapshots(newest: .init(name: "s.json", bytes: snapshot(generatedAt: july2026, extra: "b")))
        let model = SiteBuild.model(SiteBuild.diff(try SiteBuild.audit(loaded, settings: .init())), title: nil, referenceDate: nil)
        let reports = Reports()
        let files = try SiteBuild.render(model, theme: try SiteBuild.loadTheme(templates: nil, assets: nil)) { done, total in
            reports.add(done, total)
        }
        let pages = files.keys.filter { $0.hasSuffix(".html") }
        #expect(pages.contains("index.html"))
        #expect(files.keys.contains { $0.hasPrefix("assets/") })
        #expect(reports.all.map(\.done).sorted() == Array(1...pages.count))
        #expect(reports.all.allSatisfy { $0.total == pages.count })
    }

    @Test func writeSwapsTheSiteInAndCountsItsPages() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = SiteWriter(outputPath: root + "/site")
        let written = try SiteBuild.write(
            ["index.html": Array("home".utf8), "funnels/f.html": Array("f".utf8), "assets/site.css": []], with: writer)
        #expect(written == SiteBuild.WrittenSite(output: root + "/site", pageCount: 2))
        #expect(FileManager.default.fileExists(atPath: root + "/site/" + SiteWriter.markerName))
        #expect {
            _ = try SiteBuild.write(["../escape.html": []], with: writer)
        } throws: { error in
            guard let error = error as? SiteBuildError, case .write = error else { return false }
            return !error.isUsageProblem
        }
        #expect(try String(contentsOfFile: root + "/site/index.html", encoding: .utf8) == "home")
    }

    @Test func runIsTheStepsInOrder() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let read = reader(["new.json": snapshot(generatedAt: july2026 + 1, extra: "b"), "old.json": snapshot(generatedAt: july2026)])
        let settings = SiteBuild.AuditSettings(referenceDate: 1_790_000_000)
        let build = SiteBuild(
            input: .file("new.json"), baseline: "old.json", title: "T", settings: settings, writer: SiteWriter(outputPath: root + "/site"),
            readFile: read)
        let written = try build.run()

        let stepByStep = try SiteBuild.render(
            SiteBuild.model(
                SiteBuild.diff(try SiteBuild.audit(try SiteBuild.loadSeries(.file("new.json"), baseline: "old.json", readFile: read), settings: settings)),
                title: "T", referenceDate: settings.referenceDate),
            theme: try SiteBuild.loadTheme(templates: nil, assets: nil))
        #expect(written.pageCount == stepByStep.keys.count { $0.hasSuffix(".html") })
        for (path, bytes) in stepByStep {
            #expect(FileManager.default.contents(atPath: root + "/site/" + path).map { [UInt8]($0) } == bytes, "\(path)")
        }
        #expect(FileManager.default.contents(atPath: root + "/site/changes.html") != nil)
    }
}

extension BuildPipelineTests {
    /// A build hands `keepLeftovers` its builder, with the model of the snapshot it wrote, once the
    /// site is written and swapped in, before `run` returns; a build that fails (reading, or at the
    /// swap) hands over nothing, and without the hook the site is the same.
    @Test func aBuildHandsWhatItHasFinishedWithToKeepLeftovers() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let read = reader(["new.json": snapshot(generatedAt: july2026 + 1, extra: "b")])
        final class Kept: @unchecked Sendable {
            let lock = NSLock()
            var values: [any Sendable] = []
            func keep(_ value: any Sendable) { lock.withLock { values.append(value) } }
        }
        let kept = Kept()
        var build = SiteBuild(input: .file("new.json"), writer: SiteWriter(outputPath: root + "/kept"), readFile: read)
        build.keepLeftovers = { kept.keep($0) }
        let written = try build.run()
        let builders = kept.values.compactMap { $0 as? SiteBuilder }
        #expect(kept.values.count == 1 && builders.count == 1)
        #expect(builders.first?.model.snapshot.name == "new.json")
        #expect(FileManager.default.fileExists(atPath: root + "/kept/index.html"))

        var plain = build
        plain.keepLeftovers = nil
        plain.writer = SiteWriter(outputPath: root + "/plain")
        #expect(try plain.run().pageCount == written.pageCount)
        for path in try FileManager.default.subpathsOfDirectory(atPath: root + "/plain") {
            #expect(FileManager.default.contents(atPath: root + "/plain/" + path) == FileManager.default.contents(atPath: root + "/kept/" + path), "\(path)")
        }

        let failing = Kept()
        var broken = SiteBuild(input: .file("missing.json"), writer: SiteWriter(outputPath: root + "/broken"), readFile: read)
        broken.keepLeftovers = { failing.keep($0) }
        #expect(throws: SiteBuildError.self) { try broken.run() }
        #expect(failing.values.isEmpty)

        // Written whole but refused at the swap (a folder of someone else's appeared at --out):
        // nothing is handed over either, and the folder is left as it is.
        let model = SiteBuild.model(
            SiteBuild.diff(try SiteBuild.audit(try SiteBuild.loadSeries(.file("new.json"), baseline: nil, readFile: read), settings: SiteBuild.AuditSettings())),
            title: nil, referenceDate: nil)
        let refused = Kept()
        let output = root + "/taken"
        #expect(throws: SiteBuildError.self) {
            try SiteBuild.renderAndWrite(
                model, theme: try SiteBuild.loadTheme(templates: nil, assets: nil), with: SiteWriter(outputPath: output),
                keepingLeftovers: { refused.keep($0) }
            ) { _ in
                try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
                _ = FileManager.default.createFile(atPath: output + "/mine.txt", contents: Data("x".utf8))
            }
        }
        #expect(refused.values.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output) == ["mine.txt"])
    }

    /// Three snapshots whose pages differ: a placement added, then a revision raised.
    static let seriesSnapshots: [String: [UInt8]] = [
        "a.json": snapshot(generatedAt: july2026),
        "b.json": snapshot(generatedAt: july2026 + 1, extra: "b"),
        "c.json": snapshot(generatedAt: july2026 + 2, revision: 2, extra: "c"),
    ]

    /// The files of the site `build` writes, by path below its folder.
    static func written(_ build: SiteBuild) throws -> [String: [UInt8]] {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var build = build
        build.writer = SiteWriter(outputPath: root + "/site")
        _ = try build.run()
        var files: [String: [UInt8]] = [:]
        let folder = root + "/site/"
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            files[path] = FileManager.default.contents(atPath: folder + path).map { [UInt8]($0) }
        }
        return files
    }

    // MARK: auditSeries

    /// `run` on a series reads it once (`auditSeries`) and writes the site the steps write one
    /// after another, in time order or not, with the one before the newest or an explicit baseline.
    @Test(arguments: [
        (order: ["a.json", "b.json", "c.json"], baseline: nil as String?), (order: ["c.json", "a.json", "b.json"], baseline: nil),
        (order: ["b.json", "a.json", "c.json"], baseline: nil), (order: ["a.json"], baseline: nil),
        (order: ["a.json", "b.json", "c.json"], baseline: "x.json"), (order: ["c.json"], baseline: "x.json"),
    ])
    func runOnASeriesWritesTheSiteOfTheSteps(order: [String], baseline: String?) throws {
        let source = MemorySeries(snapshots: order.map { ($0, Self.seriesSnapshots[$0]!) })
        let read = reader(["x.json": snapshot(generatedAt: july2026 - 1, revision: 3)])
        let settings = SiteBuild.AuditSettings(referenceDate: 1_790_000_000)
        let build = SiteBuild(
            input: .series(source), baseline: baseline, title: "T", settings: settings, writer: SiteWriter(outputPath: "unused"), readFile: read)
        let written = try Self.written(build)

        let stepByStep = try SiteBuild.render(
            SiteBuild.model(
                SiteBuild.diff(try SiteBuild.audit(try SiteBuild.loadSeries(.series(source), baseline: baseline, readFile: read), settings: settings)),
                title: "T", referenceDate: settings.referenceDate),
            theme: try SiteBuild.loadTheme(templates: nil, assets: nil))
        // The writer adds its marker (`SiteWriter.markerName`); rendering does not.
        #expect(Set(written.keys) == Set(stepByStep.keys).union([SiteWriter.markerName]))
        for (path, bytes) in stepByStep {
            #expect(written[path] == bytes, "\(path)")
        }
    }

    /// In time order each snapshot is read once: the newest and the one before it are kept from
    /// the fold, not read again (the steps read each twice, and those two a third time).
    @Test func auditSeriesReadsEachSnapshotOnceInTimeOrder() throws {
        let source = CountingSeries(snapshots: ["a.json", "b.json", "c.json"].map { ($0, Self.seriesSnapshots[$0]!) })
        let audited = try SiteBuild.auditSeries(source, baseline: nil, settings: SiteBuild.AuditSettings(), readFile: reader([:]))
        #expect(source.reads == ["a.json", "b.json", "c.json"])
        #expect(audited.snapshot.name == "c.json")
        #expect(audited.baseline?.name == "b.json")
        #expect(audited.snapshot.bytes == Self.seriesSnapshots["c.json"])
        #expect(audited.snapshot.findings == SiteBuild.AuditSettings().audit.findings(in: FallbackFile(bytes: Self.seriesSnapshots["c.json"]!)))
        #expect(audited.timeline?.snapshots.map(\.stamp.name) == ["a.json", "b.json", "c.json"])

        // `run` audits a series this way.
        let again = CountingSeries(snapshots: source.snapshots)
        _ = try Self.written(SiteBuild(input: .series(again), writer: SiteWriter(outputPath: "unused"), readFile: reader([:])))
        #expect(again.reads == ["a.json", "b.json", "c.json"])
    }

    /// A baseline path that cannot be read fails before any snapshot of the series is read; an
    /// empty series is the same error as in the steps.
    @Test func auditSeriesReadsAnExplicitBaselineFirstAndRefusesAnEmptySeries() {
        let source = CountingSeries(snapshots: [("a.json", Self.seriesSnapshots["a.json"]!)])
        #expect {
            _ = try SiteBuild.auditSeries(source, baseline: "missing.json", settings: SiteBuild.AuditSettings(), readFile: reader([:]))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .unreadable(let path, _) = error else { return false }
            return path == "missing.json"
        }
        #expect(source.reads.isEmpty)
        #expect {
            _ = try SiteBuild.auditSeries(CountingSeries(snapshots: []), baseline: nil, settings: SiteBuild.AuditSettings(), readFile: reader([:]))
        } throws: { error in
            guard let error = error as? SiteBuildError, case .emptySeries = error else { return false }
            return true
        }
    }
}

/// A series source over snapshots in memory that records each read, from any thread.
private final class CountingSeries: SnapshotSource, @unchecked Sendable {
    let snapshots: [(name: String, bytes: [UInt8])]
    private let lock = NSLock()
    private var log: [String] = []

    init(snapshots: [(name: String, bytes: [UInt8])]) { self.snapshots = snapshots }

    var reads: [String] { lock.withLock { log } }

    func references() throws -> [SnapshotReference] {
        snapshots.map { SnapshotReference(name: $0.name, location: $0.name) }
    }

    func bytes(of reference: SnapshotReference) throws -> [UInt8] {
        lock.withLock { log.append(reference.name) }
        return snapshots.first { $0.name == reference.name }!.bytes
    }
}

/// Progress reports, collected from any thread.
private final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [(done: Int, total: Int)] = []

    func add(_ done: Int, _ total: Int) { lock.withLock { reports.append((done, total)) } }
    var all: [(done: Int, total: Int)] { lock.withLock { reports } }
}
