@testable import FallbackCLI
import Foundation
import Testing

/// `--now` reads the plain forms `2026-12-01T09:30:00Z` and `2026-12-01T10:30:00+01:00` itself
/// (`SourceDateEpoch.seconds(ofPlainDateTime:)`) and leaves every other text to
/// `ISO8601DateFormatter`: for each form it reads, it gives the formatter's seconds, and what it
/// declines the formatter still reads as before.
@Suite("--now: plain date-times read without the ICU formatter, as the formatter reads them")
struct PlainDateTimeTests {
    /// What `--now` gave before the plain reader: whole seconds, else the formatter's date.
    static func reference(_ text: String) -> Int64? {
        if let seconds = try? SourceDateEpoch(variables: [SourceDateEpoch.variableName: text])?.seconds { return seconds }
        let reader = ISO8601DateFormatter()
        reader.formatOptions = [.withInternetDateTime]
        guard text.utf8.count <= 64, let date = reader.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard Double(SourceDateEpoch.acceptedSeconds.lowerBound) <= seconds, seconds <= Double(SourceDateEpoch.acceptedSeconds.upperBound) else {
            return nil
        }
        return Int64(seconds)
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static let edges = [
        "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "2024-02-29T23:59:59Z",
        "1900-01-01T00:00:00Z", "1900-02-28T23:59:59Z", "2100-02-28T00:00:00Z", "9999-12-31T23:59:59Z",
        "2026-12-01T09:30:00Z", "2026-12-01T10:30:00+01:00", "2026-12-01T00:00:00-14:00", "1900-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00", "2026-06-30T23:59:59+05:45", "2026-01-01T00:00:00-00:00", "2026-03-31T01:02:03+00:00",
    ]

    /// Texts the plain reader declines: impossible days and times, zones past ±14:00, other
    /// spellings. The formatter decides each, as it did.
    static let declined = [
        "2026-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
        "2026-04-31T00:00:00Z", "2026-12-00T00:00:00Z", "2026-12-01T24:00:00Z", "2026-12-01T23:60:00Z", "2026-12-01T23:59:60Z",
        "2026-12-01t09:30:00Z", "2026-12-01T09:30:00z", "2026-12-01 09:30:00Z", "2026-12-01T09:30:00+14:01", "2026-12-01T09:30:00+15:00",
        "2026-12-01T09:30:00+0100", "2026-12-01T09:30:00.5Z", "1899-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2026-12-01T09:30:00Z ",
        " 2026-12-01T09:30:00Z", "2026-12-01T09:30:00", "2026-12-01", "+2026-12-01T09:30:00Z", "2026-12-01T09:30:00+01:60",
        "2026-12-01T09:30:00*01:00", "2026-1２-01T09:30:00Z", "20261201T093000Z", "2026-12-01T09:30Z", "１９７０-01-01T00:00:00Z",
    ]

    @Test(arguments: edges)
    func anEdgeIsReadAsTheFormatterReadsIt(text: String) throws {
        let seconds = try #require(SourceDateEpoch.seconds(ofPlainDateTime: text), "\(text)")
        #expect(seconds == Self.reference(text), "\(text)")
        #expect(SourceDateEpoch(argument: text)?.seconds == seconds)
    }

    @Test(arguments: declined)
    func anotherTextIsLeftToTheFormatter(text: String) {
        #expect(SourceDateEpoch.seconds(ofPlainDateTime: text) == nil, "\(text)")
        #expect(SourceDateEpoch(argument: text)?.seconds == Self.reference(text), "\(text)")
    }

    @Test func randomDateTimesAreReadAsTheFormatterReadsThem() {
        var generator = SystemRandomNumberGenerator()
        var readPlainly = 0
        for _ in 0..<3000 {
            let year = Int.random(in: 1900...9999, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            let day = Int.random(in: 1...28, using: &generator) + (Bool.random(using: &generator) ? Int.random(in: 0...3, using: &generator) : 0)
            let time = "\(Self.two(Int.random(in: 0...23, using: &generator))):\(Self.two(Int.random(in: 0...59, using: &generator))):\(Self.two(Int.random(in: 0...59, using: &generator)))"
            let zone: String
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: zone = "Z"
            default:
                let minutes = Int.random(in: 0...(14 * 60), using: &generator)
                zone = (Bool.random(using: &generator) ? "+" : "-") + "\(Self.two(minutes / 60)):\(Self.two(minutes % 60))"
            }
            let text = "\(year)-\(Self.two(month))-\(Self.two(day))T\(time)\(zone)"
            // Days past the month's end are declined; the formatter still decides them.
            #expect(SourceDateEpoch(argument: text)?.seconds == Self.reference(text), "\(text)")
            if let seconds = SourceDateEpoch.seconds(ofPlainDateTime: text) {
                #expect(seconds == Self.reference(text), "\(text)")
                readPlainly += 1
            }
        }
        // Every day up to the 28th is real: at least half the texts are read plainly.
        #expect(readPlainly > 1500, "\(readPlainly)")
    }
}
