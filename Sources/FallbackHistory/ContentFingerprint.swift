import FallbackAudit
import RovenueFallback

/// SHA-256 of a value's canonical text: the same digest as
/// `SHA256Digest(of: Array(value.jsonText(.canonical).utf8))`.
///
/// Canonical means compact, object keys in ascending byte order with duplicates collapsed to the
/// last, strings escaped as `JSONValue.writeQuoted` escapes them, and numbers as the SDK reads them
/// (`JSONValue.WritingOptions.numbersAsRead`); so whitespace, key order and a number's spelling
/// never change a fingerprint, and any change to a value the SDK reads does: two values have the
/// same fingerprint exactly when they have the same content as `JSONDocument.Value.hasSameContent(as:)`
/// defines it (the definition the diff uses too). Text already written
/// so (every dashboard export) is hashed as it stands; other text is written again by the one
/// JSON writer.
enum ContentFingerprint {
    /// The digest of `value`, leaving out the member `excludedKey` of a top-level object, or the
    /// element at `excludedElement` of a top-level array.
    static func digest(
        of value: JSONDocument.Value, excludingKey excludedKey: String? = nil, excludingElement excludedElement: Int? = nil
    ) -> SHA256Digest {
        guard value.isWrittenCanonically else {
            let text = value.jsonText(.canonical, omittingMember: excludedKey, omittingElement: excludedElement)
            return SHA256Digest(of: text.utf8)
        }
        // Written as the writer would write it: hash the text, less the excluded member and a comma.
        let bytes = value.document.bytes
        let range = value.byteRange
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

    /// The digest of `value` without its `field`: the member of that name of an object, the
    /// element at the field's position of an array form, nothing of any other value.
    static func digest<Field: SchemaField>(of value: JSONDocument.Value, excluding field: Field) -> SHA256Digest {
        switch value.kind {
        case .object: digest(of: value, excludingKey: field.rawValue)
        case .array: digest(of: value, excludingElement: field.position)
        default: digest(of: value)
        }
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
}
