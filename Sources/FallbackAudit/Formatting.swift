import Foundation
import RovenueFallback

/// Epoch milliseconds, the unit of `generatedAt`, as every report and page writes them.
public enum EpochMilliseconds {
    /// An ISO 8601 UTC date-time, proleptic Gregorian (`2025-11-29T07:06:40Z`).
    ///
    /// Defined for every `Int64`, the extremes included (`-292275055-05-16T16:47:04Z` for
    /// `Int64.min`): a `generatedAt` the SDK ignores never stops a report.
    public static func isoDate(_ milliseconds: Int64) -> String {
        let seconds = flooredQuotient(milliseconds, 1000)
        var days = flooredQuotient(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        // Howard Hinnant's civil_from_days.
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = year >= 0 && year < 10_000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// `value / divisor` rounded down, for a positive divisor; never overflows.
    private static func flooredQuotient(_ value: Int64, _ divisor: Int64) -> Int64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? quotient - 1 : quotient
    }
}

extension FallbackTopLevel {
    /// `generatedAt` as epoch milliseconds: an integer token within 64 bits, read as the SDK reads
    /// an `int` (§2.1, so `-0` is not one); nil for anything else, which the SDK ignores and the
    /// audit reports.
    public var generatedAtMilliseconds: Int64? {
        generatedAt?.number?.int64Value
    }
}

extension FallbackFile {
    /// `generatedAt` as epoch milliseconds; see `FallbackTopLevel.generatedAtMilliseconds`.
    public var generatedAtMilliseconds: Int64? { topLevel.generatedAtMilliseconds }
}

/// How messages write values.
package enum Format {
    /// A string as a JSON literal, shortened past 80 characters.
    package static func quoted(_ text: String) -> String {
        // Text with nothing to escape is copied once, between its quotes, into storage of its size.
        var text = text
        let plain = text.withUTF8 { bytes -> String? in
            guard bytes.count <= 80, !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return nil
            }
            return String(unsafeUninitializedCapacity: bytes.count + 2) { buffer in
                buffer[0] = UInt8(ascii: "\"")
                _ = UnsafeMutableBufferPointer(rebasing: buffer[1...]).initialize(from: bytes)
                buffer[bytes.count + 1] = UInt8(ascii: "\"")
                return bytes.count + 2
            }
        }
        if let plain { return plain }
        return text.count > 80 ? JSONValue.quoted(String(text.prefix(80))) + "…" : JSONValue.quoted(text)
    }

    /// A string as it is, shortened past 80 characters.
    package static func shortened(_ text: String) -> String {
        text.utf8.count <= 80 || text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }

    /// True when every character of `text` is whitespace (`text.allSatisfy(\.isWhitespace)`).
    ///
    /// A character is whitespace when its first scalar is, so text that starts with an ASCII
    /// character other than a space or a control from tab to carriage return is answered at once.
    ///
    /// Text that starts with a non-ASCII scalar that is not whitespace is answered from that
    /// scalar too, without breaking the text into characters.
    package static func isBlank(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return true }
        if first < 0x80, first != 0x20, !(0x09...0x0D).contains(first) { return false }
        if first >= 0x80, let scalar = text.unicodeScalars.first, !scalar.properties.isWhitespace { return false }
        return text.allSatisfy(\.isWhitespace)
    }

    /// `parts` one after another, in a string whose storage is allocated once: a long message
    /// built with `+` and interpolation grows and copies its storage at most of its pieces. The
    /// parts' bytes are copied in one after another and the whole checked once, rather than
    /// each appended as a `String` (each append costs hundreds of instructions, whatever its length).
    package static func joined(_ parts: String...) -> String {
        var length = 0
        for part in parts { length += part.utf8.count }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var written = 0
            for var part in parts {
                part.withUTF8 { utf8 in
                    guard let source = utf8.baseAddress, let target = buffer.baseAddress else { return }
                    (target + written).initialize(from: source, count: utf8.count)
                    written += utf8.count
                }
            }
            return written
        }
    }

    /// Strings as JSON literals, separated by commas.
    package static func quotedList<S: Sequence<String>>(_ texts: S) -> String {
        texts.map(quoted).joined(separator: ", ")
    }

    /// How many of a list's items a message names before "and N more" (`quotedList(_:limit:)`).
    package static let listedLimit = 12

    /// The first `limit` strings as JSON literals, separated by commas, then ", and N more" for the
    /// rest: a message names a few, however long the list (a list named whole in each of N
    /// findings makes N² of text).
    package static func quotedList<C: Collection<String>>(_ texts: C, limit: Int) -> String {
        quotedList(texts.prefix(limit), more: texts.count - limit)
    }

    /// `texts` as JSON literals, separated by commas, then ", and N more" when `more` is above zero:
    /// for a message naming the first few of a list whose length it knows.
    package static func quotedList<S: Sequence<String>>(_ texts: S, more: Int) -> String {
        quotedList(texts) + (more > 0 ? ", and \(more) more" : "")
    }

    /// A value as compact JSON, shortened past 80 characters.
    package static func json(_ value: JSONValue) -> String {
        let text = value.jsonText()
        return text.count > 80 ? String(text.prefix(80)) + "…" : text
    }

    /// A number with at most 6 decimals, trailing zeros dropped (`0.2`, not `0.19999999999999996`).
    package static func decimal(_ value: Double) -> String {
        var text = String(format: "%.6f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A bucket count as a percentage of all buckets (`33.33%`).
    package static func percent(buckets: Int) -> String {
        let hundredths = buckets * 10_000 / Bucketing.bucketCount
        let whole = hundredths / 100
        let fraction = hundredths % 100
        if fraction == 0 { return "\(whole)%" }
        return fraction % 10 == 0 ? "\(whole).\(fraction / 10)%" : "\(whole).\(fraction < 10 ? "0" : "")\(fraction)%"
    }

    /// `date` as epoch milliseconds rounded down, or nil when that does not fit in 64 bits.
    package static func milliseconds(of date: Date) -> Int64? {
        Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// A positive duration in milliseconds, in its two largest units (`3 d 4 h`, `12 min 5 s`).
    package static func duration(milliseconds: Int64) -> String {
        let units: [(size: Int64, name: String)] = [(86_400_000, "d"), (3_600_000, "h"), (60_000, "min"), (1000, "s")]
        for (index, unit) in units.enumerated() where milliseconds >= unit.size {
            var text = "\(milliseconds / unit.size) \(unit.name)"
            if index + 1 < units.count {
                let next = units[index + 1]
                let count = milliseconds % unit.size / next.size
                if count > 0 { text += " \(count) \(next.name)" }
            }
            return text
        }
        return "\(milliseconds) ms"
    }

    /// The most candidates a suggestion is searched among; larger sets get none, keeping a finding's
    /// cost bounded however large the funnel.
    package static let suggestionCandidateLimit = 200

    /// The candidate closest to `text` by edit distance, when close enough to be a likely typo.
    ///
    /// A candidate's characters are counted (a walk of its grapheme clusters) only when its
    /// distance would make it the best so far, and the distance stops once no alignment can stay
    /// within the limit (`editDistance(_:_:bound:)`): counting every candidate, and computing each
    /// distance to its end, made 200 unknown targets among 200 pages with ids of 2,000 characters
    /// unlike each other cost 2.7 s.
    package static func suggestion<C: Collection<String>>(for text: String, among candidates: C) -> String? {
        let textCount = text.count
        let limit = min(3, textCount / 3)
        guard limit > 0, candidates.count <= suggestionCandidateLimit else { return nil }
        var best: (candidate: String, distance: Int)?
        let scalars = Array(text.unicodeScalars)
        for candidate in candidates where !ExactKey.same(candidate, text) {
            let distance = editDistance(scalars, Array(candidate.unicodeScalars), bound: limit)
            if distance <= limit, distance < best?.distance ?? .max, abs(candidate.count - textCount) <= limit {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// ` (did you mean "x"?)` when a close candidate exists, else empty.
    package static func didYouMean<C: Collection<String>>(_ text: String, among candidates: C) -> String {
        suggestion(for: text, among: candidates).map { " (did you mean \(quoted($0))?)" } ?? ""
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions and adjacent
    /// transpositions), exact when it is at most `bound`, else `bound + 1`.
    ///
    /// Only the cells within `bound` of the diagonal are computed: an alignment that leaves them
    /// costs more than `bound`, so the cells outside may stand at `bound + 1`, which is no more than
    /// their true value. O(length × bound), where the whole table made two ids of 20,000 characters
    /// cost 400 million steps.
    static func editDistance(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar], bound: Int) -> Int {
        let far = bound + 1
        guard abs(lhs.count - rhs.count) <= bound else { return far }
        var beforePrevious = [Int](repeating: far, count: rhs.count + 1)
        var previous = [Int](repeating: far, count: rhs.count + 1)
        for j in 0...min(rhs.count, bound) { previous[j] = j }
        var current = beforePrevious
        // The least cell of the row before: an alignment passes through one of any two rows in a
        // row (a transposition steps over one row, never two), and its cost never falls, so once
        // two rows are past the bound the distance is too.
        var previousLeast = 0
        for i in stride(from: 1, through: lhs.count, by: 1) {
            let low = max(1, i - bound)
            let high = min(rhs.count, i + bound)
            current[0] = min(i, far)
            var least = current[0]
            // The cells beside the band: this row's left one is read below, its right one by the next row.
            if low > 1 { current[low - 1] = far }
            if high < rhs.count { current[high + 1] = far }
            if low <= high {
                for j in low...high {
                    let cost = lhs[i - 1] == rhs[j - 1] ? 0 : 1
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                    if i > 1, j > 1, lhs[i - 1] == rhs[j - 2], lhs[i - 2] == rhs[j - 1] {
                        current[j] = min(current[j], beforePrevious[j - 2] + 1)
                    }
                    least = min(least, current[j])
                }
            }
            if least > bound, previousLeast > bound { return far }
            previousLeast = least
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return min(previous[rhs.count], far)
    }
}
