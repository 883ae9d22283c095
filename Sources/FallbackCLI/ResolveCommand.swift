import FallbackAudit
import RovenueFallback

/// `fallback-site resolve`: what a first-launch device with no network is served for a placement.
enum ResolveCommand: Command {
    /// The id used when none is given: the shape of the SDK's anonymous ids (`rov_` + 24 characters).
    static let defaultSubscriber = "rov_000000000000000000000000"

    static let signature = CommandSignature(
        name: "resolve",
        abstract: "Show what an offline first launch is served for a placement.",
        discussion: """
            Loads FILE as the SDK does and resolves PLACEMENT (the map key, exact and case-sensitive) for one \
            subscriber: a direct funnel, else a direct paywall, else the variant the subscriber draws from the \
            experiment. Exits 1 when the SDK rejects the file or does not load the placement.
            """,
        positionals: [
            .init(name: "file", arity: .one, help: "A rovenue-fallback.json snapshot.", completion: .file),
            .init(name: "placement", arity: .one, help: "The placement key, as the app passes it to getFunnel/getPaywall."),
        ],
        options: [subscriber.declaration, format.declaration],
        examples: [
            .init("What a first launch offline gets for onboarding:", "resolve Examples/2026-07-21-release-3.4.json onboarding"),
            .init(
                "The variant one subscriber draws, as JSON:",
                "resolve Examples/2026-05-19-release-3.2.json onboarding --subscriber rov_7f3k2m9x4q1w8e5r6t0y2u4i --format json"),
        ])

    static let subscriber = TypedOption<String>(
        name: "subscriber", valueName: "id", help: "The subscriber id that seeds A/B bucketing.", defaultValue: defaultSubscriber)
    static let format = TypedOption<OutputFormat>(name: "format", valueName: "format", help: "Output format.", defaultValue: .text)

    /// What `resolve` prints: lines for a person, or one JSON object.
    enum OutputFormat: String, CaseIterable, ArgumentValue {
        case text, json
    }

    struct Options: Sendable {
        var file: String
        var placement: String
        var subscriber: String
        /// True when `--subscriber` was given, not defaulted.
        var isSubscriberGiven: Bool
        var format: OutputFormat
    }

    static func options(_ arguments: ParsedArguments) -> Options {
        Options(
            file: arguments.positionals[0], placement: arguments.positionals[1], subscriber: arguments.value(subscriber) ?? defaultSubscriber,
            isSubscriberGiven: arguments.isGiven(subscriber), format: arguments.value(format) ?? .text)
    }

    static func run(_ options: Options, in environment: CommandEnvironment) -> Int32 {
        let path = options.file
        let key = options.placement
        let subscriber = options.subscriber
        let json = options.format == .json
        guard let bytes = environment.read(path) else { return ExitStatus.usage }
        // Only the placement asked for is decoded, as the SDK's loader would decode it among the
        // rest (`FallbackTopLevel.decodeEntry(at:)`: the decode a whole-file load runs for each
        // entry, `EntryDecoding.record(at:)`, for this one alone).
        let topLevel = FallbackTopLevel(bytes: bytes)
        // The SDK's map compares keys by their bytes: "é" and "e" + U+0301 are two placements.
        let record = topLevel.entryIndex(forKey: key).map(topLevel.decodeEntry(at:))
        let problem: String?
        if let rejection = topLevel.rejection {
            problem = "the SDK rejects \(path) (\(rejection.rule.section): \(rejection.rule.summary)): \(rejection.message)"
        } else if let failure = record?.failure {
            problem = "the SDK skips placement '\(key)': \(topLevel.location(of: failure.source).pointer): \(failure.expectation)"
        } else if record == nil {
            problem = "no placement '\(key)' in \(path)"
        } else {
            problem = nil
        }
        if let problem {
            let consequence = "offline, getFunnel/getPaywall(\"\(key)\") finds no fallback entry, so the SDK returns the original network error"
            if json {
                let report: JSONValue = .object([
                    .init("placement", .string(key)), .init("subscriber", .string(subscriber)),
                    .init("servedFromFallback", false), .init("served", nil), .init("funnel", nil), .init("paywall", nil),
                    .init("experiment", nil), .init("error", .string("\(problem); \(consequence)")),
                ])
                environment.writeOutput(report.jsonText([.prettyPrinted]) + "\n")
            } else {
                environment.writeErrorLines(["error: \(problem)", "  \(consequence)"])
            }
            return ExitStatus.failure
        }

        guard let entry = record?.entry else { return ExitStatus.failure }
        let resolution = entry.resolve(subscriberId: subscriber)
        if json {
            environment.writeOutput(report(resolution, key: key, subscriber: subscriber).jsonText([.prettyPrinted]) + "\n")
        } else {
            environment.writeOutput(text(resolution, entry: entry, key: key, subscriber: subscriber, given: options.isSubscriberGiven))
        }
        return ExitStatus.success
    }

    static func report(_ resolution: OfflineResolution, key: String, subscriber: String) -> JSONValue {
        // `served` is the served target's kind: `funnel`, `paywall`, or `nothing` with a `reason`.
        let served = JSONValue.string(resolution.served.kind.rawValue)
        let funnel: JSONValue = resolution.funnel.map {
            .object([.init(Funnel.Field.id, .string($0.id)), .init(Funnel.Field.slug, .string($0.slug))])
        } ?? nil
        let paywall: JSONValue = resolution.paywall.map {
            .object([.init(Paywall.Field.id, .string($0.id)), .init(Paywall.Field.identifier, .string($0.identifier))])
        } ?? nil
        // Keys that copy a snapshot field are spelled by the schema; the others are the report's own.
        let experiment: JSONValue = resolution.draw.map { draw in
            .object([
                .init(Experiment.Field.id, .string(draw.experimentId)), .init(Experiment.Field.key, .string(draw.experimentKey)),
                .init("bucket", .number(JSONNumber(draw.bucket))), .init(Variant.Field.variantId, .string(draw.variantId)),
            ])
        } ?? nil
        var members: [JSONValue.Member] = [
            .init("placement", .string(key)), .init("subscriber", .string(subscriber)), .init("servedFromFallback", .bool(resolution.servedFromFallback)),
            .init("served", served), .init("funnel", funnel), .init("paywall", paywall), .init("experiment", experiment),
        ]
        if let placement = resolution.placement {
            members.append(.init(Placement.Field.identifier, .string(placement.identifier)))
            members.append(.init(Placement.Field.revision, .number(JSONNumber(text: String(placement.revision)))))
        }
        if let reason = resolution.served.nothingReason {
            members.append(.init("reason", .string(reason.description)))
        }
        return .object(members)
    }

    static func text(_ resolution: OfflineResolution, entry: FallbackEntry, key: String, subscriber: String, given: Bool) -> String {
        var rows: [(String, String)] = []
        if let placement = resolution.placement {
            let identifier = ExactKey(placement.identifier) == ExactKey(key) ? "" : ", reported as '\(placement.identifier)'"
            rows.append(("placement", "\(key) (revision \(placement.revision)\(identifier))"))
        } else {
            rows.append(("placement", key))
        }
        rows.append(("subscriber", subscriber + (given ? "" : " (default; pass --subscriber)")))
        switch resolution.served {
        case .funnel(let funnel):
            rows.append(("served", "funnel \(funnel.id) (\(funnel.slug)), \(funnel.pages.count) pages, servedFromFallback = true"))
        case .paywall(let paywall):
            rows.append(("served", "paywall \(paywall.id) (\(paywall.identifier)), servedFromFallback = true"))
        case .nothing(let reason, _):
            rows.append(("served", reason.summary))
            rows.append(("", "servedFromFallback = false: the app gets nothing offline for this placement"))
        case .experiment:
            // A resolution always draws from an experiment target.
            break
        }
        if let draw = resolution.draw, let experiment = entry.experiment {
            rows.append(("experiment", "\(draw.experimentId) (key \(draw.experimentKey)): bucket \(draw.bucket) draws variant \(draw.variantId)"))
            let ranges = Bucketing.bucketRanges(weights: experiment.variants.map(\.weight))
            for (index, (variant, range)) in zip(experiment.variants, ranges).enumerated() {
                let buckets = range.map { "buckets \($0.lowerBound)–\($0.upperBound)" } ?? "no buckets"
                let marker = index == draw.variantIndex ? "  ← drawn" : ""
                rows.append(("", "\(variant.variantId)  weight \(variant.weightText)  \(buckets)\(marker)"))
            }
        }
        let width = rows.map(\.0.count).max() ?? 0
        // Each row is one line: keys and ids from the snapshot have their hidden characters spelled out.
        return rows.map { label, value in label.padding(width) + "  " + VisibleText.forTerminal(value) }.joined(separator: "\n") + "\n"
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
