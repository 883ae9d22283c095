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
        options: [placements.declaration, seed.declaration, output.declaration],
        examples: [
            .init("A 1,000-placement export for a benchmark:", "sample --placements 1000 --out sample.json"),
            .init("Another seed, to standard output:", "sample --placements 5 --seed 42 --out -"),
        ])

    static let placements = TypedOption<PlacementCount>(name: "placements", valueName: "n", help: "The number of placements.", isRequired: true)
    static let seed = TypedOption<UInt64>(name: "seed", valueName: "s", help: "The generator's seed.", defaultValue: 1)
    static let output = TypedOption<String>(
        name: "out", valueName: "file", help: "Where to write the file ('-' for standard output).", isRequired: true, completion: .file)

    struct Options: Sendable {
        var placements: PlacementCount
        var seed: UInt64
        var output: String
    }

    static func options(_ arguments: ParsedArguments) -> Options {
        Options(placements: arguments.value(placements)!, seed: arguments.value(seed) ?? 1, output: arguments.value(output)!)
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        let count = options.placements.count
        let seed = options.seed
        let path = options.output
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

/// How many placements a sample has: a whole number from 0 to `maximum`.
struct PlacementCount: ArgumentValue {
    static let maximum = 1_000_000

    let count: Int

    init?(argument: String) {
        guard let count = Int(argument), (0...Self.maximum).contains(count) else { return nil }
        self.count = count
    }

    static var expectation: String { "expected a whole number from 0 to \(maximum)" }
    var argumentText: String { String(count) }
}

extension UInt64: ArgumentValue {
    init?(argument: String) { self.init(argument) }
    static var expectation: String { "expected a whole number from 0 to \(UInt64.max)" }
}
