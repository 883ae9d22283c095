import FallbackAudit
import RovenueFallback

/// What a shell offers for an option's value or an argument, in the style of swift-argument-parser's
/// `CompletionKind`: the completion scripts (`fallback-site completions`) are generated from it.
enum ValueCompletion: Sendable, Equatable {
    /// Free text the shell cannot guess (a title, an id, a number, a URL): nothing is offered.
    case anything
    /// A path to a file (folders are offered too, to get there).
    case file
    /// A path to a folder.
    case directory
    /// One of these words.
    case words([String])
}

/// A command's arguments, options and flags, declared once: the parser, the help text and the shell
/// completions all come from it, in the style of swift-argument-parser.
struct CommandSignature: Sendable {
    struct Positional: Sendable {
        enum Arity: Sendable { case one, optional, oneOrMore, zeroOrMore }
        let name: String
        let arity: Arity
        let help: String
        /// What a shell offers for it.
        var completion: ValueCompletion = .anything

        /// How the usage line shows it: an action with one possible word is that word (`render`).
        var usage: String {
            if arity == .one, case .words(let words) = completion, words.count == 1 { return words[0] }
            return switch arity {
            case .one: "<\(name)>"
            case .optional: "[<\(name)>]"
            case .oneOrMore: "<\(name)> ..."
            case .zeroOrMore: "[<\(name)> ...]"
            }
        }
    }

    /// An option as the parser and the help see it; commands declare options as `TypedOption`s.
    struct Option: Sendable {
        let name: String
        let valueName: String
        let help: String
        /// The accepted values, when the option is a choice.
        var choices: [String] = []
        /// What help says the default is; nil when the option has none.
        var defaultDescription: String?
        var isRequired = false
        var isRepeatable = false
        /// The typed value a text spells; nil when it spells none.
        var read: @Sendable (String) -> (any Sendable)? = { $0 }
        /// What an open-ended value must be, said when one is refused.
        var expectation = ""
        /// What a shell offers for an open-ended value (a path, a folder); `choices` when there are some.
        var valueCompletion: ValueCompletion = .anything

        var usage: String { "--\(name) <\(valueName)>" }

        /// What a shell offers for the value: the choices, else `valueCompletion`.
        var completion: ValueCompletion { choices.isEmpty ? valueCompletion : .words(choices) }

        /// The usage error for a `value` this option does not accept: the accepted values, and the
        /// closest of them when `value` looks like a typo of it.
        func invalid(_ value: String) -> UsageError {
            guard !choices.isEmpty else { return UsageError(message: "The value '\(value)' is invalid for '\(usage)': \(expectation)") }
            return CommandSignature.invalidChoice(value, for: usage, among: choices)
        }
    }

    /// Command lines that show the command at work, for the end of its help.
    struct Example: Sendable {
        /// What the example does, one sentence.
        let summary: String
        /// Each line's arguments after the tool's name, as typed in a POSIX shell at the repository's
        /// root, run in order: the last runs the command, those before it prepare its input.
        let lines: [String]

        init(_ summary: String, _ lines: String...) {
            self.summary = summary
            self.lines = lines
        }
    }

    struct Flag: Sendable {
        let name: String
        let help: String
    }

    let name: String
    let abstract: String
    var discussion: String = ""
    var positionals: [Positional] = []
    var options: [Option] = []
    var flags: [Flag] = []
    /// Command lines that help ends with; real ones, over the files in Examples/ where they can be.
    var examples: [Example] = []

    func option(named name: String) -> Option? { options.first { ExactKey.same($0.name, name) } }

    /// The usage error for a `value` that is none of `choices` (for the option or argument `usage`),
    /// with the closest choice when `value` looks like a typo of it.
    static func invalidChoice(_ value: String, for usage: String, among choices: [String]) -> UsageError {
        let suggestion = Format.suggestion(for: value, among: choices).map { " Did you mean '\($0)'?" } ?? ""
        return UsageError(
            message: "The value '\(value)' is invalid for '\(usage)'. Please provide one of \(list(choices.map { "'\($0)'" })).\(suggestion)")
    }
}

/// What the parser read from the command line: each option's values already typed (the
/// `TypedOption` that declares it reads them back), so no command parses a value twice.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var values: [String: [any Sendable]] = [:]
    var flags: Set<String> = []

    /// The last value given for `option`, else its default.
    func value<Value>(_ option: TypedOption<Value>) -> Value? {
        values[option.name]?.last.flatMap { $0 as? Value } ?? option.defaultValue
    }

    /// True when `option` was given on the command line (not defaulted).
    func isGiven<Value>(_ option: TypedOption<Value>) -> Bool { values[option.name] != nil }

    func has(_ flag: CommandSignature.Flag) -> Bool { flags.contains(flag.name) }
}

/// A command-line mistake: printed with the usage line, exit status 2.
struct UsageError: Error, Sendable {
    let message: String
}

/// The outcome of parsing: arguments to run with, or a request for help.
enum ParseOutcome: Sendable {
    case run(ParsedArguments)
    case help
}

extension CommandSignature {
    func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
        var parsed = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            // Arguments are told apart by their bytes (`ExactKey.same`), never by `String`'s
            // canonical comparison: that reads "-" and a combining mark as one character, and
            // normalises the whole argument on every comparison, which for a long run of marks out
            // of canonical order costs time quadratic in its length.
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !Self.isOption(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if ExactKey.same(argument, "--") {
                onlyPositionals = true
                continue
            }
            if ExactKey.same(argument, "-h") || ExactKey.same(argument, "--help") { return .help }
            guard argument.utf8.starts(with: "--".utf8) else { throw UsageError(message: "Unknown option '\(argument)'") }
            var name = String(Substring(argument.utf8.dropFirst(2)))
            var inlineValue: String?
            if let equals = name.utf8.firstIndex(of: UInt8(ascii: "=")) {
                inlineValue = String(Substring(name.utf8[name.utf8.index(after: equals)...]))
                name = String(Substring(name.utf8[..<equals]))
            }
            if let flag = flags.first(where: { ExactKey.same($0.name, name) }) {
                if inlineValue != nil { throw UsageError(message: "The flag '--\(flag.name)' does not take a value") }
                parsed.flags.insert(flag.name)
                continue
            }
            guard let option = option(named: name) else { throw unknownOption(name) }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !(arguments[index].utf8.starts(with: "--".utf8) && arguments[index].utf8.count > 2) else {
                    throw UsageError(message: "Missing value for '\(option.usage)'")
                }
                value = arguments[index]
                index += 1
            }
            guard let typed = option.read(value) else { throw option.invalid(value) }
            if parsed.values[name] != nil, !option.isRepeatable {
                parsed.values[name] = [typed]
            } else {
                parsed.values[name, default: []].append(typed)
            }
        }
        for option in options where option.isRequired && parsed.values[option.name] == nil {
            throw UsageError(message: "Missing expected argument '\(option.usage)'")
        }
        try checkPositionals(parsed.positionals)
        return .run(parsed)
    }

    /// `Unknown option '--NAME'`, with the closest option or flag when NAME looks like a typo of it.
    /// An argument that starts with a dash and is more than the dash alone (`-` names standard
    /// input or output); by bytes, so a dash and a combining mark after it still start an option.
    static func isOption(_ argument: String) -> Bool {
        argument.utf8.first == UInt8(ascii: "-") && argument.utf8.count > 1
    }

    private func unknownOption(_ name: String) -> UsageError {
        let names = options.map(\.name) + flags.map(\.name)
        let suggestion = Format.suggestion(for: name, among: names).map { " (did you mean '--\($0)'?)" } ?? ""
        return UsageError(message: "Unknown option '--\(name)'\(suggestion)")
    }

    private func checkPositionals(_ values: [String]) throws(UsageError) {
        var remaining = values.count
        for positional in positionals {
            switch positional.arity {
            case .one, .oneOrMore:
                if remaining == 0 { throw UsageError(message: "Missing expected argument '\(positional.usage)'") }
                remaining -= positional.arity == .one ? 1 : remaining
            case .optional:
                if remaining > 0 { remaining -= 1 }
            case .zeroOrMore:
                remaining = 0
            }
        }
        if remaining > 0 {
            throw UsageError(message: "Unexpected argument '\(values[values.count - remaining])'")
        }
    }

    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: ""
        case 1: items[0]
        case 2: "\(items[0]) and \(items[1])"
        default: items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }

    /// `USAGE:` line without the label.
    func usage(tool: String) -> String {
        // As a command is typed: the arguments, then the options it needs, then the optional ones.
        var parts = ["\(tool) \(name)"] + positionals.map(\.usage)
        for option in options where option.isRequired { parts.append(option.usage) }
        for option in options where !option.isRequired { parts.append("[\(option.usage)]") }
        for flag in flags { parts.append("[--\(flag.name)]") }
        return parts.joined(separator: " ")
    }

    func help(tool: String) -> String {
        var lines = ["OVERVIEW: \(abstract)", ""]
        if !discussion.isEmpty { lines += [discussion, ""] }
        lines += ["USAGE: \(usage(tool: tool))", ""]
        if !positionals.isEmpty {
            lines.append("ARGUMENTS:")
            for positional in positionals { lines.append(Self.helpRow("<\(positional.name)>", positional.help)) }
            lines.append("")
        }
        lines.append("OPTIONS:")
        for option in options {
            var text = option.help
            if !option.choices.isEmpty { text += " (values: \(option.choices.joined(separator: ", ")))" }
            if let defaultDescription = option.defaultDescription { text += " (default: \(defaultDescription))" }
            lines.append(Self.helpRow(option.usage, text))
        }
        for flag in flags { lines.append(Self.helpRow("--\(flag.name)", flag.help)) }
        lines.append(Self.helpRow("-h, --help", "Show help information."))
        lines += Self.exampleLines(examples, tool: tool)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `EXAMPLES:` section, after a blank line; nothing when there are none.
    static func exampleLines(_ examples: [Example], tool: String) -> [String] {
        guard !examples.isEmpty else { return [] }
        var lines = ["", "EXAMPLES:"]
        for (index, example) in examples.enumerated() {
            if index > 0 { lines.append("") }
            lines.append("  \(example.summary)")
            lines += example.lines.map { "    $ \(tool) \($0)" }
        }
        return lines
    }

    static func helpRow(_ label: String, _ text: String) -> String {
        let indent = "  "
        let column = 26
        let padded = indent + label
        if padded.count + 2 <= column {
            return padded + String(repeating: " ", count: column - padded.count) + text
        }
        return padded + "\n" + String(repeating: " ", count: column) + text
    }
}
