import FallbackSample
import RovenueFallback

/// `fallback-site sample`: a deterministic synthetic export for benchmarks and demos.
enum SampleCommand: Command {
    static let signature = CommandSignature(
        name: "sample",
        abstract: "Write a deterministic, realistic synthetic fallback file.",
        discussion: """
            The same --placements and --seed always give byte-identical output: funnels with branching and \
            localized copy, experiments over funnels, paywalls with offerings, and a few realistic problems \
            for the checks to find. Written compact with sorted keys, as the dashboard writes. \
            --out FILE is written beside and renamed over a regular file, or created; a symbolic link, a \
            folder, a FIFO or a device there is refused (exit 2) and left as it is.
            """,
        options: [
            .init(name: "placements", valueName: "n", help: "The number of placements.", isRequired: true),
            .init(name: "seed", valueName: "s", help: "The generator's seed.", defaultValue: "1"),
            .init(name: "out", valueName: "file", help: "Where to write the file ('-' for standard output).", isRequired: true),
        ])

    static func run(_ arguments: ParsedArguments, in environment: CommandEnvironment) -> Int32 {
        let tool = "\(CommandLineTool.name) \(signature.name)"
        guard let count = Int(arguments.value("placements", in: signature) ?? ""), count >= 0, count <= 1_000_000 else {
            return CommandLineTool.usageError(
                "The value '\(arguments.value("placements", in: signature) ?? "")' is invalid for '--placements <n>': expected a whole number from 0 to 1000000",
                usage: signature.usage(tool: CommandLineTool.name), helpName: tool, environment)
        }
        guard let seed = UInt64(arguments.value("seed", in: signature) ?? "") else {
            return CommandLineTool.usageError(
                "The value '\(arguments.value("seed", in: signature) ?? "")' is invalid for '--seed <s>': expected a whole number from 0 to \(UInt64.max)",
                usage: signature.usage(tool: CommandLineTool.name), helpName: tool, environment)
        }
        let path = arguments.value("out", in: signature)!
        let text = SampleExport(placementCount: count, seed: seed).jsonText()
        do {
            try environment.writeFile(path, Array(text.utf8))
        } catch {
            environment.writeError("error: cannot write \(path): \(CommandEnvironment.describe(error))\n")
            return ExitStatus.usage
        }
        if path != "-" {
            environment.writeError("wrote \(path): \(count) placements, \(text.utf8.count) bytes (seed \(seed))\n")
        }
        return ExitStatus.success
    }
}
