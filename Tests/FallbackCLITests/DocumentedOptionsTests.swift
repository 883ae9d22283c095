import Foundation
import Testing
@testable import FallbackCLI

/// The documentation agrees with the commands' declarations, by these conventions:
///
/// - README.md has, for every command, a heading `` ### `NAME …` `` (`theme export …` and
///   `template render …` with their action) that shows every option and flag of the command and
///   no other; an option followed by a value list (`--format text|json`) lists exactly its values.
/// - Every `fallback-site NAME …` command line in README.md and docs/*.md (inline code or a code
///   block, a line continued with `\` read as one) uses only options NAME takes; one that is a
///   synopsis (it has an optional `[--…]`) shows them all.
///
/// Each problem names the file, the line, the command and the option, so that an option added to
/// a command (`--verbose`, `--color`, …) fails here until the documentation shows it.
enum DocumentedOptions {
    /// The `--name`s a command takes: its options and flags.
    static func names(of signature: CommandSignature) -> [String] {
        signature.options.map { "--" + $0.name } + signature.flags.map { "--" + $0.name }
    }

    /// The `--name` words of `text`, in order.
    static func optionWords(in text: String) -> [String] {
        var words: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "--") {
            let afterDashes = rest[range.upperBound...]
            let name = afterDashes.prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            let before = range.lowerBound == rest.startIndex ? " " : rest[rest.index(before: range.lowerBound)]
            if let first = name.first, first.isLetter, " [(`".contains(before) { words.append("--" + name) }
            rest = afterDashes.dropFirst(name.count)
        }
        return words
    }

    /// Problems with README's command headings.
    static func headingProblems(readme: String, file: String = "README.md", signatures: [CommandSignature]) -> [String] {
        let lines = readme.components(separatedBy: "\n")
        var headings: [(line: Int, text: String)] = []
        for (index, line) in lines.enumerated() where line.hasPrefix("### `") {
            let text = line.dropFirst(5).prefix { $0 != "`" }
            headings.append((index + 1, String(text)))
        }
        var problems: [String] = []
        for signature in signatures {
            guard let heading = headings.first(where: { $0.text == signature.name || $0.text.hasPrefix(signature.name + " ") }) else {
                problems.append("\(file) has no heading ### `\(signature.name) …` for the \(signature.name) command")
                continue
            }
            let place = "\(file):\(heading.line): the heading ### `\(heading.text)`"
            let shown = optionWords(in: heading.text)
            let taken = names(of: signature)
            for name in taken where !shown.contains(name) {
                problems.append("\(place) does not show \(name), which `fallback-site \(signature.name) --help` lists")
            }
            for name in shown where !taken.contains(name) {
                problems.append("\(place) shows \(name), which \(signature.name) does not take")
            }
            // A value list after an option (`--format text|json`) is exactly the option's values.
            let words = heading.text.split(separator: " ").map(String.init)
            for (index, word) in words.enumerated().dropLast() where word.hasPrefix("--") || word.hasPrefix("[--") {
                let name = word.trimmingCharacters(in: CharacterSet(charactersIn: "["))
                let value = words[index + 1].trimmingCharacters(in: CharacterSet(charactersIn: "]"))
                guard value.contains("|"), let option = signature.option(named: String(name.dropFirst(2))), !option.choices.isEmpty else {
                    continue
                }
                let listed = value.split(separator: "|").map(String.init)
                if Set(listed) != Set(option.choices) {
                    problems.append("\(place) lists \(name) \(listed.joined(separator: "|")), but it takes \(option.choices.joined(separator: "|"))")
                }
            }
        }
        return problems
    }

    /// Problems with the `fallback-site NAME …` command lines of a Markdown `text`.
    static func commandLineProblems(in text: String, file: String, signatures: [CommandSignature]) -> [String] {
        var problems: [String] = []
        for (line, content) in logicalLines(text) {
            var rest = Substring(content)
            while let range = rest.range(of: "fallback-site ") {
                rest = rest[range.upperBound...]
                let name = String(rest.prefix { $0.isLetter || $0 == "-" })
                guard let signature = signatures.first(where: { $0.name == name }) else { continue }
                // The command line ends where the code span, the shell command or the sentence does.
                var end = rest.endIndex
                for stop in ["`", " | ", " && ", " || ", ";", " > ", " # "] {
                    if let found = rest.range(of: stop), found.lowerBound < end { end = found.lowerBound }
                }
                let commandLine = String(rest[..<end])
                let taken = names(of: signature) + ["--help"]
                let used = optionWords(in: commandLine)
                let place = "\(file):\(line): `fallback-site \(commandLine)`"
                for option in used where !taken.contains(option) { problems.append("\(place) uses \(option), which \(name) does not take") }
                if commandLine.contains("[--") {
                    for option in names(of: signature) where !used.contains(option) {
                        problems.append("\(place) is a synopsis of \(name) without \(option), which `fallback-site \(name) --help` lists")
                    }
                }
            }
        }
        return problems
    }

    /// The lines of `text` with their numbers; a line ending in `\`, or followed in a code block by
    /// an indented `[`, is joined with the next.
    static func logicalLines(_ text: String) -> [(Int, String)] {
        let lines = text.components(separatedBy: "\n")
        var result: [(Int, String)] = []
        var inCode = false
        var index = 0
        while index < lines.count {
            let number = index + 1
            var line = lines[index]
            if line.hasPrefix("```") { inCode.toggle() }
            while index + 1 < lines.count {
                let next = lines[index + 1]
                let continues =
                    line.hasSuffix("\\")
                    || (inCode && next.first == " " && next.trimmingCharacters(in: .whitespaces).hasPrefix("[--"))
                guard continues else { break }
                line = String(line.hasSuffix("\\") ? line.dropLast() : Substring(line)) + " " + next.trimmingCharacters(in: .whitespaces)
                index += 1
            }
            result.append((number, line))
            index += 1
        }
        return result
    }
}

@Suite("README and docs/ show every command's options as help does")
struct DocumentedOptionsTests {
    let signatures = CommandLineTool.commands.map { $0.signature }

    @Test func readmeHeadingsShowEveryOption() throws {
        let readme = try String(contentsOfFile: repositoryPath("README.md"), encoding: .utf8)
        let problems = DocumentedOptions.headingProblems(readme: readme, signatures: signatures)
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    @Test func commandLinesInTheDocumentationUseRealOptions() throws {
        var files = ["README.md"]
        files += try FileManager.default.contentsOfDirectory(atPath: repositoryPath("docs")).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var problems: [String] = []
        var commandLines = 0
        for file in files {
            let text = try String(contentsOfFile: repositoryPath(file), encoding: .utf8)
            commandLines += DocumentedOptions.logicalLines(text).filter { $0.1.contains("fallback-site ") }.count
            problems += DocumentedOptions.commandLineProblems(in: text, file: file, signatures: signatures)
        }
        #expect(commandLines > 20, "the scan should find the documented command lines")
        #expect(problems.isEmpty, "\(problems.count) problems:\n\(problems.joined(separator: "\n"))")
    }

    /// The checks on a made-up README: what they report, word for word, and what they let through.
    @Test func theChecksCanFail() {
        let check = CommandSignature(
            name: "check", abstract: "",
            options: [
                TypedOption<String>(name: "config", valueName: "file", help: "").declaration,
                TypedOption<ResolveCommand.OutputFormat>(name: "format", valueName: "f", help: "").declaration,
            ],
            flags: [CommandSignature.Flag(name: "verbose", help: "")])
        let theme = CommandSignature(name: "theme", abstract: "", flags: [CommandSignature.Flag(name: "force", help: "")])
        let readme = """
            # Tool

            ### `check FILE... [--format text|xml] [--config FILE] [--colour]`

            ```sh
            fallback-site check a.json --format json \\
                --verbose --config c.json | fallback-site theme export --force
            fallback-site check FILE [--config FILE]
                                     [--verbose]
            ```
            Also `fallback-site theme export D --quiet` and `fallback-site validates` files.
            """
        #expect(
            DocumentedOptions.headingProblems(readme: readme, signatures: [check, theme]) == [
                "README.md:3: the heading ### `check FILE... [--format text|xml] [--config FILE] [--colour]` does not show --verbose, which `fallback-site check --help` lists",
                "README.md:3: the heading ### `check FILE... [--format text|xml] [--config FILE] [--colour]` shows --colour, which check does not take",
                "README.md:3: the heading ### `check FILE... [--format text|xml] [--config FILE] [--colour]` lists --format text|xml, but it takes text|json",
                "README.md has no heading ### `theme …` for the theme command",
            ])
        #expect(
            DocumentedOptions.commandLineProblems(in: readme, file: "README.md", signatures: [check, theme]) == [
                "README.md:8: `fallback-site check FILE [--config FILE] [--verbose]` is a synopsis of check without --format, which `fallback-site check --help` lists",
                "README.md:11: `fallback-site theme export D --quiet` uses --quiet, which theme does not take",
            ])
    }
}
