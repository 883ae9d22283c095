import Foundation
import RovenueFallback

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org): the only clock a page may read, in whole seconds
/// since 1970-01-01 UTC.
///
/// ```swift
/// let epoch = try SourceDateEpoch(variables: ["SOURCE_DATE_EPOCH": "1790000000"])
/// ```
public struct SourceDateEpoch: Sendable, Hashable {
    /// The variable's name.
    public static let variableName = "SOURCE_DATE_EPOCH"
    /// The seconds the tool accepts: those whose epoch milliseconds fit in 64 bits, so that no
    /// age or date computed from them can overflow.
    public static let acceptedSeconds: ClosedRange<Int64> = -(Int64.max / 1000)...(Int64.max / 1000)

    /// Seconds since 1970-01-01 UTC, within `acceptedSeconds`.
    public let seconds: Int64

    /// The time as a `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(seconds)) }

    /// An invalid value, with a message naming the variable, what it must be and what it is.
    public struct InvalidValue: Error, CustomStringConvertible, Sendable, Equatable {
        public let value: String

        public var description: String {
            "\(SourceDateEpoch.variableName) must be whole seconds since 1970-01-01 UTC, an integer from "
                + "\(SourceDateEpoch.acceptedSeconds.lowerBound) to \(SourceDateEpoch.acceptedSeconds.upperBound), "
                + "found \(JSONValue.quoted(value.count > 40 ? String(value.prefix(40)) + "…" : value))"
        }
    }

    /// Reads the variable from `variables` (the process environment, or any other); nil when it is
    /// unset or empty.
    public init?(variables: [String: String]) throws(InvalidValue) {
        guard let text = variables[Self.variableName], !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let seconds = Int64(text), Self.acceptedSeconds.contains(seconds)
        else { throw InvalidValue(value: text) }
        self.seconds = seconds
    }
}

/// `--now TIME`: a time given on the command line, as `SOURCE_DATE_EPOCH` gives one.
extension SourceDateEpoch: ArgumentValue {
    /// Whole seconds since 1970-01-01 UTC (`1790000000`), or an ISO 8601 date-time with its zone
    /// (`2026-12-01T09:30:00Z`, `2026-12-01T10:30:00+01:00`).
    init?(argument: String) {
        if let seconds = try? SourceDateEpoch(variables: [Self.variableName: argument])?.seconds {
            self.seconds = seconds
            return
        }
        let reader = ISO8601DateFormatter()
        reader.formatOptions = [.withInternetDateTime]
        guard argument.utf8.count <= 64, let date = reader.date(from: argument) else { return nil }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard Double(Self.acceptedSeconds.lowerBound) <= seconds, seconds <= Double(Self.acceptedSeconds.upperBound) else { return nil }
        self.seconds = Int64(seconds)
    }

    static let expectation = "expected an ISO 8601 date-time with a zone (2026-12-01T09:30:00Z) or whole seconds since 1970-01-01 UTC"
    var argumentText: String { String(seconds) }

    /// The `--now` option of the commands whose checks depend on the time (`check`, `history`,
    /// `build`).
    static func option(default defaultDescription: String) -> TypedOption<SourceDateEpoch> {
        TypedOption(
            name: "now", valueName: "time",
            help: "The time the checks take as now: an ISO 8601 date-time with a zone (2026-12-01T09:30:00Z) or whole seconds since 1970-01-01 UTC.",
            defaultDescription: defaultDescription)
    }

    /// The time a command takes as now: `--now` when given, else `SOURCE_DATE_EPOCH` when set,
    /// else `clock` (nil for a command that never reads the clock, like `build`). Nil after saying
    /// why when `SOURCE_DATE_EPOCH` is set to something that is not whole seconds.
    static func now(given: SourceDateEpoch?, in environment: CommandEnvironment, clock: Date?) -> Date?? {
        if let given { return .some(given.date) }
        do {
            return .some(try SourceDateEpoch(variables: environment.variables)?.date ?? clock)
        } catch {
            environment.writeError("error: \(error)\n")
            return nil
        }
    }
}
