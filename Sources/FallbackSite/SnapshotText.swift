import Foundation
import FallbackAudit
import FallbackMustache
import RovenueFallback

/// Snapshot text as the site shows it: the one way a value from a snapshot reaches a page.
///
/// `PageValues` picks the form by where a value stands: `html(_:)` in an element's content,
/// `attribute(_:)` in an attribute value, `plainText(_:)` where no markup can go (a `<title>`).
/// Every form is escaped, so no snapshot text becomes markup; characters that would reorder or
/// hide text (bidi overrides, controls) are spelled out as `<U+202E>`, so a key cannot pose as
/// another; text with any non-ASCII character is isolated in `<bdi>`, so it cannot reorder the
/// page's own words around it. Long text is cut (`shortened(_:limit:)`) with its length and a
/// hash, so a page grows with what is worth showing, not with the size of a value.
enum SnapshotText {
    /// How many characters of a key or id a page shows before cutting it.
    static let shortLength = 80
    /// How many characters of any other text a page shows before cutting it.
    static let textLength = 1_000

    // MARK: Characters

    /// Bidi formatting characters (`VisibleText.isBidiControl(_:)`).
    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool { VisibleText.isBidiControl(scalar) }

    /// Characters a page never shows as they are (`VisibleText.isHidden(_:)`).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool { VisibleText.isHidden(scalar) }

    /// How a hidden character is spelled out: `<U+202E>`.
    static func visibleName(of scalar: Unicode.Scalar) -> String { VisibleText.visibleName(of: scalar) }

    // MARK: Length

    /// `text` cut after `limit` Unicode scalars: what is kept, and a note saying how long the
    /// whole is, with a hash of its bytes so two long values with the same start read differently
    /// (`5,000,000 bytes, #1a2b3c4d`). The note is nil when nothing is cut.
    static func cut(_ text: String, limit: Int) -> (kept: String, note: String?) {
        // A string of at most `limit` bytes has at most `limit` scalars.
        guard text.utf8.count > limit else { return (text, nil) }
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex), end < scalars.endIndex else {
            return (text, nil)
        }
        return (String(scalars[..<end]), "\(grouped(text.utf8.count)) bytes, #\(fingerprint(text))")
    }

    /// Eight hex digits of a 64-bit FNV-1a hash of `text`'s bytes, eight at a time: a page may
    /// name a long value many times, and this costs a fraction of a SHA-256. For telling values
    /// apart on sight only; file names use `PageNames`.
    static func fingerprint(_ text: String) -> String {
        var text = text
        let hash = text.withUTF8 { bytes -> UInt64 in
            let prime: UInt64 = 0x0000_0100_0000_01B3
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
                hash ^= hash >> 32
                offset += 8
            }
            while offset < raw.count {
                hash = (hash ^ UInt64(raw[offset])) &* prime
                offset += 1
            }
            return hash
        }
        let hex = String(hash >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// `text` as a page names it: whole when short, else its first `limit` characters, `…` and a
    /// note with its length and hash (`onboarding_aaaa…aaa… (5,000,000 bytes, #1a2b3c4d)`).
    static func shortened(_ text: String, limit: Int = shortLength) -> String {
        let (kept, note) = cut(text, limit: limit)
        guard let note else { return kept }
        return kept + "… (" + note + ")"
    }

    /// A JSON Pointer with each long token shortened: the path stays readable to its end.
    static func shortenedPointer(_ pointer: String) -> String {
        guard pointer.utf8.count > shortLength else { return pointer }
        // Tokens end at "/" bytes: a key may start with a combining mark, which joins the "/"
        // before it into one `Character` (and comparing that with "/" normalises all of it).
        return pointer.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { shortened(String(Substring($0))) }.joined(separator: "/")
    }

    /// JSON Pointers shortened as `shortenedPointer(_:)` shortens their text, each link of a head
    /// once (`JSONPointer.Head`): a finding row shows its pointer, and the findings under one long
    /// key share its link, which the shortening would otherwise read once per finding. Safe from
    /// any thread; holds each link it has shortened.
    final class ShortenedPointers: @unchecked Sendable {
        private let lock = NSLock()
        private var links: [ObjectIdentifier: (link: JSONPointer.Head, shortened: String)] = [:]

        /// `shortenedPointer(pointer.string)`: each link's shortened bytes, then the tail's. Links
        /// end at long tokens and the tail and every later link start at a "/", so the pieces
        /// shorten token by token apart (a pointer with a head is longer than the 80 bytes under
        /// which `shortenedPointer` keeps a text whole).
        func shortened(_ pointer: JSONPointer) -> String {
            guard let head = pointer.head else { return SnapshotText.shortenedPointer(pointer.tail) }
            return shortened(head) + SnapshotText.shortenedPointer(pointer.tail)
        }

        /// The head up to and with `link`, shortened.
        private func shortened(_ link: JSONPointer.Head) -> String {
            // The links up to the nearest one already shortened, last first.
            var pending: [JSONPointer.Head] = []
            var known = ""
            var current: JSONPointer.Head? = link
            while let next = current {
                if let shortened = lock.withLock({ links[ObjectIdentifier(next)]?.shortened }) {
                    known = shortened
                    break
                }
                pending.append(next)
                current = next.parent
            }
            for next in pending.reversed() {
                known += SnapshotText.shortenedPointer(next.segment)
                let value = known
                lock.withLock { links[ObjectIdentifier(next)] = (next, value) }
            }
            return known
        }
    }

    /// How many characters of one key a media path shows, once its parts are shortened.
    static let pathKeyLength = 4 * shortLength

    /// A member's key as a media path shows it (`RemoteMedia`'s `keySpelling`): each `/`-separated
    /// part shortened as `shortenedPointer(_:)` shortens a path's parts, then the whole cut after
    /// `pathKeyLength` characters with its length and hash. A key of many short parts is shown
    /// whole by the first step alone, and every URL under it would repeat all of it: the key's
    /// length times the URLs, in time, memory and the page.
    static func shortenedKey(_ key: String) -> String {
        shortened(shortenedPointer(key), limit: pathKeyLength)
    }

    /// `1234567` as `1,234,567`.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return number < 0 ? "-" + result : result
    }

    // MARK: Forms

    /// HTML for `text` in an element's content: escaped, hidden characters as
    /// `<span class="control-char">&lt;U+202E&gt;</span>`, isolated in `<bdi>` when it has any
    /// non-ASCII character, and cut after `limit` characters (nil: never). Without `isolated`, no
    /// `<bdi>`: for runs of one text that an element isolated as a whole (`dir="auto"`) shows together.
    /// `escaping` is `.htmlText` where the text can only be element content (quotes kept as they are).
    static func html(_ text: String, limit: Int? = textLength, isolated: Bool = true, escaping: MarkupEscaping = .html) -> String {
        if let limit, text.utf8.count > limit {
            return html(shortened(text, limit: limit), limit: nil, isolated: isolated, escaping: escaping)
        }
        let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
        if isASCII, !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return escaping.escape(text) }
        let isolates = isolated && !isASCII
        var output = isolates ? "<bdi>" : ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                output += "<span class=\"control-char\">" + MarkupEscaping.html(visibleName(of: scalar)) + "</span>"
            } else {
                escaping.append(scalar, to: &output)
            }
        }
        return isolates ? output + "</bdi>" : output
    }

    /// Appends `html(text)` to `output` as UTF-8. Text of at most `textLength` bytes whose every
    /// character is shown as it is (`ListingBytes.plainTextForm`) is escaped byte by byte, with no
    /// `String` made, from the first byte to escape that the same scan found (the bytes before
    /// it, most text's all, are copied as one piece); any other goes through `html(_:)`.
    static func appendHTML<Sink: ByteSink & ~Copyable>(_ text: String, to output: inout Sink) {
        let appended = withUTF8(of: text) { bytes -> Bool in
            guard bytes.count <= textLength, let scan = ListingBytes.scan(bytes, quotesAndBackslashes: true) else { return false }
            let form = scan.form
            if form == .isolated { output.append("<bdi>" as StaticString) }
            ListingBytes.appendHTML(bytes, from: scan.firstMarkupEscape, to: &output)
            if form == .isolated { output.append("</bdi>" as StaticString) }
            return true
        }
        if !appended { output.append(html(text)) }
    }

    /// `body` of `text`'s UTF-8, read in place: a `var` copy for `withUTF8` retained and released
    /// the text, for every value a page substitutes. A string with no contiguous UTF-8 (bridged)
    /// is copied as before.
    @inline(__always)
    private static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// Appends `attribute(text)` to `output` as UTF-8: byte by byte, from the first byte to
    /// escape, when every character is shown as it is (`ListingBytes.plainTextForm`), else
    /// through `attribute(_:)`.
    static func appendAttribute<Sink: ByteSink & ~Copyable>(_ text: String, to output: inout Sink) {
        let appended = withUTF8(of: text) { bytes -> Bool in
            guard let scan = ListingBytes.scan(bytes, quotesAndBackslashes: true) else { return false }
            ListingBytes.appendHTML(bytes, from: scan.firstMarkupEscape, to: &output)
            return true
        }
        if !appended { output.append(attribute(text)) }
    }

    /// `text` for an attribute value: the exact value, escaped, with hidden characters as
    /// character references (`&#x202E;`), which the browser reads as the same value.
    static func attribute(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return MarkupEscaping.html(text) }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                appendReference(of: scalar, to: &output)
            } else {
                MarkupEscaping.html.append(scalar, to: &output)
            }
        }
        return output
    }

    /// `text` in an unquoted attribute value: every character but an ASCII letter or digit as its
    /// character reference (`&#x20;`), so that no whitespace, `>`, quote or `=` in it can end the
    /// value or start another attribute; the browser reads the same value. (A token that is an
    /// unquoted value's whole value is put in quotes and written as `attribute(_:)` writes it
    /// instead, since an empty value there would take the next attribute for its own:
    /// `TokenPlaces`.)
    static func unquotedAttribute(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isASCIILetterOrDigit(scalar) {
                output.unicodeScalars.append(scalar)
            } else {
                appendReference(of: scalar, to: &output)
            }
        }
        return output
    }

    /// `text` in a tag's or an attribute's name: `x`, then every character of the text as its
    /// character reference. A name does not decode references, so it is one that no element or
    /// attribute has, whatever the text (`script`, `onclick`, an empty text), and it starts with a
    /// letter, as a tag's name must for the `<` before it to open a tag. Nothing in it ends the
    /// name or the tag.
    static func name(_ text: String) -> String {
        var output = "x"
        output.reserveCapacity(1 + 6 * text.utf8.count)
        for scalar in text.unicodeScalars { appendReference(of: scalar, to: &output) }
        return output
    }

    /// `text` in a comment, or in what the scan reads as one (a doctype, `<?…>`, `<![CDATA[…`):
    /// written so that it is inert wherever a browser reads it, since a CDATA section in SVG or
    /// MathML ends at `]]>`, not at the first `>` as the scan ends it, and what the scan takes for
    /// a comment may then be text, an attribute value or a name. Every character but an ASCII letter
    /// or digit is a character reference (a comment decodes none and shows nothing; text and values
    /// decode them to the same characters, and a name keeps them as they are), hidden characters
    /// are their visible names (`<U+202E>`, written as references), so none is ever live, and an
    /// empty text is a space's reference. No dash, `>`, quote, space or `=` of the text can end the
    /// comment, a value or a name, or finish an ending the template's bytes around it start.
    static func comment(_ text: String) -> String {
        guard !text.isEmpty else { return "&#x20;" }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isASCIILetterOrDigit(scalar) {
                output.unicodeScalars.append(scalar)
            } else if isHidden(scalar) {
                for named in visibleName(of: scalar).unicodeScalars {
                    if isASCIILetterOrDigit(named) { output.unicodeScalars.append(named) } else { appendReference(of: named, to: &output) }
                }
            } else {
                appendReference(of: scalar, to: &output)
            }
        }
        return output
    }

    /// Appends `scalar`'s hexadecimal character reference (`&#x2D;`) to `output`.
    private static func appendReference(of scalar: Unicode.Scalar, to output: inout String) {
        output += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
    }

    private static func isASCIILetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        default: false
        }
    }

    /// `text` where no markup can go (`<title>`, `<textarea>`): escaped, hidden characters spelled
    /// out as `&lt;U+202E&gt;`, cut after `limit` characters. With `oneLine` (a tooltip naming one
    /// item), line feeds and carriage returns are spelled out too.
    static func plainText(_ text: String, limit: Int = textLength, oneLine: Bool = false) -> String {
        MarkupEscaping.html(spelledOut(shortened(text, limit: limit), oneLine: oneLine))
    }

    /// `text` with each hidden character replaced by its visible name, for text a script shows.
    /// With `oneLine`, line feeds and carriage returns too.
    static func spelledOut(_ text: String, oneLine: Bool = false) -> String {
        let spelled = { (scalar: Unicode.Scalar) in isHidden(scalar) || (oneLine && (scalar == "\n" || scalar == "\r")) }
        guard !VisibleText.isPrintableASCII(text), text.unicodeScalars.contains(where: spelled) else { return text }
        return VisibleText.spellingOut(text, where: spelled)
    }
}
