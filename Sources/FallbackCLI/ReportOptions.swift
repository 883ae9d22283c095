import FallbackReports

extension ReportFormat: ArgumentValue {}
extension ColorChoice: ArgumentValue {}

/// What `--fail-on` takes: a severity for `check` and `history`, a class of change for `diff`.
/// When the option is not given, the configuration decides, else `fallback`.
protocol FailOnThreshold: ArgumentValue, CaseIterable, RawRepresentable<String> {
    /// The option's value name in usage lines (`--fail-on <severity>`).
    static var valueName: String { get }
    static var help: String { get }
    /// The configuration key that sets the threshold when `--fail-on` is not given.
    static var configurationKey: String { get }
    /// The threshold when neither `--fail-on` nor the configuration sets one.
    static var fallback: Self { get }
    /// The threshold `configuration` sets, if it sets one.
    static func configured(in configuration: Configuration) -> Self?
}

extension FailureThreshold: FailOnThreshold {
    static let valueName = "severity"
    static let help = "The lowest severity that fails the run."
    static let configurationKey = "failOn"
    static let fallback = FailureThreshold.error
    static func configured(in configuration: Configuration) -> FailureThreshold? { configuration.failOn }
}

extension ChangeThreshold: FailOnThreshold {
    static let valueName = "class"
    static let help = "The lowest class of change that fails the run."
    static let configurationKey = "diffFailOn"
    static let fallback = ChangeThreshold.breaking
    static func configured(in configuration: Configuration) -> ChangeThreshold? { configuration.diffFailOn }
}

/// `--config FILE`: where the project configuration is read from.
struct ConfigurationFile: Sendable {
    /// The option; `help` says what the command takes from the file.
    static func option(help: String = "Configuration file.") -> TypedOption<String> {
        TypedOption(
            name: "config", valueName: "file", help: help, defaultDescription: "\(Configuration.fileName) when present", completion: .file)
    }

    /// The file given; nil reads `.fallback-site.json` from the current folder when it is there.
    var path: String?

    init(_ arguments: ParsedArguments) {
        path = arguments.value(Self.option())
    }

    /// The configuration from `path`, else from `.fallback-site.json` when it exists, else the
    /// defaults; nil after reporting a file that cannot be read or used.
    func load(in environment: CommandEnvironment) -> Configuration? {
        let path = path ?? Configuration.fileName
        let bytes: [UInt8]
        do {
            bytes = try environment.readFile(path)
        } catch {
            if self.path == nil, CommandEnvironment.isMissingFile(error) { return Configuration() }
            environment.writeError("error: cannot read the configuration \(path): \(CommandEnvironment.describe(error))\n")
            return nil
        }
        do {
            return try Configuration(bytes: bytes, path: path)
        } catch {
            environment.writeError("error: \(error)\n")
            return nil
        }
    }
}

/// The options `check`, `diff` and `history` share, declared and read once, as
/// swift-argument-parser's `@OptionGroup` shares a group of options between commands: the output
/// format, the failure threshold, the configuration file and the step summary.
struct ReportOptions<Threshold: FailOnThreshold>: Sendable {
    static var format: TypedOption<ReportFormat> {
        TypedOption(name: "format", valueName: "format", help: "Output format.", defaultValue: .text)
    }

    static var failOn: TypedOption<Threshold> {
        TypedOption(
            name: "fail-on", valueName: Threshold.valueName, help: Threshold.help,
            defaultDescription: "the configuration's `\(Threshold.configurationKey)`, else \(Threshold.fallback.rawValue)")
    }

    static var summary: CommandSignature.Flag {
        CommandSignature.Flag(name: "summary", help: "Also append the markdown report to $GITHUB_STEP_SUMMARY.")
    }

    static var color: TypedOption<ColorChoice> {
        TypedOption(
            name: "color", valueName: "when",
            help: "Colour the text output: auto colours it on a terminal unless NO_COLOR is set or TERM is dumb.",
            defaultValue: .auto)
    }

    static var verbose: CommandSignature.Flag {
        CommandSignature.Flag(name: "verbose", help: "List infos in the text output too, not only count them.")
    }

    /// The group's options, in the order usage and help list them.
    static var options: [CommandSignature.Option] {
        [format.declaration, failOn.declaration, ConfigurationFile.option().declaration, color.declaration]
    }
    static var flags: [CommandSignature.Flag] { [summary, verbose] }

    var format: ReportFormat
    /// `--fail-on` as given; nil leaves the threshold to the configuration.
    var failOn: Threshold?
    var configuration: ConfigurationFile
    /// `--summary`: also append the markdown report to `$GITHUB_STEP_SUMMARY`.
    var appendsSummary: Bool
    /// `--color`: when the text output is coloured.
    var color: ColorChoice
    /// `--verbose`: the text output lists infos too.
    var isVerbose: Bool

    init(_ arguments: ParsedArguments) {
        format = arguments.value(Self.format) ?? .text
        failOn = arguments.value(Self.failOn)
        configuration = ConfigurationFile(arguments)
        appendsSummary = arguments.has(Self.summary)
        color = arguments.value(Self.color) ?? .auto
        isVerbose = arguments.has(Self.verbose)
    }

    /// The threshold that applies: `--fail-on`, else the configuration's, else the fallback.
    func threshold(in configuration: Configuration) -> Threshold {
        failOn ?? Threshold.configured(in: configuration) ?? Threshold.fallback
    }

    /// How the text output looks: infos listed with `--verbose` or the configuration's
    /// `showInfos`; coloured as `--color` says for standard output and the environment.
    func textStyle(in configuration: Configuration, environment: CommandEnvironment) -> TextStyle {
        TextStyle(
            listsInfos: isVerbose || configuration.showInfos == true,
            usesColor: color.usesColor(isTerminal: environment.isOutputTerminal, variables: environment.variables))
    }

    /// Writes `report` in the chosen format to standard output as it is made, in chunks of
    /// `ReportSink.defaultChunkSize` bytes, so a report of hundreds of megabytes is never held
    /// whole (nothing is written when the report is empty).
    func write(_ report: some FormattedReport, configuration: Configuration, in environment: CommandEnvironment) {
        let sink = ReportSink(chunkSize: ReportSink.defaultChunkSize) { environment.writeOutput($0) }
        report.write(as: format, style: textStyle(in: configuration, environment: environment), to: sink)
        sink.finish()
    }

    /// With `--summary`, appends the markdown report to `$GITHUB_STEP_SUMMARY`; false when that fails.
    /// Without the variable it says so and goes on.
    func appendSummary(of report: some FormattedReport, in environment: CommandEnvironment) -> Bool {
        guard appendsSummary else { return true }
        guard let path = environment.variables["GITHUB_STEP_SUMMARY"], !path.isEmpty else {
            environment.writeError("warning: --summary: GITHUB_STEP_SUMMARY is not set; no summary written\n")
            return true
        }
        do {
            try environment.appendFile(path, Array((report.markdown() + "\n").utf8))
            return true
        } catch {
            environment.writeError("error: cannot append the summary to \(path): \(CommandEnvironment.describe(error))\n")
            return false
        }
    }
}
