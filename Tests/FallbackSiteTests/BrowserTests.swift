import FallbackAudit
import FallbackSample
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// The first of `names` found on PATH.
func executable(_ names: String...) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for name in names {
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
    }
    return nil
}

/// True when `CI` is set to `true` (or `1`), as CI services do.
func isCI(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    ["true", "1"].contains(environment["CI"]?.lowercased() ?? "")
}

/// Whether a suite that needs an outside program runs: when the program is there, and in CI also
/// when it is missing, so that the suite fails (`#require`) instead of being skipped, which would
/// read as passed.
func suiteRuns(programFound: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
    programFound || isCI(environment)
}

/// Runs a program to completion and returns its exit status and standard output.
func run(
    _ program: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    let inputPipe = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(input) }
    try inputPipe.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

let chromium = executable("chromium", "chromium-browser", "google-chrome")
let node = executable("node", "nodejs")

/// A fresh temporary folder (`mkdtemp`: unique, and a short path), removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init(_ prefix: String) throws {
        var template = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix).XXXXXX").path.utf8CString
        path = try template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: String(cString: buffer.baseAddress!)])
            }
            return String(cString: made)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// The site of an example snapshot, built into `folder`.
func buildSite(_ example: String, into folder: String) throws {
    let bytes = [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent(example)))
    let file = FallbackFile(bytes: bytes)
    let snapshot = SiteModel.Snapshot(name: example, bytes: bytes, file: file, findings: Audit().findings(in: file))
    let builder = try SiteBuilder(model: SiteModel(snapshot: snapshot, title: nil, referenceDate: nil), theme: .builtIn)
    try SiteWriter(outputPath: folder).write(try builder.files())
}

/// The DOM of a page after its scripts ran, from headless Chromium with its profile (`p`), home
/// (`h`) and TMPDIR (`t`) inside `scratch`: nothing lands in ~/.config, ~/.cache or /tmp. Keep
/// `scratch` short: Chromium puts a Unix socket in its TMPDIR, and socket paths are limited to
/// about 100 bytes.
func dumpDOM(_ url: String, scratch: String) throws -> String {
    let browser = try #require(chromium, "Chromium is not on PATH (make browser-deps); CI=true does not skip")
    let home = scratch + "/h"
    for folder in [home, scratch + "/t"] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CONFIG_HOME"] = home + "/.config"
    environment["XDG_CACHE_HOME"] = home + "/.cache"
    environment["XDG_DATA_HOME"] = home + "/.local/share"
    environment["TMPDIR"] = scratch + "/t"
    let result = try run(
        browser,
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(scratch)/p",
            "--virtual-time-budget=3000", "--dump-dom", url,
        ],
        environment: environment)
    return result.output
}

@Suite(
    "The site in a real browser",
    .enabled(if: suiteRuns(programFound: chromium != nil), "needs Chromium (make browser-deps)"), .serialized)
final class BrowserTests {
    /// Holds the site and Chromium's profile; removed with the test.
    let scratch: TemporaryFolder
    let site: String

    init() throws {
        scratch = try TemporaryFolder("browser")
        site = scratch.path + "/site"
        try buildSite("Examples/2026-06-23-release-3.3.json", into: site)
    }

    func dumpDOM(_ page: String) throws -> String {
        try FallbackSiteTests.dumpDOM("file://\(site)/\(page)", scratch: scratch.path)
    }

    @Test func searchFiltersThePlacementsTable() throws {
        let dom = try dumpDOM("index.html?q=sleep")
        #expect(dom.contains("data-js=\"ready\""))
        let rows = dom.components(separatedBy: "<tr data-kind=").dropFirst()
        #expect(rows.count == 8)
        let visible = rows.filter { !$0.prefix(while: { $0 != ">" }).contains(" hidden") }
        #expect(visible.count == 1)
        #expect(visible.first?.contains("sleep_setup") == true)
        #expect(dom.contains("1 of 8 placements"))
    }

    @Test func withoutAQueryEveryRowShows() throws {
        let dom = try dumpDOM("index.html")
        let rows = dom.components(separatedBy: "<tr data-kind=").dropFirst()
        #expect(rows.count == 8)
        #expect(rows.allSatisfy { !$0.prefix(while: { $0 != ">" }).contains(" hidden") })
        // The snapshot's age is measured in the browser, when the page is viewed.
        #expect(dom.contains("<span class=\"age\"> · "))
        #expect(dom.contains(" old</span>"))
    }

    @Test(arguments: ["rov_000000000000000000000000", "ckvt3m8qc0000356mekq0v1x2", "用户_12345", "rov_a1b2c3d4e5f6g7h8i9j0k1l2"])
    func lookupDrawsWhatTheResolverDraws(subscriber: String) throws {
        let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("Examples/2026-06-23-release-3.3.json"))))
        let entry = try #require(file.entries.first { $0.key == "onboarding" }?.entry)
        let draw = try #require(entry.resolve(subscriberId: subscriber).draw)
        let query = subscriber.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subscriber
        let dom = try dumpDOM("experiments/onboarding.html?subscriber=\(query)")
        #expect(dom.contains("data-bucket=\"\(draw.bucket)\""), "bucket \(draw.bucket) not shown")
        #expect(dom.contains("data-variant-id=\"\(draw.variantId)\""))
    }

    @Test(arguments: ["index.html", "checks.html", "placements/trial_ending.html", "placements/onboarding_v2.html", "experiments/onboarding.html", "funnels/fnl_calm_quiz.html"])
    func noPageLogsAViolationOrAnError(page: String) throws {
        let dom = try dumpDOM(page)
        #expect(dom.contains("data-js=\"ready\""), "site.js did not run on \(page)")
        #expect(!dom.contains("data-errors="), "\(page) logged: \(dom.components(separatedBy: "data-errors=").dropFirst().first?.prefix(300) ?? "")")
    }
}

@Suite("The browser's bucketing agrees with the resolver", .enabled(if: suiteRuns(programFound: node != nil), "needs Node"))
struct ScriptBucketingTests {
    /// 1,000 random subscriber ids (seeded) plus the 44 contract vectors' ids and keys.
    static func cases() throws -> [(subscriber: String, key: String)] {
        var generator = SplitMix64(seed: 20_261_129)
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789_-:é用户🙂 ")
        var cases: [(String, String)] = (0..<1000).map { index in
            let length = Int.random(in: 1...40, using: &generator)
            let id = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            return (index % 3 == 0 ? "rov_" + id : id, ["onboarding-price-test", "exp_k3v9q2ma", "a", "ключ"][index % 4])
        }
        let fixtures = repositoryRoot.appendingPathComponent("Tests/RovenueFallbackTests/Fixtures")
        let vectors = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("bucketing-vectors.json"))) as! [String: Any]
        for vector in vectors["cases"] as! [[String: Any]] {
            cases.append((vector["subscriberId"] as! String, vector["seed"] as! String))
        }
        let parity = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("bucketing-parity-vectors.json"))) as! [[String: Any]]
        for vector in parity { cases.append((vector["subscriberId"] as! String, vector["seed"] as! String)) }
        return cases
    }

    @Test func siteScriptComputesTheSameBucketsAndVariants() async throws {
        let cases = try Self.cases()
        #expect(cases.count == 1044)
        let weights = [0.34, 0.33, 0.33]
        let input = try JSONSerialization.data(withJSONObject: cases.map { [$0.subscriber, $0.key] })
        let script = """
            const site = require(\(String(reflecting: repositoryRoot.appendingPathComponent("Site/assets/site.js").path)));
            let text = ""; process.stdin.on("data", c => text += c); process.stdin.on("end", async () => {
              const out = [];
              for (const [id, key] of JSON.parse(text)) {
                const bucket = await site.bucket(id, key);
                out.push([bucket, site.variantIndex(bucket, [0.34, 0.33, 0.33])]);
              }
              console.log(JSON.stringify(out));
            });
            """
        let node = try #require(node, "Node is not on PATH (make browser-deps); CI=true does not skip")
        let result = try run(node, ["-e", script], input: input)
        #expect(result.status == 0)
        let computed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as! [[Int]]
        #expect(computed.count == cases.count)
        var mismatches = 0
        for (index, pair) in cases.enumerated() {
            let bucket = Bucketing.bucket(subscriberId: pair.subscriber, experimentKey: pair.key)
            let variant = Bucketing.variantIndex(forBucket: bucket, weights: weights)
            if computed[index] != [bucket, variant!] { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }
}

