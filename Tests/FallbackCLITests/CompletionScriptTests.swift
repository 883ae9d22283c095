import Foundation
import Testing
@testable import FallbackCLI

/// The first of `names` found on `PATH`.
func programOnPath(_ names: String...) -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for name in names {
        for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") { return "\(folder)/\(name)" }
    }
    return nil
}

/// Runs `program` with `arguments` in `folder`; returns the exit status and both streams.
func runProgram(_ program: String, _ arguments: [String], in folder: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    // Standard error goes to a file, so that neither stream can fill a pipe and stall the process.
    let errorPath = temporaryRoot + "/stderr-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: errorPath) }
    try Data().write(to: URL(fileURLWithPath: errorPath))
    let errorFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errorFile
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errorFile.close()
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), text(at: errorPath) ?? "")
}

/// Every command's signature, and `help`: what a completion script must cover.
private let signatures = CommandLineTool.commands.map { $0.signature }

private func script(_ shell: String) -> String {
    let result = run(["completions", shell])
    #expect(result.status == 0, "\(result.error)")
    return result.output
}

/// The `shell` script saved as `name` in a new temporary folder, which the caller removes.
private func savedScript(_ shell: String, as name: String) throws -> (folder: String, file: String) {
    let folder = try temporaryFolder()
    let file = folder + "/" + name
    try Data(script(shell).utf8).write(to: URL(fileURLWithPath: file))
    return (folder, file)
}

@Suite("fallback-site completions")
struct CompletionScriptTests {
    /// Every subcommand, option, flag and value list of every signature appears in each script.
    @Test(arguments: ["bash", "zsh", "fish"])
    func everyCommandOptionAndValueAppears(shell: String) {
        let text = script(shell)
        #expect(signatures.count >= 10, "the commands list should hold every command")
        #expect(text.contains("help"))
        var missing: [String] = []
        for signature in signatures {
            if !text.contains(signature.name) { missing.append(signature.name) }
            // fish names an option without its dashes (`-l format`); bash and zsh spell `--format`.
            let spell = { (name: String) in shell == "fish" ? "-l \(name)" : "--\(name)" }
            for option in signature.options where !text.contains(spell(option.name)) { missing.append("\(signature.name) --\(option.name)") }
            for flag in signature.flags where !text.contains(spell(flag.name)) { missing.append("\(signature.name) --\(flag.name)") }
            for option in signature.options {
                for choice in option.choices where !text.contains(choice) { missing.append("\(signature.name) --\(option.name) \(choice)") }
            }
            for positional in signature.positionals {
                if case .words(let words) = positional.completion {
                    for word in words where !text.contains(word) { missing.append("\(signature.name) <\(positional.name)> \(word)") }
                }
            }
        }
        #expect(missing.isEmpty, "the \(shell) script misses \(missing)")
    }

    @Test func anUnknownShellIsAUsageErrorWithASuggestion() {
        let result = run(["completions", "bsh"])
        #expect(result.status == 2)
        #expect(result.error.contains("The value 'bsh' is invalid for '<shell>'. Please provide one of 'bash', 'zsh' and 'fish'. Did you mean 'bash'?"))
        #expect(result.error.contains("Usage: fallback-site completions <shell>"))
        #expect(result.output.isEmpty)
    }

    /// The same script every time: it is generated, not dated.
    @Test func theScriptIsTheSameEveryTime() {
        #expect(script("bash") == script("bash"))
    }

    /// Quoting: a word with characters a shell treats specially stays one literal word.
    @Test func quotingKeepsWordsLiteral() {
        #expect(CompletionScript.bashQuoted("text") == "text")
        #expect(CompletionScript.bashQuoted("it's $HOME") == #"'it'\''s $HOME'"#)
        #expect(CompletionScript.bashQuoted("") == "''")
        #expect(CompletionScript.word("a b$") == #"a\ b\$"#)
        #expect(CompletionScript.fishQuoted(#"it's \"#) == #"'it\'s \\'"#)
        #expect(CompletionScript.zshDescription("a [b]: c") == #"a \[b\]\: c"#)
    }
}

/// The bash script, loaded into a real bash and asked to complete, as a terminal would.
@Suite("The bash completion script in bash")
struct BashCompletionTests {
    let bash = programOnPath("bash")

    /// Loads `script` (else the tool's) into bash, then runs `commands`; returns what bash printed.
    func inBash(_ commands: String, script: String? = nil, in folder: String? = nil) throws -> (status: Int32, output: String, error: String) {
        let bash = try #require(bash, "bash is needed to check the bash completion script")
        let (root, file) = try savedScript("bash", as: "fallback-site.bash")
        defer { try? FileManager.default.removeItem(atPath: root) }
        if let script { try Data(script.utf8).write(to: URL(fileURLWithPath: file)) }
        return try runProgram(bash, ["--norc", "--noprofile", "-c", ". \(CompletionScript.bashQuoted(file)) || exit 9\n" + commands], in: folder)
    }

    /// What `_fallback_site` puts in COMPREPLY for the words typed so far (the last is being completed).
    func complete(_ words: [String], script: String? = nil, in folder: String? = nil) throws -> [String] {
        let array = words.map(CompletionScript.bashQuoted).joined(separator: " ")
        let result = try inBash(
            """
            COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1)
            COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
            _fallback_site
            printf '%s\\n' "${COMPREPLY[@]}"
            """, script: script, in: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func theScriptParses() throws {
        let bash = try #require(bash)
        let (root, file) = try savedScript("bash", as: "fallback-site.bash")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try runProgram(bash, ["-n", file])
        #expect(result.status == 0, "bash -n: \(result.error)")
    }

    @Test func sourcingRegistersTheCompletion() throws {
        let result = try inBash("complete -p fallback-site")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "complete -F _fallback_site fallback-site\n")
    }

    @Test func subcommands() throws {
        #expect(try complete(["fallback-site", "ch"]) == ["check"])
        #expect(try complete(["fallback-site", "t"]) == ["theme", "template"])
        #expect(try complete(["fallback-site", ""]) == signatures.map(\.name) + ["help"])
        #expect(try complete(["fallback-site", "help", "co"]) == ["context", "completions"])
        #expect(try complete(["fallback-site", "--v"]) == ["--version"])
    }

    @Test func optionsOfTheCommand() throws {
        #expect(try complete(["fallback-site", "check", "--f"]) == ["--format", "--fail-on"])
        #expect(try complete(["fallback-site", "build", "Examples", "--q"]) == ["--quiet"])
        #expect(try complete(["fallback-site", "resolve", "--"]).contains("--subscriber"))
        #expect(try complete(["fallback-site", "diff", "old.json", "--h"]) == ["--help"])
    }

    @Test func valueLists() throws {
        #expect(try complete(["fallback-site", "check", "--format", ""]) == ["text", "json", "markdown", "github", "junit", "sarif"])
        #expect(try complete(["fallback-site", "diff", "--fail-on", ""]) == ["breaking", "notable", "never"])
        #expect(try complete(["fallback-site", "check", "--fail-on", "w"]) == ["warning"])
        #expect(try complete(["fallback-site", "history", "--fail-on", ""]) == ["error", "warning", "info", "never"])
        #expect(try complete(["fallback-site", "resolve", "--format", ""]) == ["text", "json"])
        #expect(try complete(["fallback-site", "template", "render", "t.md", "--escape", "m"]) == ["markdown"])
        // `--format=js`: bash splits the word at '='.
        #expect(try complete(["fallback-site", "check", "--format", "=", "js"]) == ["json"])
        #expect(try complete(["fallback-site", "check", "--format", "="]).count == 6)
        // A value the shell cannot guess is not completed with anything.
        #expect(try complete(["fallback-site", "build", "--title", ""]) == [])
    }

    /// An option a command declares later is completed with no change to the generator: its values
    /// come from its type's cases, a path from its declaration. Values with shell syntax stay literal.
    @Test func anOptionAddedLaterIsCompleted() throws {
        enum Colour: String, CaseIterable, ArgumentValue { case auto, always, never, odd = "it's $(x)" }
        let check = CommandSignature(
            name: "check", abstract: "Check.",
            options: [
                TypedOption<Colour>(name: "color", valueName: "when", help: "Colour.").declaration,
                TypedOption<String>(name: "log", valueName: "dir", help: "Logs.", completion: .directory).declaration,
            ],
            flags: [CommandSignature.Flag(name: "verbose", help: "All findings.")])
        let script = CompletionScript(tool: "fallback-site", commands: [check]).bash
        #expect(try complete(["fallback-site", "check", "--"], script: script) == ["--color", "--log", "--verbose", "--help"])
        #expect(try complete(["fallback-site", "check", "--color", "a"], script: script) == ["auto", "always"])
        #expect(try complete(["fallback-site", "check", "--color", "it"], script: script) == ["it's $(x)"])
        #expect(try complete(["fallback-site", "check", "--log", "/nonexistent-folder-"], script: script) == [])
    }

    @Test func actionsAndPaths() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/site folder", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/snap.json"))
        #expect(try complete(["fallback-site", "theme", ""], in: root) == ["export"])
        #expect(try complete(["fallback-site", "template", ""], in: root) == ["render"])
        // The argument after the action is a folder: only folders are offered.
        #expect(try complete(["fallback-site", "theme", "export", ""], in: root) == ["site folder"])
        #expect(try complete(["fallback-site", "build", "snap.json", "--out", "s"], in: root) == ["site folder"])
        // Files (and folders, to get to them) for a snapshot, also after options and their values.
        #expect(try complete(["fallback-site", "check", "--format", "json", "sn"], in: root) == ["snap.json"])
        #expect(try complete(["fallback-site", "check", "--config", "s"], in: root).sorted() == ["site folder", "snap.json"])
        #expect(try complete(["fallback-site", "diff", "--format=json", "snap.json", "sn"], in: root) == ["snap.json"])
        // diff takes two snapshots; a third word is offered the options instead.
        #expect(try complete(["fallback-site", "diff", "a.json", "b.json", ""], in: root).contains("--fail-on"))
    }
}

/// zsh and fish check their scripts' syntax when they are installed, and always in CI, where a
/// missing shell fails (bash always runs, above).
@Suite("The zsh and fish completion scripts")
struct OtherShellCompletionTests {
    /// `zsh -n`; then loaded as compinit loads it from a folder on $fpath, and by `source` after compinit.
    @Test(.enabled(if: suiteRuns(programFound: programOnPath("zsh") != nil), "zsh is not installed (make shell-deps)"), arguments: ["syntax", "fpath", "source"])
    func zshLoadsTheScript(way: String) throws {
        let zsh = try #require(programOnPath("zsh"))
        let (root, file) = try savedScript("zsh", as: "_fallback-site")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let start = "autoload -Uz compinit && compinit -u -d \"$1/.zcompdump\""
        let arguments =
            switch way {
            case "syntax": ["-n", file]
            case "fpath": ["-f", "-c", "fpath=(\"$1\" $fpath); \(start) && print -r -- $_comps[fallback-site]", "zsh", root]
            default: ["-f", "-c", "\(start) && . \"$1/_fallback-site\" && print -r -- $_comps[fallback-site]", "zsh", root]
            }
        let result = try runProgram(zsh, arguments, in: root)
        #expect(result.status == 0, "zsh (\(way)): \(result.error)")
        #expect(result.error.isEmpty, "zsh (\(way)): \(result.error)")
        if way != "syntax" { #expect(result.output == "_fallback-site\n", "\(result.output)") }
    }

    @Test(.enabled(if: suiteRuns(programFound: programOnPath("fish") != nil), "fish is not installed (make shell-deps)"))
    func fishLoadsTheScript() throws {
        let fish = try #require(programOnPath("fish"))
        let (root, file) = try savedScript("fish", as: "fallback-site.fish")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let syntax = try runProgram(fish, ["--no-execute", file])
        #expect(syntax.status == 0, "fish -n: \(syntax.error)")
        // What fish offers, as a terminal would ask it: the script loaded, then `complete -C`.
        let offered = { (line: String) throws -> [String] in
            let result = try runProgram(
                fish, ["--no-config", "-c", "source \(CompletionScript.fishQuoted(file)); complete -C \(CompletionScript.fishQuoted(line))"],
                in: root)
            #expect(result.error.isEmpty, "\(result.error)")
            return result.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try offered("fallback-site ch") == ["check"])
        #expect(try offered("fallback-site diff --fail-on ").sorted() == ["breaking", "never", "notable"])
        #expect(try offered("fallback-site check --format j") == ["json", "junit"])
        #expect(try offered("fallback-site theme ") == ["export"])
    }
}
