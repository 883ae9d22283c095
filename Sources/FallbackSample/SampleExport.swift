import RovenueFallback

/// A deterministic, realistic synthetic `rovenue-fallback.json`, for benchmarks and demos.
///
/// The same placement count and seed give byte-identical output on every platform: content
/// comes from a seeded SplitMix64 stream, never from the system generator or the clock, and
/// each placement draws from its own stream, so a placement's content depends only on the seed
/// and its position.
///
/// Content mirrors a funnel-era dashboard export, about 5 KB per placement: about 66% of the
/// placements target a funnel of 5–15 pages (questions with `question_id`s and options,
/// `next_rules` over earlier answers, `default_next`, text in 2–3 locales, a paywall page whose
/// paywall rides along in `paywalls`, some remote media), 10% an experiment over 2–3 such funnels
/// with fractional weights summing to 1, 18% a paywall with an offering and packages, and 6%
/// nothing. A small share carries realistic problems for checks to report: about 3% of funnels
/// miss one translation, about 1% have a rule that goes to an unknown page or lack the paywall
/// their paywall page names, and about 0.2% of entries write `revision` as a string, so the SDK
/// skips them. Every other funnel is publishable: no cycles, known targets, unique question ids,
/// every page reachable.
public struct SampleExport: Sendable {
    /// The number of placements in the export.
    public let placementCount: Int
    /// The seed every generated value derives from.
    public let seed: UInt64
    /// How many `nextRelease(changing:)` steps separate this export from the first (0).
    public private(set) var release = 0
    /// Placements republished since the first release, by position.
    private var edits: [Int: Edit] = [:]

    /// How often a placement was republished, and how many of those raised its revision.
    private struct Edit: Sendable {
        var count = 0
        var bumps = 0
    }

    public init(placementCount: Int, seed: UInt64 = 1) {
        precondition(placementCount >= 0, "placementCount must not be negative")
        self.placementCount = placementCount
        self.seed = seed
    }

    /// The same export one release later, with `count` placements republished: each one picked
    /// (from the seed and the release number) draws new content, about half of them also get their
    /// revision raised by one, and `generatedAt` is one day later. The other placements are
    /// byte-identical, and the same chain of releases always gives the same bytes.
    public func nextRelease(changing count: Int) -> SampleExport {
        precondition(count >= 0 && count <= placementCount, "count must be between 0 and placementCount")
        var next = self
        next.release += 1
        var rng = SplitMix64(seed: seed, stream: -3 - next.release)
        var picked = Set<Int>()
        while picked.count < count { picked.insert(rng.below(placementCount)) }
        for position in picked.sorted() {
            next.edits[position, default: Edit()].count += 1
            if rng.chance(perMille: 500) { next.edits[position]!.bumps += 1 }
        }
        return next
    }

    /// The export as a value whose object members are already in sorted key order.
    public func json() -> JSONValue {
        var rng = SplitMix64(seed: seed, stream: -1)
        let project = Project(rng: &rng)
        let generatedAt = Self.startOf2026 + rng.below(Self.millisecondsIn2026) + release * 86_400_000
        var placements = [JSONValue.Member]()
        placements.reserveCapacity(placementCount)
        for (position, identifier) in placementIdentifiers().enumerated() {
            var builder = EntryBuilder(project: project, rng: SplitMix64(seed: seed, stream: position))
            if let edit = edits[position] {
                let revision = builder.rng.within(1...40) + edit.bumps
                let republished = SplitMix64(seed: seed &+ UInt64(edit.count) &* 0x9E37_79B9_7F4A_7C15, stream: position)
                builder = EntryBuilder(project: project, rng: republished, revisionOverride: revision)
            }
            placements.append(JSONValue.Member(identifier, builder.entry(identifier: identifier)))
        }
        return object([
            .init(TopLevelField.formatVersion, 1),
            .init(TopLevelField.generatedAt, .number(JSONNumber(generatedAt))),
            .init(TopLevelField.placements, .object(placements)),
            .init(TopLevelField.projectId, .string(project.id)),
        ])
    }

    /// The export as the dashboard writes it: compact JSON, keys sorted.
    public func jsonText() -> String {
        json().jsonText([.sortedKeys])
    }

    private static let startOf2026 = 1_767_225_600_000
    private static let millisecondsIn2026 = 365 * 86_400_000

    /// Unique identifiers such as `onboarding_quiz_0042`, in ascending byte order.
    private func placementIdentifiers() -> [String] {
        var rng = SplitMix64(seed: seed, stream: -2)
        let width = max(4, String(max(placementCount - 1, 0)).count)
        var identifiers = [String]()
        identifiers.reserveCapacity(placementCount)
        for index in 0..<placementCount {
            let number = String(index)
            let padded = String(repeating: "0", count: width - number.count) + number
            identifiers.append(
                rng.element(of: Vocabulary.placementAreas) + "_" + rng.element(of: Vocabulary.placementSurfaces)
                    + "_" + padded)
        }
        identifiers.sort { ExactKey.precedes($0, $1) }
        return identifiers
    }
}

/// What every placement of one export shares: the app's name, store links and themes.
struct Project {
    let id: String
    let app: String
    let settings: JSONValue
    let themes: [JSONValue]

    init(rng: inout SplitMix64) {
        id = "proj_" + rng.token(16)
        app = rng.element(of: Vocabulary.apps)
        settings = object([
            "app_store_url": .string("https://apps.apple.com/app/id\(6_400_000_000 + rng.below(99_999_999))"),
            "deep_link_scheme": .string(app),
            "dev_mode": false,
            "play_store_url": .string("https://play.google.com/store/apps/details?id=app.\(app)"),
            "universal_link_domain": .string("go.\(app).app"),
        ])
        let letter = String(app.prefix(1).uppercased())
        themes = [
            ("#3B82F6", "#3B82F6", "#FFFFFF", "#0F172A", "'Inter', system-ui, sans-serif", "solid"),
            ("#2F6B5E", "#E9A23B", "#F7F4EE", "#1D2A26", "'Nunito', system-ui, sans-serif", "segmented"),
            ("#8EA7FF", "#F2C46D", "#0E1430", "#E8ECFF", "'Nunito', system-ui, sans-serif", "solid"),
            ("#E11D48", "#F59E0B", "#FFF7ED", "#1C1917", "'Poppins', system-ui, sans-serif", "none"),
        ].map { primary, accent, background, text, font, progress in
            object([
                "accent": .string(accent),
                "backIcon": "chevron",
                "bg": .string(background),
                "font": .string(font),
                "logoLetter": .string(letter),
                "logoUrl": "",
                "primary": .string(primary),
                "progressActive": .string(primary),
                "progressInactive": "rgba(0,0,0,0.1)",
                "progressStyle": .string(progress),
                "radius": 12,
                "text": .string(text),
            ])
        }
    }
}

/// An object from members given in ascending key order (checked in debug builds).
func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
    object(pairs.map { JSONValue.Member($0.key, $0.value) })
}

/// An object of a struct of §4 (`object(Placement.self, [.identifier: "p", .revision: 1])`), from
/// its fields given in ascending key order (checked in debug builds).
func object<Value: SourceBacked>(_ type: Value.Type, _ pairs: KeyValuePairs<Value.Field, JSONValue>) -> JSONValue {
    object(pairs.map { JSONValue.Member($0.key, $0.value) })
}

/// An object from members given in ascending key order (checked in debug builds).
func object(_ members: [JSONValue.Member]) -> JSONValue {
    assert(
        zip(members, members.dropFirst()).allSatisfy { ExactKey.precedes($0.key, $1.key) },
        "members out of order: \(members.map(\.key))")
    return .object(members)
}

extension JSONValue {
    static func int(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
    static func decimal(_ text: String) -> JSONValue { .number(JSONNumber(text: text)) }
    static func strings(_ values: [String]) -> JSONValue { .array(values.map { .string($0) }) }
}
