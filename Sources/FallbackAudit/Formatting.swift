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

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (`isoDate`'s inverse on
    /// dates): Howard Hinnant's days_from_civil. `month` is 1...12 and `day` 1...31; a year within
    /// ±10^12 cannot overflow.
    public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
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
    /// A string as a JSON literal, shortened past 80 characters (counted no further than 81: a
    /// message quotes ids that can be megabytes long).
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
        let (kept, isCut) = shortPrefix(text)
        return isCut ? JSONValue.quoted(kept) + "…" : JSONValue.quoted(text)
    }

    /// A string as it is, shortened past 80 characters (or 320 Unicode scalars).
    package static func shortened(_ text: String) -> String {
        shortened(text, toCharacters: 80)
    }

    /// A string as it is, shortened past `limit` characters (or four times as many Unicode
    /// scalars), ending with `…` when cut; read no further than that.
    package static func shortened(_ text: String, toCharacters limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let (kept, isCut) = shortPrefix(text, characters: limit)
        return isCut ? kept + "…" : text
    }

    /// The most Unicode scalars a text shortened to `characters` characters keeps: four a character
    /// on average. A character can pile up any number of combining marks (one of 50,000 marks is
    /// one character), and finding where it ends reads all of them: a text is read no further than this.
    package static func scalarLimit(forCharacters characters: Int) -> Int { 4 * characters }

    /// `scalarLimit(forCharacters:)` of the usual 80 characters: 320.
    package static let shortScalarLimit = scalarLimit(forCharacters: 80)

    /// The first 80 characters of `text`, within its first `shortScalarLimit` scalars, and
    /// whether that leaves anything out. A text of at most that many scalars is cut as
    /// `text.prefix(80)` cuts it; a longer one is cut first at that many scalars, then at 80
    /// characters, which is the same cut whenever its first 80 characters end before the limit.
    /// With `characters`, the same for that many characters and four times as many scalars.
    package static func shortPrefix(_ text: String, characters: Int = 80) -> (kept: String, isCut: Bool) {
        let scalars = text.unicodeScalars
        guard let limitIndex = scalars.index(scalars.startIndex, offsetBy: scalarLimit(forCharacters: characters), limitedBy: scalars.endIndex),
            limitIndex < scalars.endIndex
        else {
            return characterCount(of: text, upTo: characters + 1) > characters ? (String(text.prefix(characters)), true) : (text, false)
        }
        let head = String(scalars[..<limitIndex])
        return (String(head.prefix(characters)), true)
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
        return characterCount(of: text, upTo: 81) > 80 ? String(text.prefix(80)) + "…" : text
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
    /// unlike each other cost 2.7 s. The distance reads both ids' UTF-8 bytes where they are:
    /// decoding each candidate's scalars into an array, for every target, was a copy of the
    /// candidates per target.
    ///
    /// A candidate whose length in bytes leaves no scalar count within the limit of the text's (a
    /// scalar is one to four bytes, and the distance is at least the difference of the counts) is
    /// passed over unread. Counted for every target, 200 page ids of 20,000 characters made each
    /// short unknown target cost 4 MB of reading: 20,000 such targets in a 9.6 MB file took 8.9 s.
    /// The text's own characters are counted as far as the limit needs, and whole only when a
    /// candidate comes close.
    package static func suggestion<C: Collection<String>>(for text: String, among candidates: C) -> String? {
        let limit = min(3, characterCount(of: text, upTo: 9) / 3)
        guard limit > 0, candidates.count <= suggestionCandidateLimit else { return nil }
        var textCount: Int?
        var best: (candidate: String, distance: Int)?
        var utf8Text = text
        utf8Text.withUTF8 { textBytes in
            let textScalars = scalarCount(textBytes)
            for candidate in candidates where !ExactKey.same(candidate, text) {
                var utf8Candidate = candidate
                let distance = utf8Candidate.withUTF8 { bytes in
                    guard bytes.count + limit >= textScalars, (bytes.count + 3) / 4 <= textScalars + limit else { return limit + 1 }
                    return editDistance(textBytes, scalars: textScalars, bytes, scalars: scalarCount(bytes), bound: limit)
                }
                guard distance <= limit, distance < best?.distance ?? .max else { continue }
                let count = textCount ?? text.count
                textCount = count
                if abs(candidate.count - count) <= limit { best = (candidate, distance) }
            }
        }
        return best?.candidate
    }

    /// `text.count`, counted no further than `limit`: `min(text.count, limit)`, in time that does not
    /// grow with the text past its first `limit` characters.
    package static func characterCount(of text: String, upTo limit: Int) -> Int {
        var count = 0
        var index = text.startIndex
        while count < limit, index < text.endIndex {
            text.formIndex(after: &index)
            count += 1
        }
        return count
    }

    /// ` (did you mean "x"?)` when a close candidate exists, else empty.
    package static func didYouMean<C: Collection<String>>(_ text: String, among candidates: C) -> String {
        suggestion(for: text, among: candidates).map { " (did you mean \(quoted($0))?)" } ?? ""
    }

    /// Optimal string alignment distance between the Unicode scalars of `lhs` and `rhs`
    /// (insertions, deletions, substitutions and adjacent transpositions), exact when it is at most
    /// `bound`, else `bound + 1`.
    static func editDistance(_ lhs: String, _ rhs: String, bound: Int) -> Int {
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { lhs in
            rhs.withUTF8 { rhs in editDistance(lhs, scalars: scalarCount(lhs), rhs, scalars: scalarCount(rhs), bound: bound) }
        }
    }

    /// The number of Unicode scalars in valid UTF-8: its bytes that are not continuation bytes
    /// (`10xxxxxx`), counted eight at a time. A byte at a time, with a branch on each, this count
    /// of the candidates took 1.1 of the 2.0 s that 200 targets among 200 ids of 20,000 mostly
    /// two-byte scalars cost.
    static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var continuations = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            // Each byte of `lanes` counts the continuation bytes in its place of up to 255 words.
            var lanes: UInt64 = 0
            let blockEnd = min(bytes.count, offset + 255 * 8)
            while offset + 8 <= blockEnd {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                // A byte's top bit, kept where the bit below it is clear, moved to its lowest bit.
                lanes &+= (word & ~(word << 1) & 0x8080_8080_8080_8080) >> 7
                offset += 8
            }
            // Pairs of lanes into 16-bit lanes (at most 510 each), then their sum (at most 2,040).
            let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
            continuations += Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
        }
        while offset < bytes.count {
            if base[offset] & 0xC0 == 0x80 { continuations += 1 }
            offset += 1
        }
        return bytes.count - continuations
    }

    /// `editDistance(_:_:bound:)` of two valid UTF-8 texts of `lhsScalars` and `rhsScalars`
    /// scalars, by furthest-reaching diagonals (Ukkonen; Landau and Vishkin).
    ///
    /// Diagonal d holds the cells (i, i + d) of the table, row i for lhs's first i scalars. Along a
    /// diagonal the table never falls, for this distance as for Levenshtein's: a cheapest path to
    /// (i, j) leaves the square before (i - 1, j - 1) by one step, which ends on row i or column j
    /// (a transposition may jump the corner), then runs along that row or column; the same path
    /// stopped one row or column sooner reaches (i - 1, j - 1) for no more. So a diagonal's cells of
    /// cost at most e are those up to its furthest one, and for e from 0 each diagonal's furthest
    /// cell is where the slide (equal scalars, cost 0) stops from the furthest of: its own of cost
    /// e - 1, one substitution or one transposition on from there, an insertion from diagonal
    /// d - 1's and a deletion from diagonal d + 1's. Moving from an earlier cell gains nothing: the
    /// move ends no further (a transposition from row r ends at r + 2, where the substitution from
    /// any further row ends), and a slide from further on stops no sooner. Moves that would leave
    /// the table are not made: they are only wanted from a furthest cell on the last row or
    /// column, and any path through an earlier cell of its diagonal must go on along that row or
    /// column, which the furthest cell does for less. Diagonals are followed at cost e only when
    /// within e of 0 and within the cost left of `rhsScalars - lhsScalars`, where the table ends.
    /// Every pair of texts of up to seven letters of three, and five of four, gives the whole
    /// table's distance at bounds 0 to 3 (`BandedDistanceTests`).
    ///
    /// A cell is kept as its byte offsets in both texts. A slide compares sixteen bytes at a time,
    /// then steps back to the start of the scalar where they part (the equal bytes before it start
    /// the same scalars in both). A diagonal's slides pass each of its rows once, so the work is a
    /// pass over the texts per diagonal that runs long, one for ids alike but for a few edits and
    /// at most bound + 1 (`aaaa…`), and one more to count rhs's scalars. 200 unknown targets among
    /// 200 page ids of 20,000 characters, each within three edits of every other (at the start,
    /// the middle and the end): check takes 0.17 s of CPU (`aaaa…` ids 0.22 s; ids of mostly
    /// two-byte scalars 1.0 s, most of it counting characters for the messages), where the band of
    /// `2 × bound + 1` cells per row took 22 s (25 s; 31 s).
    static func editDistance(
        _ lhs: UnsafeBufferPointer<UInt8>, scalars lhsScalars: Int, _ rhs: UnsafeBufferPointer<UInt8>, scalars rhsScalars: Int,
        bound: Int
    ) -> Int {
        let far = bound + 1
        let end = rhsScalars - lhsScalars
        guard abs(end) <= bound else { return far }
        // The distance is at most the longer length: a larger bound changes nothing but the work.
        let bound = min(bound, max(lhsScalars, rhsScalars))
        let width = 2 * bound + 1
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 4 * width) { storage in
            // Per diagonal d, at d + bound: where its furthest row starts, as byte offsets of that
            // row's scalar in lhs and its column's in rhs (-1 for none), at the cost before and at this one.
            var previousRows = storage.baseAddress!
            var previousColumns = previousRows + width
            var rows = previousRows + 2 * width
            var columns = previousRows + 3 * width
            for cost in 0...bound {
                rows.initialize(repeating: -1, count: width)
                for diagonal in max(-cost, end - (bound - cost))...min(cost, end + (bound - cost)) {
                    let index = diagonal + bound
                    var row = 0
                    var column = 0
                    if cost > 0 {
                        // The furthest of: the diagonal's own furthest cell of the cost before, one
                        // substitution or transposition on from it, an insertion from the diagonal
                        // before (one scalar of rhs) and a deletion from the one after (one of lhs).
                        row = previousRows[index]
                        if row >= 0 {
                            column = previousColumns[index]
                            if row < lhs.count, column < rhs.count {
                                let lhsLength = scalarLength(lhs[row])
                                let rhsLength = scalarLength(rhs[column])
                                if row + lhsLength < lhs.count, column + rhsLength < rhs.count,
                                    sameScalar(lhs, row, rhs, column + rhsLength), sameScalar(lhs, row + lhsLength, rhs, column)
                                {
                                    row += lhsLength + rhsLength
                                    column += lhsLength + rhsLength
                                } else {
                                    row += lhsLength
                                    column += rhsLength
                                }
                            }
                        }
                        if index > 0, previousRows[index - 1] > row, previousColumns[index - 1] < rhs.count {
                            row = previousRows[index - 1]
                            column = previousColumns[index - 1] + scalarLength(rhs[previousColumns[index - 1]])
                        }
                        if index + 1 < width, case let above = previousRows[index + 1], above >= 0, above < lhs.count,
                            above + scalarLength(lhs[above]) > row
                        {
                            row = above + scalarLength(lhs[above])
                            column = previousColumns[index + 1]
                        }
                        if row < 0 { continue }
                    }
                    let common = commonScalarBytes(lhs, row, rhs, column)
                    row += common
                    column += common
                    if row == lhs.count, column == rhs.count { return cost }
                    rows[index] = row
                    columns[index] = column
                }
                swap(&previousRows, &rows)
                swap(&previousColumns, &columns)
            }
            return far
        }
    }

    /// The length of the UTF-8 sequence that `lead` starts.
    @inline(__always)
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }

    /// True when the scalars at `lhsOffset` and `rhsOffset` are the same.
    @inline(__always)
    private static func sameScalar(
        _ lhs: UnsafeBufferPointer<UInt8>, _ lhsOffset: Int, _ rhs: UnsafeBufferPointer<UInt8>, _ rhsOffset: Int
    ) -> Bool {
        let length = scalarLength(lhs[lhsOffset])
        guard length == scalarLength(rhs[rhsOffset]) else { return false }
        for k in 0..<length where lhs[lhsOffset + k] != rhs[rhsOffset + k] { return false }
        return true
    }

    /// The bytes of the whole scalars that `lhs` from `lhsOffset` and `rhs` from `rhsOffset` have
    /// in common, both offsets at the start of a scalar.
    @inline(__always)
    private static func commonScalarBytes(
        _ lhs: UnsafeBufferPointer<UInt8>, _ lhsOffset: Int, _ rhs: UnsafeBufferPointer<UInt8>, _ rhsOffset: Int
    ) -> Int {
        let count = min(lhs.count - lhsOffset, rhs.count - rhsOffset)
        guard count > 0, let lhsBase = lhs.baseAddress, let rhsBase = rhs.baseAddress else { return 0 }
        let left = UnsafeRawPointer(lhsBase + lhsOffset)
        let right = UnsafeRawPointer(rhsBase + rhsOffset)
        var common = 0
        while common + 16 <= count {
            let first = left.loadUnaligned(fromByteOffset: common, as: UInt64.self) ^ right.loadUnaligned(fromByteOffset: common, as: UInt64.self)
            let second = left.loadUnaligned(fromByteOffset: common + 8, as: UInt64.self) ^ right.loadUnaligned(fromByteOffset: common + 8, as: UInt64.self)
            if first | second != 0 { break }
            common += 16
        }
        while common + 8 <= count {
            let lhsWord = left.loadUnaligned(fromByteOffset: common, as: UInt64.self)
            if lhsWord != right.loadUnaligned(fromByteOffset: common, as: UInt64.self) { break }
            common += 8
        }
        while common < count, lhsBase[lhsOffset + common] == rhsBase[rhsOffset + common] { common += 1 }
        // The bytes part inside a scalar (or at the start of one): back to its start.
        while common > 0, common < lhs.count - lhsOffset, lhsBase[lhsOffset + common] & 0xC0 == 0x80 { common -= 1 }
        return common
    }
}
