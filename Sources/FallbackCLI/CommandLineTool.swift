import FallbackAudit
import FallbackSite
import Foundation
import RovenueFallback

/// Everything a command touches outside itself, as closures, so commands run in tests without a
/// terminal or a disk.
public struct CommandEnvironment: Sendable {
    public var writeOutput: @Sendable (String) -> Void
    /// Writes one message line (or part of one) to standard error. In `CommandLineTool.run` every
    /// hidden character and line break in it is spelled out but a final line feed, so a path in a
    /// message cannot forge a line; a message of several lines is several calls (`writeErrorLines`).
    public var writeError: @Sendable (String) -> Void
    public var readFile: @Sendable (String) throws -> [UInt8]
    /// Writes a whole file atomically (a temporary file beside it, then a rename); the real one
    /// writes only where nothing or a regular file is (`RegularFile.write(_:to:)`).
    public var writeFile: @Sendable (String, [UInt8]) throws -> Void
    /// Appends to a file, creating it when missing; unless given, `readFile` then `writeFile` of the whole.
    public var appendFile: @Sendable (String, [UInt8]) throws -> Void
    public var now: @Sendable () -> Date
    public var variables: [String: String]
    /// Where a site is written (folders, whole files, swaps).
    public var fileIO: FileIO
    /// Standard error is a terminal: progress may be shown there.
    public var isErrorTerminal: Bool
    /// Standard output is a terminal: text output may be coloured (`--color auto`).
    public var isOutputTerminal: Bool
    /// Seconds on a clock that only moves forward, from any origin: how long work has run, for
    /// progress and `build --watch` (never written into a file).
    public var clock: @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }
    /// How `build --watch` waits between polls and learns that it should stop (Ctrl-C).
    public var watch: WatchControl = .live
    /// Holds what a command has finished with for the process's exit to discard (`ExitKeeper`):
    /// the real process keeps, an environment made with `init` lets go at once.
    public var exitKeeper: ExitKeeper = .none
    /// The columns of standard error's terminal, asked at each progress draw; nil when unknown
    /// (then `COLUMNS`, then 80: see `errorTerminalWidth`).
    public var terminalColumns: @Sendable () -> Int? = { nil }
    /// Writes to standard error as it is, for a progress line's own control characters;
    /// `writeError` spells out hidden characters (see `CommandLineTool.run`).
    var writeTerminal: @Sendable (String) -> Void

    public init(
        writeOutput: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        readFile: @escaping @Sendable (String) throws -> [UInt8], writeFile: @escaping @Sendable (String, [UInt8]) throws -> Void,
        now: @escaping @Sendable () -> Date, variables: [String: String], fileIO: FileIO = .disk, isErrorTerminal: Bool = false,
        isOutputTerminal: Bool = false, appendFile: (@Sendable (String, [UInt8]) throws -> Void)? = nil
    ) {
        self.appendFile = appendFile ?? { path, bytes in
            let existing: [UInt8]
            do {
                existing = try readFile(path)
            } catch where CommandEnvironment.isMissingFile(error) {
                existing = []
            }
            try writeFile(path, existing + bytes)
        }
        self.fileIO = fileIO
        self.isErrorTerminal = isErrorTerminal
        self.isOutputTerminal = isOutputTerminal
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.writeTerminal = writeError
        self.readFile = readFile
        self.writeFile = writeFile
        self.now = now
        self.variables = variables
    }

    /// The real process: standard streams, the file system, the clock and the terminal's width.
    public static let live: CommandEnvironment = {
        var environment = realProcess
        environment.terminalColumns = { terminalColumns(of: 2) }
        environment.exitKeeper = .process
        return environment
    }()

    /// Writes `text` to `handle` in one write, from the string's own UTF-8 storage: a report of
    /// tens of megabytes is not copied into a second buffer first.
    private static func write(_ text: String, to handle: FileHandle) {
        var text = text
        text.withUTF8 { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            handle.write(Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none))
        }
    }

    private static let realProcess = CommandEnvironment(
        writeOutput: { write($0, to: .standardOutput) },
        writeError: { FileHandle.standardError.write(Data($0.utf8)) },
        readFile: { path in
            if path == "-" { return [UInt8](FileHandle.standardInput.readDataToEndOfFile()) }
            return try RegularFile.read(path)
        },
        writeFile: { path, bytes in
            if path == "-" {
                FileHandle.standardOutput.write(Data(bytes))
                return
            }
            try RegularFile.write(bytes, to: path)
        },
        now: { Date() },
        variables: ProcessInfo.processInfo.environment,
        fileIO: .disk,
        isErrorTerminal: isatty(2) != 0,
        isOutputTerminal: isatty(1) != 0,
        appendFile: { try RegularFile.append($1, to: $0) })
}

/// A subcommand of `fallback-site`: its options are parsed once, into `Options`, before it runs.
protocol Command: Sendable {
    /// The command's options and arguments as typed values.
    associatedtype Options: Sendable
    static var signature: CommandSignature { get }
    /// The typed options from what the parser read. Every value has its type already; what the
    /// parser cannot judge alone (a combination of options, an action's name) is a usage error here.
    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options
    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32
}

extension Command {
    /// Reads the typed options from `arguments`, then runs.
    static func run(parsing arguments: ParsedArguments, in environment: CommandEnvironment) throws(UsageError) -> Int32 {
        run(try options(arguments), in: environment)
    }
}

/// Exit statuses shared by every command.
enum ExitStatus {
    static let success: Int32 = 0
    /// A finding reached the failure threshold, the file is rejected, or the placement is not loaded.
    static let failure: Int32 = 1
    /// A usage error, an unreadable path or a configuration file that cannot be used.
    static let usage: Int32 = 2
}

/// The `fallback-site` command line.
public enum CommandLineTool {
    public static let name = "fallback-site"
    public static let version = "0.1.0"

    static let commands: [any Command.Type] = [
        CheckCommand.self, ResolveCommand.self, BuildCommand.self, ThemeCommand.self, ContextCommand.self, TemplateCommand.self,
        SampleCommand.self, DiffCommand.self, HistoryCommand.self, CompletionsCommand.self,
    ]

    /// What the tool's own help ends with.
    static let examples: [CommandSignature.Example] = [
        .init("Check a snapshot as the SDK loads it:", "check Examples/2026-07-21-release-3.4.json"),
        .init("Build its dashboard into _site/:", "build Examples/2026-07-21-release-3.4.json --out _site"),
    ]

    static var overview: String {
        var lines = [
            "OVERVIEW: Validate Rovenue's offline fallback file (rovenue-fallback.json) exactly as the SDK's loader reads it.",
            "",
            "USAGE: \(name) <subcommand>",
            "",
            "OPTIONS:",
            CommandSignature.helpRow("--version", "Show the version."),
            CommandSignature.helpRow("-h, --help", "Show help information."),
            "",
            "SUBCOMMANDS:",
        ]
        for command in commands {
            lines.append(CommandSignature.helpRow(command.signature.name, command.signature.abstract))
        }
        lines += ["", "  See '\(name) help <subcommand>' for detailed help."]
        lines += CommandSignature.exampleLines(examples, tool: name)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the tool with `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], in environment: CommandEnvironment = .live) -> Int32 {
        // Everything on standard error is for a person (messages, progress): hidden characters and
        // line breaks in a path, key or commit subject are spelled out there, whatever the command.
        var environment = environment
        let writeError = environment.writeError
        environment.writeError = { writeError(messageLine($0)) }
        guard let first = arguments.first else {
            environment.writeErrorLines(overview.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
            return ExitStatus.usage
        }
        // Names are matched by their bytes, as `CommandSignature.parse` matches options.
        if ExactKey.same(first, "-h") || ExactKey.same(first, "--help") {
            environment.writeOutput(overview)
            return ExitStatus.success
        }
        if ExactKey.same(first, "--version") {
            environment.writeOutput(version + "\n")
            return ExitStatus.success
        }
        if ExactKey.same(first, "help") {
            // `help` and `help help` are the tool's own help, as git's and swift-argument-parser's.
            guard arguments.count > 1, !ExactKey.same(arguments[1], "help") else {
                environment.writeOutput(overview)
                return ExitStatus.success
            }
            guard let command = command(named: arguments[1]) else {
                return usageError(unknownSubcommand(arguments[1]), usage: "\(name) <subcommand>", helpName: name, environment)
            }
            environment.writeOutput(command.signature.help(tool: name))
            return ExitStatus.success
        }
        guard let command = command(named: first) else {
            let message = first.utf8.first == UInt8(ascii: "-") ? "Unknown option '\(first)'" : unknownSubcommand(first)
            return usageError(message, usage: "\(name) <subcommand>", helpName: name, environment)
        }
        let signature = command.signature
        do {
            switch try signature.parse(Array(arguments.dropFirst())) {
            case .help:
                environment.writeOutput(signature.help(tool: name))
                return ExitStatus.success
            case .run(let parsed):
                return try command.run(parsing: parsed, in: environment)
            }
        } catch {
            return usageError(error.message, usage: signature.usage(tool: name), helpName: "\(name) \(signature.name)", environment)
        }
    }

    static func command(named name: String) -> (any Command.Type)? {
        commands.first { ExactKey.same($0.signature.name, name) }
    }

    /// `Unknown subcommand 'NAME'`, with the closest subcommand when NAME looks like a typo of it.
    static func unknownSubcommand(_ name: String) -> String {
        let suggestion = Format.suggestion(for: name, among: commands.map { $0.signature.name }).map { " (did you mean '\($0)'?)" } ?? ""
        return "Unknown subcommand '\(name)'\(suggestion)"
    }

    static func usageError(_ message: String, usage: String, helpName: String, _ environment: CommandEnvironment) -> Int32 {
        environment.writeErrorLines(["Error: \(message)", "Usage: \(usage)", "  See '\(helpName) --help' for more information."])
        return ExitStatus.usage
    }

    /// `text` as one line on standard error: every hidden character and line break spelled out
    /// (`<U+000A>`), but the line feed that ends it.
    static func messageLine(_ text: String) -> String {
        guard text.hasSuffix("\n") else { return VisibleText.forTerminal(text) }
        return VisibleText.forTerminal(String(text.dropLast())) + "\n"
    }
}

extension CommandEnvironment {
    /// Writes a message of several lines to standard error, one `writeError` each.
    func writeErrorLines(_ lines: [String]) {
        for line in lines { writeError(line + "\n") }
    }

    /// Reads a file for a command, reporting an unreadable path the way every command does.
    func read(_ path: String) -> [UInt8]? {
        do {
            return try readFile(path)
        } catch {
            writeError("error: cannot read \(path): \(Self.describe(error))\n")
            return nil
        }
    }

    /// True when `error` says the file does not exist.
    static func isMissingFile(_ error: any Error) -> Bool {
        if let error = error as? FileReadError { return error.reason == .noSuchFile }
        if error is FileWriteError { return false }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, [NSFileReadNoSuchFileError, NSFileNoSuchFileError].contains(nsError.code) {
            return true
        }
        return nsError.domain == NSPOSIXErrorDomain && nsError.code == Int(ENOENT)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? FileReadError { return error.reason.description }
        if let error = error as? FileWriteError { return error.reason.description }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
            // The system's reason, as Foundation wraps it: a `POSIXError` on Linux, an `NSError` on macOS.
            switch nsError.userInfo[NSUnderlyingErrorKey] {
            case let underlying as POSIXError: return String(cString: strerror(underlying.code.rawValue))
            case let underlying as NSError where underlying.domain == NSPOSIXErrorDomain: return String(cString: strerror(Int32(underlying.code)))
            default: break
            }
        }
        return nsError.localizedDescription
    }
}
