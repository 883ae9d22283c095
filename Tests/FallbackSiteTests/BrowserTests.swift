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

/// Runs a program to completion and returns its exit status and standard output.
func run(_ program: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
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

/// A site built from an example snapshot into a fresh temporary folder.
func builtSite(_ example: String) throws -> String {
    let bytes = [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent(example)))
    let file = FallbackFile(bytes: bytes)
    let snapshot = SiteModel.Snapshot(name: example, bytes: bytes, file: file, findings: Audit().findings(in: file))
    let builder = try SiteBuilder(model: SiteModel(snapshot: snapshot, title: nil, referenceDate: nil), theme: .builtIn)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("site-\(UUID().uuidString)").path
    try SiteWriter(outputPath: folder).write(try builder.files())
    return folder
}

/// The DOM of a page after its scripts ran, from headless Chromium.
func dumpDOM(_ url: String) throws -> String {
    let result = try run(
        chromium!, ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=3000", "--dump-dom", url])
    return result.output
}

@Suite("The site in a real browser", .enabled(if: chromium != nil, "needs Chromium (CI installs it from Debian)"), .serialized)
struct BrowserTests {
    static let site = Result { try builtSite("Examples/2026-06-23-release-3.3.json") }

    @Test func searchFiltersThePlacementsTable() throws {
        let dom = try dumpDOM("file://\(try Self.site.get())/index.html?q=sleep")
        #expect(dom.contains("data-js=\"ready\""))
        let rows = dom.components(separatedBy: "<tr data-kind=").dropFirst()
        #expect(rows.count == 8)
        let visible = rows.filter { !$0.prefix(while: { $0 != ">" }).contains(" hidden") }
        #expect(visible.count == 1)
        #expect(visible.first?.contains("sleep_setup") == true)
        #expect(dom.contains("1 of 8 placements"))
    }

    @Test func withoutAQueryEveryRowShows() throws {
        let dom = try dumpDOM("file://\(try Self.site.get())/index.html")
        let rows = dom.components(separatedBy: "<tr data-kind=").dropFirst()
        #expect(rows.count == 8)
        #expect(rows.allSatisfy { !$0.prefix(while: { $0 != ">" }).contains(" hidden") })
        // The snapshot's age is measured in the browser, when the page is viewed.
        #expect(dom.contains("<span class=\"age\"> · "))
        #expect(dom.contains(" old</span>"))
    }

    @Test(arguments: ["rov_000000000000000000000000", "ckvt3m8qc0000356mekq0v1x2", "用户_12345", "rov_a1b2c3d4e5f6g7h8i9j0k1l2"])
    func lookupDrawsWhatTheResolverDraws(subscriber: String) throws {
        let site = try Self.site.get()
        let file = FallbackFile(bytes: [UInt8](try Data(contentsOf: repositoryRoot.appendingPathComponent("Examples/2026-06-23-release-3.3.json"))))
        let entry = try #require(file.entries.first { $0.key == "onboarding" }?.entry)
        let draw = try #require(entry.resolve(subscriberId: subscriber).draw)
        let query = subscriber.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? subscriber
        let dom = try dumpDOM("file://\(site)/experiments/onboarding.html?subscriber=\(query)")
        #expect(dom.contains("data-bucket=\"\(draw.bucket)\""), "bucket \(draw.bucket) not shown")
        #expect(dom.contains("data-variant-id=\"\(draw.variantId)\""))
    }

    @Test(arguments: ["index.html", "checks.html", "placements/trial_ending.html", "placements/onboarding_v2.html", "experiments/onboarding.html", "funnels/fnl_calm_quiz.html"])
    func noPageLogsAViolationOrAnError(page: String) throws {
        let dom = try dumpDOM("file://\(try Self.site.get())/\(page)")
        #expect(dom.contains("data-js=\"ready\""), "site.js did not run on \(page)")
        #expect(!dom.contains("data-errors="), "\(page) logged: \(dom.components(separatedBy: "data-errors=").dropFirst().first?.prefix(300) ?? "")")
    }
}

@Suite("The browser's bucketing agrees with the resolver", .enabled(if: node != nil, "needs Node"))
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
        let result = try run(node!, ["-e", script], input: input)
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

