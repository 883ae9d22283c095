/// A command's arguments, options and flags, declared once: the parser and the help text both come
/// from it, in the style of swift-argument-parser.
struct CommandSignature: Sendable {
    struct Positional: Sendable {
        enum Arity: Sendable { case one, optional, oneOrMore, zeroOrMore }
        let name: String
        let arity: Arity
        let help: String

        var usage: String {
            switch arity {
            case .one: "<\(name)>"
            case .optional: "[<\(name)>]"
            case .oneOrMore: "<\(name)> ..."
            case .zeroOrMore: "[<\(name)> ...]"
            }
        }
    }

    struct Option: Sendable {
        let name: String
        let valueName: String
        let help: String
        /// The accepted values, when the option is a choice.
        var choices: [String] = []
        var defaultValue: String?
        var isRequired = false
        var isRepeatable = false

        var usage: String { "--\(name) <\(valueName)>" }
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

    func option(named name: String) -> Option? { options.first { $0.name == name } }
}

/// What the parser read from the command line.
struct ParsedArguments: Sendable {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    /// The last value given for an option, else its default.
    func value(_ name: String, in signature: CommandSignature) -> String? {
        options[name]?.last ?? signature.option(named: name)?.defaultValue
    }

    func values(_ name: String) -> [String] { options[name] ?? [] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
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
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            if argument == "-h" || argument == "--help" { return .help }
            guard argument.hasPrefix("--") else { throw UsageError(message: "Unknown option '\(argument)'") }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if let flag = flags.first(where: { $0.name == name }) {
                if inlineValue != nil { throw UsageError(message: "The flag '--\(flag.name)' does not take a value") }
                parsed.flags.insert(flag.name)
                continue
            }
            guard let option = option(named: name) else { throw UsageError(message: "Unknown option '--\(name)'") }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count, !(arguments[index].hasPrefix("--") && arguments[index].count > 2) else {
                    throw UsageError(message: "Missing value for '\(option.usage)'")
                }
                value = arguments[index]
                index += 1
            }
            if !option.choices.isEmpty, !option.choices.contains(value) {
                throw UsageError(
                    message: "The value '\(value)' is invalid for '\(option.usage)'. Please provide one of \(Self.list(option.choices.map { "'\($0)'" })).")
            }
            if parsed.options[name] != nil, !option.isRepeatable {
                parsed.options[name] = [value]
            } else {
                parsed.options[name, default: []].append(value)
            }
        }
        for option in options where option.isRequired && parsed.options[option.name] == nil {
            throw UsageError(message: "Missing expected argument '\(option.usage)'")
        }
        try checkPositionals(parsed.positionals)
        return .run(parsed)
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
        var parts = ["\(tool) \(name)"]
        for option in options where option.isRequired { parts.append(option.usage) }
        parts += positionals.map(\.usage)
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
            if let defaultValue = option.defaultValue { text += " (default: \(defaultValue))" }
            lines.append(Self.helpRow(option.usage, text))
        }
        for flag in flags { lines.append(Self.helpRow("--\(flag.name)", flag.help)) }
        lines.append(Self.helpRow("-h, --help", "Show help information."))
        return lines.joined(separator: "\n") + "\n"
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
