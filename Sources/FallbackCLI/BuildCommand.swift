import FallbackAudit
import FallbackHistory
import FallbackReports
import FallbackSite
import Foundation
import FallbackMustache
import RovenueFallback

/// `fallback-site build`: a snapshot rendered into a static dashboard that opens from disk.
enum BuildCommand: Command {
    static let signature = CommandSignature(
        name: "build",
        abstract: "Render a snapshot into a static HTML dashboard.",
        discussion: """
            Builds into a temporary folder beside --out and swaps it in, so a failed or interrupted build leaves \
            the previous site as it was. The same input always gives byte-identical pages; set SOURCE_DATE_EPOCH \
            to show the snapshot's age as of that time.

            --out is checked before anything is read, and again before the swap; a refusal exits 2 and changes \
            nothing. The path is normalised first ('site/.', 'a/b/..' and 'site/' are folders like any other). \
            Refused, --force or not: what is not a folder (a file, a FIFO, a device), a folder that cannot be \
            listed, the working folder or a folder above it ('.', '..', '/'), and a path that is, contains or \
            lies inside an input (snapshots, their folder, --git-history, --baseline, --config, --templates, \
            --assets). Refused unless --force: a non-empty folder that fallback-site did not write, and a \
            symbolic link; with --force the link itself is replaced by the site folder and its target is left \
            as it is.
            """,
        positionals: [
            .init(
                name: "snapshot", arity: .zeroOrMore,
                help: "Snapshots, or one folder of them: the site shows the newest (by generatedAt, then the order given), its changes since the one before, and their history.")
        ],
        options: [
            .init(name: "out", valueName: "dir", help: "The folder to write the site to.", isRequired: true),
            .init(name: "baseline", valueName: "file", help: "The snapshot the Changes page compares against (default: the one before the newest)."),
            .init(name: "git-history", valueName: "path", help: "Every committed version of a snapshot in a git repository, oldest first."),
            .init(name: "config", valueName: "file", help: "Configuration file (default: \(Configuration.fileName) when present): rule severities and staleAfterDays."),
            .init(name: "title", valueName: "title", help: "The site's title (default: from the project id)."),
            .init(name: "templates", valueName: "dir", help: "Templates that override the built-in ones, file by file."),
            .init(name: "assets", valueName: "dir", help: "Assets that override the built-in ones, file by file."),
        ],
        flags: [
            .init(name: "force", help: "Replace a folder fallback-site did not write, or a symbolic link (the link, not its target)."),
            .init(name: "quiet", help: "Print nothing but errors."),
        ])

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        let output = arguments.value("out", in: signature)!
        let paths = arguments.positionals
        let gitHistory = arguments.value("git-history", in: signature)
        guard !paths.isEmpty || gitHistory != nil else {
            return CommandLineTool.usageError(
                "Missing expected argument '<snapshot> ...' (or --git-history <path>)", usage: signature.usage(tool: CommandLineTool.name),
                helpName: "\(CommandLineTool.name) build", environment)
        }
        let writer = SiteWriter(
            outputPath: output, io: environment.fileIO, force: arguments.has("force"), inputs: inputs(of: arguments, in: environment))
        do {
            try writer.checkedOutput()
        } catch {
            environment.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        guard let configuration = CheckCommand.loadConfiguration(arguments, in: environment) else { return ExitStatus.usage }
        guard checkSourceDateEpoch(environment) else { return ExitStatus.usage }
        let audit = Audit(now: referenceDate(environment).map { Date(timeIntervalSince1970: Double($0)) }, configuration: configuration.audit)
        let source = seriesSource(paths: paths, gitHistory: gitHistory)

        var path = paths.last ?? ""
        var bytes: [UInt8]
        var baseline: SiteModel.Snapshot?
        var timeline: Timeline?
        if let source {
            // A series: fold it one snapshot at a time, then show its newest.
            do {
                let series = try SnapshotSeries(source)
                let reference = referenceDate(environment).map { Date(timeIntervalSince1970: Double($0)) }
                timeline = try series.timeline(HistoryOptions(now: reference, staleAfterDays: configuration.staleAfterDays ?? 90, audit: audit))
                let newest = series.members[series.members.count - 1]
                path = newest.reference.name
                bytes = try source.bytes(of: newest.reference)
                if arguments.value("baseline", in: signature) == nil, series.members.count > 1 {
                    let previous = series.members[series.members.count - 2]
                    baseline = snapshot(path: previous.reference.name, bytes: try source.bytes(of: previous.reference), audit: audit)
                }
            } catch {
                environment.writeError("error: \(error)\n")
                return ExitStatus.usage
            }
        } else {
            guard let read = environment.read(path) else { return ExitStatus.usage }
            bytes = read
        }
        if let baselinePath = arguments.value("baseline", in: signature) {
            guard let baselineBytes = environment.read(baselinePath) else { return ExitStatus.usage }
            baseline = snapshot(path: baselinePath, bytes: baselineBytes, audit: audit)
        }
        let builder: SiteBuilder
        do {
            let theme = try Theme.builtIn(
                overridingTemplatesWith: arguments.value("templates", in: signature), assetsWith: arguments.value("assets", in: signature))
            builder = try SiteBuilder(
                model: model(
                    path: path, bytes: bytes, baseline: baseline, timeline: timeline, audit: audit, arguments: arguments, environment: environment),
                theme: theme)
        } catch {
            environment.writeError("error: \(error)\n")
            return ExitStatus.usage
        }
        let quiet = arguments.has("quiet")
        let showsProgress = !quiet && environment.isErrorTerminal
        var progress: (@Sendable (Int, Int) -> Void)?
        if showsProgress {
            let report = environment.writeError
            progress = { done, total in
                if done == total || done % 25 == 0 { report("\rRendering pages: \(done)/\(total)") }
            }
        }
        let files: [String: [UInt8]]
        do {
            files = try builder.files(progress: progress)
            if showsProgress { environment.writeError("\n") }
        } catch {
            if showsProgress { environment.writeError("\n") }
            environment.writeError("error: \(error)\n")
            // A template that cannot render (a budget it exceeds) is a problem with the input, as
            // one that does not parse is.
            return error is TemplateError || error is MustacheError ? ExitStatus.usage : ExitStatus.failure
        }
        do {
            try writer.write(files)
        } catch let error as SiteWriterError {
            environment.writeError("error: \(error)\n")
            return error.refusesTheOutput ? ExitStatus.usage : ExitStatus.failure
        } catch {
            environment.writeError("error: cannot write the site to \(output): \(CommandEnvironment.describe(error))\n")
            return ExitStatus.failure
        }
        if !quiet {
            let pages = files.keys.count { $0.hasSuffix(".html") }
            environment.writeError("wrote \(pages) pages to \(output); open \(output)/index.html\n")
        }
        return ExitStatus.success
    }

    /// Every path the build reads: the output may not be, contain or lie inside any of them.
    static func inputs(of arguments: ParsedArguments, in environment: CommandEnvironment) -> [String] {
        var inputs = arguments.positionals
        for option in ["git-history", "baseline", "config", "templates", "assets"] {
            if let path = arguments.value(option, in: signature) { inputs.append(path) }
        }
        if arguments.value("config", in: signature) == nil, environment.fileIO.itemKind(Configuration.fileName) != nil {
            inputs.append(Configuration.fileName)
        }
        return inputs
    }

    static func model(
        path: String, bytes: [UInt8], baseline: SiteModel.Snapshot? = nil, timeline: Timeline? = nil, audit: Audit? = nil,
        arguments: ParsedArguments, environment: CommandEnvironment
    ) -> SiteModel {
        let audit = audit ?? Audit(now: referenceDate(environment).map { Date(timeIntervalSince1970: Double($0)) })
        return SiteModel(
            snapshot: snapshot(path: path, bytes: bytes, audit: audit), baseline: baseline, timeline: timeline,
            title: arguments.value("title", in: signature), referenceDate: referenceDate(environment))
    }

    /// `SOURCE_DATE_EPOCH`: the only clock a page may read; nil when unset (or invalid, which
    /// `checkSourceDateEpoch` refuses first).
    static func referenceDate(_ environment: CommandEnvironment) -> Int? {
        (try? SourceDateEpoch(variables: environment.variables))?.map { Int($0.seconds) }
    }

    /// False, after saying why, when `SOURCE_DATE_EPOCH` is set to something other than whole
    /// seconds the tool can compute with.
    static func checkSourceDateEpoch(_ environment: CommandEnvironment) -> Bool {
        do {
            _ = try SourceDateEpoch(variables: environment.variables)
            return true
        } catch {
            environment.writeError("error: \(error)\n")
            return false
        }
    }

    /// A snapshot read and audited. The audit's clock is SOURCE_DATE_EPOCH or none, so nothing on a
    /// page depends on when it was built (`generated-at-future` needs a clock and does not run without).
    static func snapshot(path: String, bytes: [UInt8], audit: Audit) -> SiteModel.Snapshot {
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: path, bytes: bytes, file: file, findings: audit.findings(in: file))
    }
}

/// The snapshots a command reads as a series: the committed versions of a file, a folder of
/// exports, or several files; nil for a single file.
func seriesSource(paths: [String], gitHistory: String?) -> (any SnapshotSource)? {
    if let gitHistory { return GitFileHistory(file: gitHistory) }
    var isFolder: ObjCBool = false
    if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder), isFolder.boolValue {
        return SnapshotFolder(path: paths[0])
    }
    return paths.count > 1 ? SnapshotFiles(paths: paths) : nil
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
            .init(name: "action", arity: .one, help: "export"),
            .init(name: "dir", arity: .one, help: "The folder to write to."),
        ],
        flags: [.init(name: "force", help: "Export into a folder that is not empty, overwriting files of the same name.")])

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        guard arguments.positionals[0] == "export" else {
            return CommandLineTool.usageError(
                "Unknown theme action '\(arguments.positionals[0])'; the action is 'export'",
                usage: signature.usage(tool: CommandLineTool.name), helpName: "\(CommandLineTool.name) theme", environment)
        }
        let folder = arguments.positionals[1]
        do {
            try Theme.builtIn.export(to: folder, io: environment.fileIO, force: arguments.has("force"))
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
