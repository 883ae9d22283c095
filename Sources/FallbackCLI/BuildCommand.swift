import Foundation
import FallbackHistory
import FallbackReports
import FallbackSite

/// `fallback-site build`: a snapshot rendered into a static dashboard that opens from disk.
enum BuildCommand: Command {
    static let signature = CommandSignature(
        name: "build",
        abstract: "Render a snapshot into a static HTML dashboard.",
        discussion: """
            Builds into a temporary folder beside --out and swaps it in, so a failed or interrupted build leaves \
            the previous site as it was. The same input always gives byte-identical pages; set --now or \
            SOURCE_DATE_EPOCH to show the snapshot's age, and run the checks that depend on the time, as of then.

            --out is checked before anything is read, and again before the swap; a refusal exits 2 and changes \
            nothing. The path is normalised first ('site/.', 'a/b/..' and 'site/' are folders like any other). \
            Refused, --force or not: what is not a folder (a file, a FIFO, a device), a folder that cannot be \
            listed, the working folder or a folder above it ('.', '..', '/'), and a path that is, contains or \
            lies inside an input (snapshots, their folder, --git-history, --baseline, --config, --templates, \
            --assets). Refused unless --force: a non-empty folder that fallback-site did not write, and a \
            symbolic link; with --force the link itself is replaced by the site folder and its target is left \
            as it is.

            --watch keeps running after the first build: every half second it looks at the snapshots (a \
            folder's files as they come and go), --baseline, the configuration file (--config, else \
            .fallback-site.json), --templates and --assets, and rebuilds once a burst of saves has settled, \
            atomically as always. Each rebuild prints what changed and the result on standard error; a \
            failed rebuild prints the error, keeps the previous site and goes on watching. Ctrl-C stops \
            the watch (after the build under way, if any) with exit status 0. --git-history is read from \
            commits, which --watch does not follow; --watch needs something else to watch, and refuses \
            --out - and a snapshot read from standard input.
            """,
        positionals: [
            .init(
                name: "snapshot", arity: .zeroOrMore,
                help: "Snapshots, or one folder of them: the site shows the newest (by generatedAt, then the order given), its changes since the one before, and their history.",
                completion: .file)
        ],
        options: [
            output.declaration, baseline.declaration, gitHistory.declaration,
            ConfigurationFile.option(help: "Configuration file: rule severities and staleAfterDays.").declaration, title.declaration,
            templates.declaration, assets.declaration, now.declaration,
        ],
        flags: [force, quiet, watch],
        examples: [
            .init("The dashboard of the newest release, with its changes and history:", "build Examples --out _site"),
            .init(
                "With a customised theme and a title of your own:",
                "theme export my-theme",
                "build Examples --out _site --templates my-theme/templates --assets my-theme/assets --title Stillpoint"),
        ])

    static let output = TypedOption<String>(
        name: "out", valueName: "dir", help: "The folder to write the site to.", isRequired: true, completion: .directory)
    static let baseline = TypedOption<String>(
        name: "baseline", valueName: "file", help: "The snapshot the Changes page compares against.",
        defaultDescription: "the one before the newest", completion: .file)
    static let gitHistory = TypedOption<String>(
        name: "git-history", valueName: "path", help: "Every version of a snapshot committed on HEAD's first-parent line (a merge is one), oldest first.",
        completion: .file)
    static let title = TypedOption<String>(name: "title", valueName: "title", help: "The site's title.", defaultDescription: "from the project id")
    static let templates = TypedOption<String>(
        name: "templates", valueName: "dir", help: "Templates that override the built-in ones, file by file.", completion: .directory)
    static let assets = TypedOption<String>(
        name: "assets", valueName: "dir", help: "Assets that override the built-in ones, file by file.", completion: .directory)
    static let now = SourceDateEpoch.option(default: "SOURCE_DATE_EPOCH, else none: no age, no time-dependent check")
    static let force = CommandSignature.Flag(
        name: "force", help: "Replace a folder fallback-site did not write, or a symbolic link (the link, not its target).")
    static let quiet = CommandSignature.Flag(name: "quiet", help: "Print nothing but errors (no progress, no summary).")
    static let watch = CommandSignature.Flag(
        name: "watch", help: "After the first build, rebuild whenever a snapshot, the configuration, a template or an asset changes.")

    struct Options: Sendable {
        var output: String
        var snapshots: [String]
        var input: SiteBuild.Input
        var gitHistory: String?
        var baseline: String?
        var configuration: ConfigurationFile
        var title: String?
        var templates: String?
        var assets: String?
        var force: Bool
        var quiet: Bool
        /// `--now`; nil leaves it to `SOURCE_DATE_EPOCH`.
        var now: SourceDateEpoch?
        var watch: Bool

        /// Every path the build reads, as given: the output may not be, contain or lie inside any of them.
        var inputs: [String] { snapshots + [gitHistory, baseline, configuration.path, templates, assets].compactMap { $0 } }
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        let options = Options(
            output: arguments.value(output) ?? "", snapshots: arguments.positionals, input: try input(arguments),
            gitHistory: arguments.value(gitHistory), baseline: arguments.value(baseline), configuration: ConfigurationFile(arguments),
            title: arguments.value(title), templates: arguments.value(templates), assets: arguments.value(assets),
            force: arguments.has(force), quiet: arguments.has(quiet), now: arguments.value(now), watch: arguments.has(watch))
        if options.watch { try BuildWatch.checkWatchable(options) }
        return options
    }

    /// What the snapshots and `--git-history` name: a series, or one file (`build`, `context`).
    static func input(_ arguments: ParsedArguments) throws(UsageError) -> SiteBuild.Input {
        let snapshots = arguments.positionals
        let gitHistory = arguments.value(gitHistory)
        guard let last = snapshots.last ?? gitHistory else {
            throw UsageError(message: "Missing expected argument '<snapshot> ...' (or --git-history <path>)")
        }
        return SnapshotSeries.source(paths: snapshots, gitHistory: gitHistory).map { .series($0) } ?? .file(last)
    }

    /// How the site's snapshots are audited: `configuration`, and `now` as the only clock.
    static func settings(_ configuration: Configuration, now: Date?) -> SiteBuild.AuditSettings {
        SiteBuild.AuditSettings(
            configuration: configuration.audit, staleAfterDays: configuration.staleAfterDays,
            referenceDate: now.map { Int($0.timeIntervalSince1970) })
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        if options.watch { return BuildWatch.run(options, in: environment) }
        var environment = environment
        let progress = ProgressLine.attach(to: &environment, quiet: options.quiet)
        switch build(options, in: environment, progress: progress) {
        case .built(let site):
            if !options.quiet {
                environment.writeError(wrote(site) + "\n")
            }
            return ExitStatus.success
        case .failed(let status), .refused(let status):
            return status
        }
    }

    /// The summary of a build: `wrote 2,019 pages to site; open site/index.html`.
    static func wrote(_ site: SiteBuild.WrittenSite) -> String {
        "wrote \(grouped(site.pageCount)) pages to \(site.output); open \(site.output)/index.html"
    }

    /// `count` with its thousands grouped by commas (`2,019`).
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (count < 0 ? "-" : "") + result
    }

    /// How one build ended; every failure is reported on standard error already.
    enum Outcome {
        case built(SiteBuild.WrittenSite)
        /// The inputs are wrong (a snapshot, the configuration, a template): a rebuild may succeed.
        case failed(status: Int32)
        /// The output folder or SOURCE_DATE_EPOCH is refused: no rebuild can succeed.
        case refused(status: Int32)
    }

    /// One whole build: checks --out, reads the configuration, builds and swaps the site in,
    /// drawing `progress` on the way.
    static func build(_ options: Options, in environment: CommandEnvironment, progress: ProgressLine) -> Outcome {
        // Whatever an earlier build in this process kept goes now, before this one reads anything.
        environment.exitKeeper.releaseAll()
        let writer = SiteWriter(outputPath: options.output, io: environment.fileIO, force: options.force, inputs: inputs(of: options, in: environment))
        do {
            try SiteBuild.checkOutput(writer)
        } catch {
            return .refused(status: report(error, of: options, in: environment))
        }
        guard let configuration = options.configuration.load(in: environment) else { return .failed(status: ExitStatus.usage) }
        guard let now = SourceDateEpoch.now(given: options.now, in: environment, clock: nil) else { return .refused(status: ExitStatus.usage) }
        var build = SiteBuild(
            input: options.input, baseline: options.baseline, title: options.title, templates: options.templates, assets: options.assets,
            settings: settings(configuration, now: now),
            writer: writer, readFile: environment.readFile)
        // The model and the builder's memos are left for the process's exit to free (`ExitKeeper`).
        // Not under --watch: a watch does not exit between builds, so keeping would only move the
        // freeing into the next rebuild's time.
        if !options.watch {
            let keeper = environment.exitKeeper
            build.keepLeftovers = { keeper.keep($0) }
        }
        let snapshots = options.gitHistory == nil ? "snapshots" : "commits"
        do {
            let site = try build.run { step in
                switch step {
                case .reading(let done, let total): progress.update("Reading \(snapshots)", done, of: total)
                case .folding(let done, let total): progress.update("Checking history", done, of: total)
                case .rendering(let done, let total): progress.update("Rendering pages", done, of: total)
                case .writing(let pages): progress.update("Writing \(pages) pages")
                }
            }
            progress.clear()
            return .built(site)
        } catch {
            let status = report(error, of: options, in: environment)
            if case .output = error { return .refused(status: status) }
            return .failed(status: status)
        }
    }

    /// Says why the build stopped, in the words every command uses for unreadable paths.
    static func report(_ error: SiteBuildError, of options: Options, in environment: CommandEnvironment) -> Int32 {
        environment.writeError("error: \(message(error, output: options.output))\n")
        return error.isUsageProblem ? ExitStatus.usage : ExitStatus.failure
    }

    /// What `error` says on standard error; `output` is the site's folder, when there is one.
    static func message(_ error: SiteBuildError, output: String?) -> String {
        switch error {
        case .unreadable(let path, let underlying): "cannot read \(path): \(CommandEnvironment.describe(underlying))"
        case .write(let underlying) where !(underlying is SiteWriterError):
            "cannot write the site to \(output ?? "its folder"): \(CommandEnvironment.describe(underlying))"
        default: error.description
        }
    }

    /// Every path the build reads, with `.fallback-site.json` when it is read without `--config`.
    static func inputs(of options: Options, in environment: CommandEnvironment) -> [String] {
        var inputs = options.inputs
        if options.configuration.path == nil, environment.fileIO.itemKind(Configuration.fileName) != nil {
            inputs.append(Configuration.fileName)
        }
        return inputs
    }
}

/// `fallback-site theme export DIR`: the built-in templates and assets, to customise.
enum ThemeCommand: Command {
    static let signature = CommandSignature(
        name: "theme",
        abstract: "Export the built-in templates and assets for customising.",
        discussion: """
            'theme export DIR' writes DIR/templates and DIR/assets. Pass those folders to build's --templates \
            and --assets: any file found there replaces the built-in one of the same path. DIR is a new or \
            empty folder: a folder with files in it is refused unless --force (which overwrites the files of \
            the same name and keeps the others), and a DIR that is not a folder is always refused.
            """,
        positionals: [
            .init(name: "action", arity: .one, help: action, completion: .words([action])),
            .init(name: "dir", arity: .one, help: "The folder to write to.", completion: .directory),
        ],
        flags: [force],
        examples: [.init("Copy the built-in theme into my-theme/ to customise it:", "theme export my-theme")])

    /// The one action, `theme export`.
    static let action = "export"

    static let force = CommandSignature.Flag(name: "force", help: "Export into a folder that is not empty, overwriting files of the same name.")

    struct Options: Sendable {
        var folder: String
        var force: Bool
    }

    static func options(_ arguments: ParsedArguments) throws(UsageError) -> Options {
        guard arguments.positionals[0] == action else {
            throw UsageError(message: "Unknown theme action '\(arguments.positionals[0])'; the action is '\(action)'")
        }
        return Options(folder: arguments.positionals[1], force: arguments.has(force))
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        let folder = options.folder
        do {
            try Theme.builtIn.export(to: folder, io: environment.fileIO, force: options.force)
        } catch let error as ThemeError {
            environment.writeError("error: \(error)\n")
            return ExitStatus.usage
        } catch {
            environment.writeError("error: cannot export the theme to \(folder): \(CommandEnvironment.describe(error))\n")
            return ExitStatus.failure
        }
        environment.writeError("wrote the built-in theme to \(folder)/templates and \(folder)/assets\n")
        return ExitStatus.success
    }
}
