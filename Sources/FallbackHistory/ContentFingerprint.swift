import FallbackAudit
import RovenueFallback

/// SHA-256 of a value's canonical text: the same digest as
/// `SHA256Digest(of: value.owned.jsonText([.sortedKeys]).utf8)` without building the owned value.
///
/// Canonical means compact, object keys in ascending byte order with duplicates collapsed to the
/// last, strings escaped as `JSONValue.writeQuoted` escapes them, and numbers as written; so
/// whitespace and key order never change a fingerprint, and any change to a value does. Text
/// already written so (every dashboard export) is hashed as it stands; other text is walked and
/// written again.
struct ContentFingerprint {
    private var hasher = SHA256Hasher()
    private var buffer: [UInt8] = []
    private let bytes: [UInt8]

    private init(document: JSONDocument) {
        bytes = document.bytes
        buffer.reserveCapacity(Self.flushSize)
    }

    private static let flushSize = 1 << 14

    /// The digest of `value`, leaving out the member `excludedKey` of a top-level object, or the
    /// element at `excludedElement` of a top-level array.
    static func digest(
        of value: JSONDocument.Value, excludingKey excludedKey: String? = nil, excludingElement excludedElement: Int? = nil
    ) -> SHA256Digest {
        let bytes = value.document.bytes
        let range = value.byteRange
        let canonical = bytes.withUnsafeBufferPointer { isCanonical(UnsafeBufferPointer(rebasing: $0[range])) }
        if canonical {
            // Written as the walk would write it: hash the text, less the excluded member and a comma.
            var hasher = SHA256Hasher()
            if let excluded = excludedSpan(of: value, key: excludedKey, element: excludedElement) {
                var cut = excluded
                if bytes[cut.lowerBound - 1] == UInt8(ascii: ",") {
                    cut = (cut.lowerBound - 1)..<cut.upperBound
                } else if bytes[cut.upperBound] == UInt8(ascii: ",") {
                    cut = cut.lowerBound..<(cut.upperBound + 1)
                }
                hasher.update(bytes[range.lowerBound..<cut.lowerBound])
                hasher.update(bytes[cut.upperBound..<range.upperBound])
            } else {
                hasher.update(bytes[range])
            }
            return hasher.finalize()
        }
        var fingerprint = ContentFingerprint(document: value.document)
        fingerprint.write(value, excludingKey: excludedKey, excludingElement: excludedElement)
        fingerprint.hasher.update(fingerprint.buffer)
        return fingerprint.hasher.finalize()
    }

    /// The bytes of the excluded member (key to end of value) or element, when present.
    private static func excludedSpan(of value: JSONDocument.Value, key: String?, element: Int?) -> Range<Int>? {
        if let key, value.kind == .object {
            guard let member = value.members.last(where: { ExactKey.same($0.key, key) }) else { return nil }
            return member.keyValue.byteRange.lowerBound..<member.value.byteRange.upperBound
        }
        if let element, value.kind == .array {
            let elements = value.elements
            return element < elements.count ? elements[element].byteRange : nil
        }
        return nil
    }

    /// True when `text`, a valid JSON value, is already canonical: no whitespace between tokens,
    /// every object's keys in strictly ascending byte order (so none repeats), and every string
    /// escaped exactly as `JSONValue.writeQuoted` escapes. Keys with escapes are not compared here:
    /// such text is reported as not canonical and takes the walk.
    static func isCanonical(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        /// For each open container, the previous key of an object (nil before the first, or in an array).
        var previousKeys: [Range<Int>?] = []
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                previousKeys.append(nil)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                previousKeys.removeLast()
                index += 1
            case UInt8(ascii: "\""):
                let start = index + 1
                var end = start
                var hasEscape = false
                while text[end] != UInt8(ascii: "\"") {
                    if text[end] == UInt8(ascii: "\\") {
                        guard isCanonicalEscape(text, at: end) else { return false }
                        hasEscape = true
                        end += text[end + 1] == UInt8(ascii: "u") ? 6 : 2
                    } else {
                        end += 1
                    }
                }
                index = end + 1
                if index < count, text[index] == UInt8(ascii: ":") {
                    guard !hasEscape else { return false }
                    let key = start..<end
                    if let previous = previousKeys[previousKeys.count - 1] {
                        guard text[previous].lexicographicallyPrecedes(text[key]) else { return false }
                    }
                    previousKeys[previousKeys.count - 1] = key
                }
            case 0x20, 0x09, 0x0A, 0x0D:
                return false
            default:
                index += 1
            }
        }
        return true
    }

    /// The escapes `JSONValue.writeQuoted` writes: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and
    /// `\u00xx` (lowercase) for the other control characters.
    private static func isCanonicalEscape(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch text[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"), UInt8(ascii: "b"),
            UInt8(ascii: "f"):
            return true
        case UInt8(ascii: "u"):
            guard text[index + 2] == UInt8(ascii: "0"), text[index + 3] == UInt8(ascii: "0") else { return false }
            let hex = Array("0123456789abcdef".utf8)
            guard let high = hex.firstIndex(of: text[index + 4]), let low = hex.firstIndex(of: text[index + 5]) else {
                return false
            }
            let scalar = high << 4 | low
            return scalar < 0x20 && ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(scalar)
        default:
            return false
        }
    }

    private mutating func append(_ byte: UInt8) {
        buffer.append(byte)
        if buffer.count >= Self.flushSize { flush() }
    }

    private mutating func append(_ range: Range<Int>) {
        buffer.append(contentsOf: bytes[range])
        if buffer.count >= Self.flushSize { flush() }
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushSize { flush() }
    }

    private mutating func flush() {
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Recurses once per level: it only writes placement entries (`EntryReading`), which the
    /// contract's §2 rule 4 limits to 127 levels in a file that loads.
    private mutating func write(_ value: JSONDocument.Value, excludingKey: String? = nil, excludingElement: Int? = nil) {
        switch value.kind {
        case .null: append("null")
        case .true: append("true")
        case .false: append("false")
        case .number: append(value.byteRange)
        case .string: writeString(value)
        case .array:
            append(UInt8(ascii: "["))
            var first = true
            for (position, element) in value.elements.enumerated() where position != excludingElement {
                if !first { append(UInt8(ascii: ",")) }
                first = false
                write(element)
            }
            append(UInt8(ascii: "]"))
        case .object:
            // Keys in ascending byte order, a repeated key's occurrences in text order: the last of a run wins.
            var members = value.members.enumerated().map { position, member in
                (key: keyBytes(member.keyValue), position: position, member: member)
            }
            members.sort { lhs, rhs in
                lhs.key.elementsEqual(rhs.key) ? lhs.position < rhs.position : lhs.key.lexicographicallyPrecedes(rhs.key)
            }
            append(UInt8(ascii: "{"))
            var first = true
            for (index, member) in members.enumerated() {
                if index + 1 < members.count, members[index + 1].key.elementsEqual(member.key) { continue }
                if let excludingKey, member.key.elementsEqual(excludingKey.utf8) { continue }
                if !first { append(UInt8(ascii: ",")) }
                first = false
                writeString(member.member.keyValue)
                append(UInt8(ascii: ":"))
                write(member.member.value)
            }
            append(UInt8(ascii: "}"))
        }
    }

    /// A key's decoded bytes: the raw bytes between its quotes when it has no escape.
    private func keyBytes(_ key: JSONDocument.Value) -> ArraySlice<UInt8> {
        let range = key.byteRange
        let inner = bytes[(range.lowerBound + 1)..<(range.upperBound - 1)]
        return inner.contains(UInt8(ascii: "\\")) ? ArraySlice((key.string ?? "").utf8) : inner
    }

    /// A string without escapes is already canonical as written; one with escapes is decoded and
    /// written again.
    private mutating func writeString(_ value: JSONDocument.Value) {
        let range = value.byteRange
        let hasEscape = bytes.withUnsafeBufferPointer { buffer in
            buffer[range].contains(UInt8(ascii: "\\"))
        }
        if hasEscape {
            append(JSONValue.quoted(value.string ?? ""))
        } else {
            append(range)
        }
    }
}
