import FallbackAudit
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
        if let seconds = Self.seconds(ofPlainDateTime: argument) {
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

    /// The seconds of `2026-12-01T09:30:00Z` or `2026-12-01T10:30:00+01:00` exactly, with a year
    /// from 1900 to 9999, a real day and time of day and a zone within ±14:00; nil for any other
    /// text, which `ISO8601DateFormatter` then reads. For these it gives what the formatter gives,
    /// without loading ICU's date parser: about 3 ms of every run given `--now` as a date.
    static func seconds(ofPlainDateTime text: String) -> Int64? {
        var text = text
        return text.withUTF8 { bytes -> Int64? in
            guard bytes.count == 20 || bytes.count == 25 else { return nil }
            /// The decimal number in `bytes[start..<start + count]`, nil unless all digits.
            func number(_ start: Int, _ count: Int) -> Int64? {
                var value: Int64 = 0
                for byte in bytes[start..<start + count] {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                }
                return value
            }
            let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
            guard separators.allSatisfy({ bytes[$0.0] == $0.1.asciiValue }),
                let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                (1900...9999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
            else { return nil }
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let monthDays: [Int64] = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            guard (1...monthDays[Int(month) - 1]).contains(day) else { return nil }
            var offset: Int64 = 0
            if bytes.count == 20 {
                guard bytes[19] == UInt8(ascii: "Z") else { return nil }
            } else {
                guard bytes[19] == UInt8(ascii: "+") || bytes[19] == UInt8(ascii: "-"), bytes[22] == UInt8(ascii: ":"),
                    let zoneHours = number(20, 2), let zoneMinutes = number(23, 2), zoneMinutes < 60,
                    zoneHours * 60 + zoneMinutes <= 14 * 60
                else { return nil }
                offset = (zoneHours * 3600 + zoneMinutes * 60) * (bytes[19] == UInt8(ascii: "-") ? -1 : 1)
            }
            let days = EpochMilliseconds.daysSinceEpoch(year: year, month: month, day: day)
            return days * 86_400 + hour * 3600 + minute * 60 + second - offset
        }
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
