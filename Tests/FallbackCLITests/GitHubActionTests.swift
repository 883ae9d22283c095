import Foundation
import Testing

/// The repository's `action.yml`, run the way a GitHub runner runs a composite action: each
/// `run:` step in bash with the `GITHUB_*` files, inputs and step outputs substituted into `env:`,
/// the action's outputs read back. Steps whose id starts with `setup-` (dependencies, cache,
/// build) are skipped: `setup-key`'s output `bin` names the folder of the `fallback-site` that
/// `swift test` built, and `PATH` holds a decoy `fallback-site` that fails, so a step that calls
/// the bare name instead of the exported path fails the test.
/// An expression, key or step shape this runner does not understand fails the test, so no logic
/// in the action can go untested by being skipped.
struct CompositeActionRunner {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Outcome {
        /// The failing step's exit status, else 0.
        var status: Int32 = 0
        var stdout = ""
        var stderr = ""
        /// Every step's `$GITHUB_STEP_SUMMARY`, in order.
        var summary = ""
        /// The action's `outputs:`, evaluated after the steps.
        var outputs: [String: String] = [:]
        /// The ids of the steps that ran.
        var ran: [String] = []
    }

    let action: WorkflowYAML
    let actionPath: String
    let tool: String

    static let skippedPrefix = "setup-"
    static let toolName = "fallback-site"
    static let stepKeys: Set<String> = ["id", "name", "shell", "env", "run"]

    init(actionPath: String = repositoryRoot.path, tool: String) throws {
        let text = try String(contentsOfFile: actionPath + "/action.yml", encoding: .utf8)
        action = try WorkflowYAML.parse(text)
        self.actionPath = actionPath
        self.tool = tool
    }

    var steps: [WorkflowYAML] { action["runs"]?["steps"]?.items ?? [] }
    var inputNames: [String] { action["inputs"]?.entries.map(\.key) ?? [] }

    /// `${{ … }}` in `text` replaced: `inputs.NAME`, `github.action_path` and
    /// `steps.ID.outputs.NAME`; anything else is a failure.
    func substitute(_ text: String, inputs: [String: String], stepOutputs: [String: [String: String]]) throws -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw Failure(description: "unterminated expression in \(text)") }
            let expression = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            let stepIds = steps.compactMap { $0["id"]?.text }
            switch parts.first {
            case "inputs" where parts.count == 2 && inputNames.contains(parts[1]):
                result += inputs[parts[1]] ?? ""
            case "github" where parts == ["github", "action_path"]:
                result += actionPath
            case "steps" where parts.count == 4 && parts[2] == "outputs" && stepIds.contains(parts[1]):
                result += stepOutputs[parts[1]]?[parts[3]] ?? ""
            default:
                throw Failure(description: "expression the test does not understand: ${{ \(expression) }}")
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// Reads a `$GITHUB_OUTPUT` or `$GITHUB_ENV` file: `name=value` lines and `name<<DELIMITER` blocks.
    static func commandFile(_ path: String) throws -> [String: String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        var values: [String: String] = [:]
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            if line.isEmpty { continue }
            if let marker = line.range(of: "<<"), !line[..<marker.lowerBound].contains("=") {
                let delimiter = line[marker.upperBound...]
                var body: [Substring] = []
                while let next = lines.popFirst(), next != delimiter { body.append(next) }
                values[String(line[..<marker.lowerBound])] = body.joined(separator: "\n")
            } else if let equals = line.firstIndex(of: "=") {
                values[String(line[..<equals])] = String(line[line.index(after: equals)...])
            } else {
                throw Failure(description: "a line that is neither name=value nor name<<DELIMITER in \(path): \(line)")
            }
        }
        return values
    }

    /// Runs the action in `workspace` (a git repository) with `inputs`; `temporary` holds the
    /// runner's files, home and git configuration, so nothing is written elsewhere.
    func run(inputs given: [String: String], workspace: String, temporary: String) throws -> Outcome {
        for name in given.keys where !inputNames.contains(name) { throw Failure(description: "no input \(name) in action.yml") }
        var inputs: [String: String] = [:]
        for entry in action["inputs"]?.entries ?? [] { inputs[entry.key] = given[entry.key] ?? entry.value["default"]?.text ?? "" }

        let runner = temporary + "/runner"
        try FileManager.default.createDirectory(atPath: runner + "/temp", withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GITHUB_") && !$0.key.hasPrefix("RUNNER_") }
        environment["HOME"] = runner
        environment["XDG_CONFIG_HOME"] = runner
        environment["GIT_CONFIG_GLOBAL"] = runner + "/.gitconfig"
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GITHUB_WORKSPACE"] = workspace
        environment["GITHUB_ACTION_PATH"] = actionPath
        environment["RUNNER_TEMP"] = runner + "/temp"
        environment["RUNNER_OS"] = "Linux"
        let decoy = runner + "/decoy"
        try FileManager.default.createDirectory(atPath: decoy, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"the bare fallback-site on PATH ran\" >&2\nexit 97\n".write(
            toFile: decoy + "/" + Self.toolName, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: decoy + "/" + Self.toolName)
        var path = [decoy] + (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)

        var outcome = Outcome()
        var stepOutputs: [String: [String: String]] = ["setup-key": ["bin": URL(fileURLWithPath: tool).deletingLastPathComponent().path]]
        for (number, step) in steps.enumerated() {
            guard let id = step["id"]?.text else { throw Failure(description: "step \(number + 1) has no id") }
            if id.hasPrefix(Self.skippedPrefix) { continue }
            let keys = Set(step.entries.map(\.key))
            guard keys.isSubset(of: Self.stepKeys) else {
                throw Failure(description: "step \(id) has keys the test cannot run: \(keys.subtracting(Self.stepKeys).sorted())")
            }
            guard step["shell"]?.text == "bash", let script = step["run"]?.text else { throw Failure(description: "step \(id) is not a bash run step") }
            guard !script.contains("${{") else { throw Failure(description: "step \(id) interpolates an expression into its script") }

            var stepEnvironment = environment
            stepEnvironment["PATH"] = path.joined(separator: ":")
            for entry in step["env"]?.entries ?? [] {
                guard let value = entry.value.text else { throw Failure(description: "step \(id): env \(entry.key) is not a scalar") }
                stepEnvironment[entry.key] = try substitute(value, inputs: inputs, stepOutputs: stepOutputs)
            }
            let files = ["GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH", "GITHUB_STEP_SUMMARY"]
            for name in files {
                let file = "\(runner)/\(number)-\(name)"
                _ = FileManager.default.createFile(atPath: file, contents: nil)
                stepEnvironment[name] = file
            }
            let scriptFile = "\(runner)/\(number)-\(id).sh"
            try script.write(toFile: scriptFile, atomically: true, encoding: .utf8)
            let stdoutFile = "\(runner)/\(number).stdout", stderrFile = "\(runner)/\(number).stderr"
            _ = FileManager.default.createFile(atPath: stdoutFile, contents: nil)
            _ = FileManager.default.createFile(atPath: stderrFile, contents: nil)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["bash", "--noprofile", "--norc", "-eo", "pipefail", scriptFile]
            process.environment = stepEnvironment
            process.currentDirectoryURL = URL(fileURLWithPath: workspace)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutFile))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrFile))
            try process.run()
            process.waitUntilExit()
            outcome.ran.append(id)
            outcome.stdout += try String(contentsOfFile: stdoutFile, encoding: .utf8)
            outcome.stderr += try String(contentsOfFile: stderrFile, encoding: .utf8)
            outcome.summary += try String(contentsOfFile: stepEnvironment["GITHUB_STEP_SUMMARY"]!, encoding: .utf8)
            stepOutputs[id] = try Self.commandFile(stepEnvironment["GITHUB_OUTPUT"]!)
            environment.merge(try Self.commandFile(stepEnvironment["GITHUB_ENV"]!)) { $1 }
            let added = try String(contentsOfFile: stepEnvironment["GITHUB_PATH"]!, encoding: .utf8).split(separator: "\n").map(String.init)
            path = added.reversed() + path
            if process.terminationStatus != 0 {
                outcome.status = process.terminationStatus
                break
            }
        }
        for entry in action["outputs"]?.entries ?? [] {
            guard let value = entry.value["value"]?.text else { throw Failure(description: "output \(entry.key) has no value") }
            outcome.outputs[entry.key] = try substitute(value, inputs: inputs, stepOutputs: stepOutputs)
        }
        return outcome
    }
}

@Suite(
    "The GitHub Action (action.yml)",
    .enabled(if: suiteRuns(programFound: toolPath != nil && programOnPath("git") != nil), "needs git and the built fallback-site executable"))
struct GitHubActionTests {
    static let clean = repositoryPath("Examples/2026-03-03-release-3.0.json")
    static let withError = repositoryPath("Examples/2026-06-23-release-3.3.json")
    static let before = repositoryPath("Examples/2026-04-14-release-3.1.json")
    static let after = repositoryPath("Examples/2026-05-19-release-3.2.json")

    /// A temporary folder holding a git repository (`repo`, with `App/rovenue-fallback.json`
    /// committed as `base`) and the runner's files; removed by `close()`.
    struct Workspace {
        let root: String
        var repository: String { root + "/repo" }
        var snapshot: String { repository + "/App/rovenue-fallback.json" }

        init(committing base: String?) throws {
            _ = try #require(programOnPath("git"), "git is missing; CI=true does not skip")
            root = FileManager.default.temporaryDirectory.appendingPathComponent("action-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: root + "/repo/App", withIntermediateDirectories: true)
            try runGit(["init", "-q", "-b", "main"], in: repository)
            try runGit(["config", "user.email", "test@example.com"], in: repository)
            try runGit(["config", "user.name", "Test"], in: repository)
            if let base {
                try FileManager.default.copyItem(atPath: base, toPath: snapshot)
                try runGit(["add", "."], in: repository)
                try runGit(["commit", "-q", "-m", "base"], in: repository)
                try runGit(["tag", "base"], in: repository)
            } else {
                try runGit(["commit", "-q", "--allow-empty", "-m", "base"], in: repository)
                try runGit(["tag", "base"], in: repository)
            }
        }

        func place(_ source: String, at relative: String = "App/rovenue-fallback.json") throws {
            let destination = repository + "/" + relative
            try? FileManager.default.removeItem(atPath: destination)
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: destination).deletingLastPathComponent().path, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source, toPath: destination)
        }

        func run(_ inputs: [String: String]) throws -> CompositeActionRunner.Outcome {
            let tool = try #require(toolPath, "no fallback-site executable beside the tests; CI=true does not skip")
            return try CompositeActionRunner(tool: tool).run(inputs: inputs, workspace: repository, temporary: root)
        }

        func close() { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test func aCleanSnapshotPassesWithASummaryAndNoAnnotation() throws {
        let workspace = try Workspace(committing: Self.clean)
        defer { workspace.close() }
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.outputs["check-status"] == "0")
        #expect(!outcome.stdout.contains("::error"))
        #expect(outcome.summary.contains("## fallback\\-site check"))
        #expect(outcome.summary.contains("rovenue\\-fallback\\.json"))
        #expect(outcome.outputs["diff-report"] == "")
        #expect(outcome.outputs["site-dir"] == "")
        #expect(outcome.ran == ["files", "check", "diff", "site", "verdict"])
    }

    @Test func anErrorAnnotatesTheFileAndFailsTheAction() throws {
        let workspace = try Workspace(committing: Self.withError)
        defer { workspace.close() }
        let outcome = try workspace.run(["snapshots": "App/*.json"])
        #expect(outcome.status == 1)
        #expect(outcome.outputs["check-status"] == "1")
        #expect(outcome.stdout.contains("::error file=App/rovenue-fallback.json,line="))
        #expect(outcome.stdout.contains("title=entry-skipped"))
        #expect(outcome.summary.contains("entry\\-skipped"))
        #expect(outcome.stdout.contains("fallback-site check exited with status 1"))
    }

    @Test func failOnNeverKeepsTheAnnotationsButPasses() throws {
        let workspace = try Workspace(committing: Self.withError)
        defer { workspace.close() }
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "fail-on": "never"])
        #expect(outcome.status == 0)
        #expect(outcome.outputs["check-status"] == "0")
        #expect(outcome.stdout.contains("::error file=App/rovenue-fallback.json,line="))
    }

    @Test func aFailOnWarningFailsACleanButWarnedFile() throws {
        let workspace = try Workspace(committing: Self.after)
        defer { workspace.close() }
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "fail-on": "warning"])
        #expect(outcome.stdout.contains("::warning file=App/rovenue-fallback.json"))
        #expect(outcome.status == 1)
    }

    @Test func aBreakingDiffAgainstTheBaseWritesTheReportAndTheSite() throws {
        let workspace = try Workspace(committing: Self.before)
        defer { workspace.close() }
        try workspace.place(Self.after)
        let outcome = try workspace.run([
            "snapshots": "App/rovenue-fallback.json", "diff-base": "base", "site-dir": "_site", "diff-fail-on": "never",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        #expect(outcome.outputs["diff-status"] == "0")
        let reportPath = try #require(outcome.outputs["diff-report"])
        #expect(reportPath.hasPrefix(workspace.root + "/runner/temp/"))
        let report = try String(contentsOfFile: reportPath, encoding: .utf8)
        #expect(report.hasPrefix("<!-- fallback-site-diff -->\n"))
        #expect(report.contains("## App\\/rovenue\\-fallback\\.json (base base)"))
        #expect(report.contains("placement-removed"))
        #expect(report.contains("spring\\_sale"))
        #expect(outcome.summary.contains(report))
        #expect(outcome.outputs["site-dir"] == "_site")
        #expect(FileManager.default.fileExists(atPath: workspace.repository + "/_site/index.html"))
        // One snapshot diffed against the base: the site's Changes page compares with the base too.
        let changes = try String(contentsOfFile: workspace.repository + "/_site/changes.html", encoding: .utf8)
        #expect(changes.contains("spring_sale"))
    }

    @Test func aBreakingDiffFailsByDefault() throws {
        let workspace = try Workspace(committing: Self.before)
        defer { workspace.close() }
        try workspace.place(Self.after)
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": "base"])
        #expect(outcome.outputs["check-status"] == "0")
        #expect(outcome.outputs["diff-status"] == "1")
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("fallback-site diff exited with status 1"))
    }

    @Test func aFileNewSinceTheBaseIsReportedAsNew() throws {
        let workspace = try Workspace(committing: nil)
        defer { workspace.close() }
        try workspace.place(Self.clean)
        let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": "base"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let report = try String(contentsOfFile: try #require(outcome.outputs["diff-report"]), encoding: .utf8)
        #expect(report.contains("New file: not in the base, nothing to compare."))
        #expect(outcome.outputs["diff-status"] == "0")
    }

    @Test func aBaseThatIsNotACommitIsAnErrorAndNeverAnOption() throws {
        let workspace = try Workspace(committing: Self.clean)
        defer { workspace.close() }
        for base in ["--output=written", "no-such-ref", "$(touch injected)"] {
            let outcome = try workspace.run(["snapshots": "App/rovenue-fallback.json", "diff-base": base])
            #expect(outcome.status == 2, "\(base)")
            #expect(outcome.stdout.contains("::error title=fallback-site::diff-base"))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.repository).sorted()
        #expect(files == [".git", "App"])
    }

    /// Names that look like options or shell code are files like any other.
    @Test func hostileFileNamesAndPatternsStayFileNames() throws {
        let workspace = try Workspace(committing: Self.clean)
        defer { workspace.close() }
        try workspace.place(Self.clean, at: "--format")
        try workspace.place(Self.withError, at: "App/$(touch injected) ;x.json")
        // A pattern with spaces is one glob, not words: it matches the one file, not the clean one.
        let outcome = try workspace.run(["snapshots": "--format\nApp/$(touch injected) ;*.json\n\n  \nnothing/*.json", "fail-on": "error"])
        #expect(outcome.status == 1)
        #expect(outcome.stdout.contains("::error file=App/$(touch injected) ;x.json,line="))
        #expect(!outcome.stdout.contains("::warning title=fallback-site::no file matches App"))
        #expect(outcome.stdout.contains("::warning title=fallback-site::no file matches nothing/*.json"))
        #expect(outcome.summary.contains("\\-\\-format"))
        #expect(!outcome.summary.contains("rovenue\\-fallback\\.json"), "the clean file is not one of the snapshots")
        let files = try FileManager.default.contentsOfDirectory(atPath: workspace.repository).sorted()
        #expect(files == ["--format", ".git", "App"])
    }

    @Test func noMatchingSnapshotIsAnError() throws {
        let workspace = try Workspace(committing: Self.clean)
        defer { workspace.close() }
        let outcome = try workspace.run(["snapshots": "Other/*.json"])
        #expect(outcome.status == 2)
        #expect(outcome.stdout.contains("::error title=fallback-site::no snapshot file matches"))
        #expect(outcome.ran == ["files"])
    }
}

/// What the runner itself must refuse, so that a step it cannot run never passes by being skipped.
@Suite("The action's test runner")
struct CompositeActionRunnerTests {
    @Test func theActionParsesAndEveryExpressionOutsideSetupIsUnderstood() throws {
        let runner = try CompositeActionRunner(tool: "/nonexistent/fallback-site")
        #expect(runner.action["runs"]?["using"]?.text == "composite")
        let ids = runner.steps.compactMap { $0["id"]?.text }
        #expect(ids.filter { $0.hasPrefix(CompositeActionRunner.skippedPrefix) } == ["setup-deps", "setup-key", "setup-cache", "setup-build"])
        for step in runner.steps {
            #expect(step["run"]?.text?.contains("${{") != true, "\(step["id"]?.text ?? "?") interpolates into its script")
        }
        for step in runner.steps where !(step["id"]?.text ?? "").hasPrefix(CompositeActionRunner.skippedPrefix) {
            for entry in step["env"]?.entries ?? [] {
                _ = try runner.substitute(entry.value.text ?? "", inputs: [:], stepOutputs: [:])
            }
        }
    }

    @Test(arguments: ["${{ github.token }}", "${{ inputs.nope }}", "${{ steps.nope.outputs.x }}", "${{ inputs.fail-on || 'error' }}", "${{ x"])
    func unknownExpressionsFail(_ expression: String) throws {
        let runner = try CompositeActionRunner(tool: "/nonexistent/fallback-site")
        #expect(throws: CompositeActionRunner.Failure.self) {
            try runner.substitute("a \(expression) b", inputs: [:], stepOutputs: [:])
        }
        #expect(try runner.substitute("${{ inputs.fail-on }}/${{ github.action_path }}", inputs: ["fail-on": "never"], stepOutputs: [:])
            == "never/" + repositoryRoot.path)
    }

    @Test func commandFilesReadBothForms() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("outputs-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "a=1\nb<<EOF\nline one\nline=two\nEOF\nc=\n".write(toFile: root + "/out", atomically: true, encoding: .utf8)
        #expect(try CompositeActionRunner.commandFile(root + "/out") == ["a": "1", "b": "line one\nline=two", "c": ""])
    }
}
