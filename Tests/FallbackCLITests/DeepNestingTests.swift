import Foundation
import Testing

/// A value nested `depth` levels deep around `leaf`: arrays, objects, or both in turn.
enum DeepShape: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case arrays, objects, mixed

    func text(depth: Int, leaf: String) -> String {
        var text = ""
        text.reserveCapacity(depth * 7 + leaf.utf8.count)
        for level in 0..<depth { text += opens(level) ? "[" : #"{"a":"# }
        text += leaf
        for level in (0..<depth).reversed() { text += opens(level) ? "]" : "}" }
        return text
    }

    /// True when the container at `level` is an array.
    private func opens(_ level: Int) -> Bool {
        switch self {
        case .arrays: true
        case .objects: false
        case .mixed: level % 2 == 0
        }
    }

    var testDescription: String { rawValue }
}

/// A snapshot that loads (the contract's §2 rule 4 checks depth only inside formatVersion and
/// placements), with one top-level value nested 100,000 deep: the last `projectId`, `generatedAt`,
/// or a key the SDK ignores.
struct DeepSnapshot: CustomTestStringConvertible, Sendable {
    static let depth = 100_000

    let key: String
    let shape: DeepShape

    static let all: [DeepSnapshot] = ["projectId", "generatedAt", "x"].flatMap { key in
        DeepShape.allCases.map { DeepSnapshot(key: key, shape: $0) }
    }

    /// The funnel-era fixture with the deep member added last (so it is the one a top-level object keeps).
    func text(leaf: String = #"[1,"a\nb",{"k":null}]"#) throws -> String {
        let fixture = try String(contentsOfFile: funnelEraPath, encoding: .utf8)
        let close = try #require(fixture.lastIndex(of: "}"))
        return fixture[..<close] + ",\n  \"\(key)\": " + shape.text(depth: Self.depth, leaf: leaf) + "\n}\n"
    }

    var testDescription: String { "\(key) as \(shape.rawValue)" }
}

/// Commands on snapshots with a value nested 100,000 deep where the SDK does not limit depth: run
/// in-process on a 512 KiB stack (a macOS secondary thread's), so a stack overflow kills the test runner.
@Suite("Values nested 100,000 deep outside placements")
struct DeepNestingTests {
    /// `run(arguments)` on a thread with a 512 KiB stack.
    func run(_ arguments: [String]) -> Run {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Run?
        let thread = Thread {
            result = FallbackCLITests.run(arguments)
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        return result!
    }

    /// Writes `files` into a fresh temporary folder; `body` gets the folder.
    func withFiles(_ files: [String: String], _ body: (String) throws -> Void) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        try body(folder)
    }

    @Test(arguments: DeepSnapshot.all)
    func checkReportsInEveryFormat(_ snapshot: DeepSnapshot) throws {
        try withFiles(["deep.json": try snapshot.text()]) { folder in
            for format in ["text", "json", "markdown", "github", "junit", "sarif"] {
                let result = run(["check", folder + "/deep.json", "--format", format])
                #expect(result.status != 2, "\(format): \(result.error)")
                #expect(!result.output.isEmpty, "\(format)")
            }
            let json = try jsonObject(run(["check", folder + "/deep.json", "--format", "json"]).output)
            let files = try #require(json["files"] as? [[String: Any]])
            #expect(files.first?["verdict"] as? String == "the SDK loads 5 of 6 entries; 1 skipped")
        }
    }

    @Test(arguments: DeepSnapshot.all)
    func diffAsOldAsNewAndChanged(_ snapshot: DeepSnapshot) throws {
        let fixture = try String(contentsOfFile: funnelEraPath, encoding: .utf8)
        try withFiles(["deep.json": try snapshot.text(), "changed.json": try snapshot.text(leaf: "2"), "plain.json": fixture]) {
            folder in
            let deep = folder + "/deep.json"
            let changed = folder + "/changed.json"
            let plain = folder + "/plain.json"
            for format in ["text", "json", "markdown", "github", "junit", "sarif"] {
                let result = run(["diff", deep, changed, "--format", format])
                #expect(result.status != 2, "\(format): \(result.error)")
            }
            for (old, new) in [(plain, deep), (deep, plain), (deep, deep)] {
                let result = run(["diff", old, new, "--format", "json"])
                #expect(result.status != 2, "\(old) → \(new): \(result.error)")
            }
            guard snapshot.key == "projectId" else { return }
            // The deep value changed: reported with its text cut to 120 characters.
            let json = try jsonObject(run(["diff", deep, changed, "--format", "json"]).output)
            let changes = try #require(json["changes"] as? [[String: Any]])
            let change = try #require(changes.first { $0["field"] as? String == "projectId" })
            #expect(change["message"] as? String == "projectId changed.")
            let prefix = String(snapshot.shape.text(depth: 120, leaf: "").prefix(120))
            #expect(change["old"] as? String == prefix + "…")
            #expect(change["new"] as? String == prefix + "…")
        }
    }

    @Test(arguments: DeepSnapshot.all)
    func historyOverTwo(_ snapshot: DeepSnapshot) throws {
        try withFiles(["a.json": try snapshot.text(), "b.json": try snapshot.text(leaf: "2")]) { folder in
            for format in ["text", "json", "markdown", "github", "junit", "sarif"] {
                let result = run(["history", folder + "/a.json", folder + "/b.json", "--format", format])
                #expect(result.status != 2, "\(format): \(result.error)")
                // GitHub annotations are only written for findings that have a place.
                #expect(!result.output.isEmpty || format == "github", "\(format)")
            }
        }
    }

    @Test(arguments: DeepSnapshot.all)
    func resolveAndBuild(_ snapshot: DeepSnapshot) throws {
        try withFiles(["deep.json": try snapshot.text()]) { folder in
            for format in ["text", "json"] {
                let resolved = run(["resolve", folder + "/deep.json", "onboarding", "--format", format])
                #expect(resolved.status == 0, "\(format): \(resolved.error)")
            }
            let out = folder + "/site"
            let built = run(["build", folder + "/deep.json", "--out", out, "--quiet"])
            #expect(built.status == 0, "\(built.error)")
            #expect(text(at: out + "/index.html")?.contains("the SDK loads 5 of 6 entries; 1 skipped") == true)
        }
    }
}
