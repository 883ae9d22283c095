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
