/// What the SDK's loader decides about a fallback file before it decodes any entry: the parsed
/// text, the byte-order mark, the array quirk, the §2 rejection, the top-level fields, and every
/// distinct placement key with where it is written.
///
/// `FallbackFile` is this and every entry decoded. A caller that needs each entry only once, in
/// turn, decodes them from here (`decodeEntry(at:)`), a chunk at a time, and lets each chunk's
/// typed model go before the next: `check` audits a 100,000-placement file that way, without the
/// model of every entry alive at once. Both paths decode an entry through the same
/// `EntryDecoding.record(at:)` (`decodeEntry(at:)` is one entry of it), so they cannot disagree.
///
/// ```swift
/// let topLevel = FallbackTopLevel(bytes: bytes)
/// for index in topLevel.entryHeads.indices { let record = topLevel.decodeEntry(at: index) … }
/// ```
public struct FallbackTopLevel: Sendable {
    /// One distinct key of `placements`, before its value is decoded.
    public struct EntryHead: Sendable {
        /// The map key that `getFunnel`/`getPaywall` looks up.
        public let key: String
        /// Every occurrence of the key, in text order; the last one is the one the SDK keeps.
        public var keyRefs: [SourceRef] { earlierKeyRefs.isEmpty ? [lastKeyRef] : earlierKeyRefs + [lastKeyRef] }
        /// The occurrences before the last, in text order: empty, with nothing allocated, for a key
        /// written once, as nearly every key is (`entryHeads(of:)` is one thread's work).
        public internal(set) var earlierKeyRefs: [SourceRef] = []
        /// The last occurrence: the one the SDK keeps.
        public fileprivate(set) var lastKeyRef: SourceRef
        /// How many times the key is written in `placements` (`keyRefs.count`).
        public var keyCount: Int { earlierKeyRefs.count + 1 }
        /// The value of the last occurrence: the only one the SDK decodes.
        public fileprivate(set) var value: SourceRef
    }

    /// The parsed text (after a stripped byte-order mark, if any).
    public let document: JSONDocument
    /// Why the SDK throws on this file; nil when it loads.
    public let rejection: FallbackRejection?
    /// The text started with a byte-order mark (U+FEFF).
    public let hasByteOrderMark: Bool
    /// The top level used the array quirk `[formatVersion, placements]`.
    public let usesArrayTopLevel: Bool
    /// The value the SDK reads as `formatVersion`.
    public let formatVersion: JSONDocument.Value?
    /// The `placements` object, when present.
    public let placements: JSONDocument.Value?
    /// The last `generatedAt` member of a top-level object (the loader ignores it).
    public let generatedAt: JSONDocument.Value?
    /// The last `projectId` member of a top-level object (the loader ignores it).
    public let projectId: JSONDocument.Value?
    /// Every distinct placement key in order of first appearance; empty when the file is rejected.
    /// Entry `i` of a `FallbackFile` is `decodeEntry(at: i)`.
    public let entryHeads: [EntryHead]
    /// Each key of `entryHeads` with its index, by the key's exact bytes: made while the heads are
    /// (`entryHeads(of:)`) and asked by `entryIndex(forKey:)`.
    private let headOfKey: Set<HeadOfKey>

    /// How many entries a chunk of the parallel decode holds.
    public static let decodeChunkSize = 64

    /// Reads `bytes` as the SDK's string-based loaders do, up to the entries. With
    /// `strippingByteOrderMark`, a leading BOM is removed first, as Swift's file-URL convenience does.
    public init(bytes: [UInt8], strippingByteOrderMark: Bool = false) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        hasByteOrderMark = bytes.starts(with: bom)
        let document = JSONDocument(bytes: hasByteOrderMark ? Array(bytes.dropFirst(3)) : bytes, acceptingLoneSurrogates: true)
        self.document = document

        var reading = TopLevelReading(document: document)
        reading.read()
        usesArrayTopLevel = reading.isArray
        formatVersion = reading.formatVersion
        placements = reading.placements
        generatedAt = reading.generatedAt
        projectId = reading.projectId

        var rejection = reading.rejection
        if hasByteOrderMark, !strippingByteOrderMark {
            rejection = FallbackRejection(
                rule: .byteOrderMark, detail: "expected value", offset: 0, position: .init(line: 1, column: 1), pointer: nil)
        } else if let error = document.syntaxError, error.reason == .invalidUTF8 {
            rejection = FallbackRejection(rule: .invalidUTF8, document: document, detail: error.message, offset: error.offset)
        }
        if rejection == nil, let version = reading.formatVersion, !FallbackFile.isVersionOne(version) {
            rejection = FallbackRejection(
                rule: .unsupportedFormatVersion, detail: FallbackFile.serdeText(version), offset: version.byteRange.lowerBound,
                position: version.position, pointer: version.pointer)
        }
        self.rejection = rejection
        (entryHeads, headOfKey) = rejection == nil ? Self.entryHeads(of: reading.placements) : ([], [])
    }

    /// Reads UTF-8 text.
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// The distinct keys of `placements` in order of first appearance, each with every occurrence
    /// and the value of the last, and the index of the keys (which finds the repeats).
    ///
    /// It runs on one thread between the parse and the parallel decode, so each key costs one
    /// decoded string and one hash-table lookup, read from the nodes without a `Value` per member,
    /// and no array of occurrences unless the key repeats.
    private static func entryHeads(of placements: JSONDocument.Value?) -> (heads: [EntryHead], index: Set<HeadOfKey>) {
        guard let placements, placements.kind == .object else { return ([], []) }
        let document = placements.document
        let nodes = document.nodes
        var heads: [EntryHead] = []
        heads.reserveCapacity(placements.count)
        // Keys are distinct when their bytes differ (not Swift's canonical equivalence).
        var headOfKey = Set<HeadOfKey>(minimumCapacity: placements.count)
        // A key the text broke off after has no value: the walk stops before it, as `members` does.
        var children = nodes.children(of: placements.index)
        while let child = children.next(in: nodes), let keyNode = child.key {
            let key = document.string(ofNode: keyNode) ?? ""
            let keyRef = SourceRef(node: keyNode)
            let value = SourceRef(node: child.value)
            let head = headOfKey.insert(HeadOfKey(key: ExactKey(key), head: heads.count)).memberAfterInsert.head
            if head < heads.count {
                heads[head].earlierKeyRefs.append(heads[head].lastKeyRef)
                heads[head].lastKeyRef = keyRef
                heads[head].value = value
            } else {
                heads.append(EntryHead(key: key, lastKeyRef: keyRef, value: value))
            }
        }
        // Kept as long as the heads: made for every member, so when repeats are most of them
        // (one key written a million times) it is made again at the size of the distinct keys.
        if heads.count < placements.count / 2 {
            var distinct = Set<HeadOfKey>(minimumCapacity: heads.count)
            for head in headOfKey { distinct.insert(head) }
            headOfKey = distinct
        }
        return (heads, headOfKey)
    }

    /// A placement key and the index of its head in `entryHeads`, equal and hashed by the key
    /// alone: one `Set.insert` finds the head of a key seen before, or adds the next index.
    private struct HeadOfKey: Hashable, Sendable {
        let key: ExactKey
        let head: Int

        static func == (lhs: HeadOfKey, rhs: HeadOfKey) -> Bool { lhs.key == rhs.key }
        func hash(into hasher: inout Hasher) { key.hash(into: &hasher) }
    }

    /// The index in `entryHeads` of the placement key `key`, compared as the SDK's map compares
    /// keys: by their UTF-8 bytes, so `é` and `e` + U+0301 are two keys. Nil when `placements` has
    /// no such key, and for a rejected file (it has no heads). `decodeEntry(at:)` of the index
    /// decodes that entry alone, as a whole-file load decodes it among the rest.
    ///
    /// One hash-table lookup in the index the heads were made with, which `resolve`, the audit's
    /// `key-mismatch` and the site's pages ask.
    public func entryIndex(forKey key: String) -> Int? {
        headOfKey.firstIndex(of: HeadOfKey(key: ExactKey(key), head: -1)).map { headOfKey[$0].head }
    }

    /// The entry of `entryHeads[index]` as the SDK decodes it: only the last occurrence of its key
    /// reaches the decoder. Safe to call from several threads at once.
    public func decodeEntry(at index: Int) -> EntryRecord {
        var decoding = EntryDecoding(self)
        return decoding.record(at: index)
    }

    /// Decodes entries of one top level one after another on one thread, with one decoder: one
    /// string cache leased from the document for them all, not one per entry (`decodeEntry(at:)`
    /// of each index gives the same records). A chunk of the parallel decode, or of `check`, makes one.
    package struct EntryDecoding {
        private let topLevel: FallbackTopLevel
        /// Made at the first entry decoded.
        private var decoder: EntryDecoder?

        package init(_ topLevel: FallbackTopLevel) {
            self.topLevel = topLevel
        }

        /// The record of `topLevel.entryHeads[index]`, as `decodeEntry(at:)` makes it.
        package mutating func record(at index: Int) -> EntryRecord {
            let head = topLevel.entryHeads[index]
            var decoder = decoder ?? EntryDecoder(document: topLevel.document)
            self.decoder = nil
            decoder.bringIntoCache(head.value.node)
            let outcome: EntryRecord.Outcome
            do throws(DecodeFailure) {
                outcome = .loaded(try decoder.entry(head.value.node))
            } catch {
                outcome = .skipped(error)
            }
            let record = EntryRecord(
                head: head, outcome: outcome, shapedArrayForms: decoder.takeArrayForms(), duplicateFields: decoder.takeDuplicateFields())
            self.decoder = decoder
            return record
        }
    }

    /// The loader's outcome in words, given how many of `entryHeads` load and how many it skips:
    /// `the SDK loads 5 of 6 entries; 1 skipped`, or `the SDK rejects this file (§2 rule 10: …)`.
    public func verdict(loadedCount: Int, skippedCount: Int) -> String {
        if let rejection {
            return "the SDK rejects this file (\(rejection.rule.section): \(rejection.rule.summary))"
        }
        let total = loadedCount + skippedCount
        var text = "the SDK loads \(loadedCount) of \(total) \(total == 1 ? "entry" : "entries")"
        if skippedCount > 0 { text += "; \(skippedCount) skipped" }
        return text
    }

    /// Where the value at `ref` sits: its JSON Pointer, line and column.
    public func location(of ref: SourceRef) -> FallbackFile.Location {
        let value = document.value(at: ref.node)
        let position = value.position
        return FallbackFile.Location(pointer: value.pointer, line: position.line, column: position.column)
    }

    /// `location(of:)`, the pointer spelled by `pointers` (over this document).
    package func location(of ref: SourceRef, pointers: inout JSONDocument.PointerSpeller) -> FallbackFile.Location {
        let position = document.value(at: ref.node).position
        return FallbackFile.Location(pointer: pointers.jsonPointer(ofNode: ref.node), line: position.line, column: position.column)
    }

    /// The node of `field` in a decoded value, if the field is written: the last member of that name
    /// in an object (the one the decoder read), or the element at the field's position in an array form.
    public func fieldRef<Value: SourceBacked>(_ field: Value.Field, in value: Value) -> SourceRef? {
        document.value(at: value.source.node).field(field).map { SourceRef(node: $0.index) }
    }
}
