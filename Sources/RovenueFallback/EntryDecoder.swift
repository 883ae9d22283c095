/// Why an entry failed to decode: the place and what was expected there.
public struct DecodeFailure: Error, Sendable, Hashable {
    /// The value that did not fit (the containing object for a missing field).
    public let source: SourceRef
    /// What was expected and what was found, e.g. `expected an integer, found the string "5"`.
    public let expectation: String
}

/// Decodes placement entries from a document against the typed shape of the contract's §4.
///
/// Works straight on the document's nodes; duplicate keys resolve to their last occurrence, and
/// every object written as an array (the quirk) or with a repeated key is recorded for reports.
struct EntryDecoder {
    let document: JSONDocument
    let nodes: JSONDocument.Nodes
    let bytes: [UInt8]
    /// Objects written as arrays of their fields, with the struct each was read as.
    var arrayForms: [ArrayForm] = []
    /// Objects whose known fields repeat: the object, the field, and the value nodes in text order.
    var duplicateFields: [DuplicateField] = []
    /// The strings this decoder makes, shared with the decoders this thread ran before it.
    let strings: JSONDocument.StringCacheLease

    init(document: JSONDocument) {
        self.document = document
        self.nodes = document.storage.nodes
        self.bytes = document.storage.bytes
        self.strings = document.storage.stringCaches.lease()
    }

    typealias Failure = DecodeFailure

    /// The array forms met since the last call, leaving none: for the record of the entry just
    /// decoded, when one decoder decodes many entries in turn (`FallbackTopLevel.EntryDecoding`).
    mutating func takeArrayForms() -> [ArrayForm] {
        defer { arrayForms = [] }
        return arrayForms
    }

    /// The duplicate fields met since the last call, leaving none.
    mutating func takeDuplicateFields() -> [DuplicateField] {
        defer { duplicateFields = [] }
        return duplicateFields
    }

    /// Brings the value at `index`, its nodes and its text, into the cache before it is decoded
    /// (`JSONDocument.wordsOfCacheLines(inSubtree:)`): the decode reads an entry long after the
    /// parse wrote it, a node at a time, and would stall on each line it misses in turn.
    func bringIntoCache(_ index: Int) {
        // Kept where the compiler cannot prove it unread, or it would drop the reads.
        strings.cache.readsKept = document.wordsOfCacheLines(inSubtree: index)
    }

    // MARK: Primitive readers

    private func node(_ index: Int) -> JSONDocument.Node { nodes[index] }

    private func kind(_ index: Int) -> JSONDocument.Kind { nodes[index].kind }

    func failure(_ index: Int, _ expected: String) -> Failure {
        Failure(source: SourceRef(node: index), expectation: "expected \(expected), found \(describe(index))")
    }

    /// How a message names the value at `index`.
    func describe(_ index: Int) -> String {
        let value = document.value(at: index)
        switch value.kind {
        case .null: return "null"
        case .true, .false: return "the boolean \(value.kind == .true)"
        case .number: return "the number \(value.number?.text ?? "")"
        case .string:
            var text = value.string ?? ""
            if text.count > 60 { text = String(text.prefix(60)) + "…" }
            return "the string \(JSONValue.quoted(text))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func string(_ index: Int) throws(Failure) -> String {
        try checkString(index)
        return decodedString(index)
    }

    /// Fails as `string(_:)` does, without making the string (`offering(_:)`).
    @inline(__always)
    func checkString(_ index: Int) throws(Failure) {
        guard kind(index) == .string else { throw failure(index, "a string") }
    }

    /// The string node at `index`, decoded. A string without escapes (nearly all of them) is made
    /// straight from the document's bytes, or is the equal string made before (`StringCache`); one
    /// with escapes is decoded by the document.
    @inline(__always)
    func decodedString(_ index: Int) -> String {
        let node = nodes[index]
        guard node.flags & JSONDocument.hasEscapes == 0 else { return document.decodeString(at: index) }
        let start = Int(node.start) + 1
        let end = Int(node.end) - 1
        let cache = strings.cache
        return bytes.withUnsafeBufferPointer { buffer in cache.string(start, end, in: buffer) }
    }

    func int(_ index: Int) throws(Failure) -> Int64 {
        let node = node(index)
        guard node.kind == .number else { throw failure(index, "an integer") }
        let reading = numberReading(node)
        if let value = reading?.int64 { return value }
        let isIntegerToken = node.flags & JSONDocument.integerToken != 0
        throw Failure(
            source: SourceRef(node: index),
            expectation: "expected an integer, found \(describe(index))\(EntryDecoder.whyNotAnInt(reading, isIntegerToken: isIntegerToken))")
    }

    /// Why a number token is not an `int` (§4), in words a user can act on: ` (…)`.
    static func whyNotAnInt(_ reading: JSONNumber.Reading?, isIntegerToken: Bool) -> String {
        switch reading {
        case .some(.float(let value)) where isIntegerToken && value == 0:
            " (the SDK's JSON parser reads -0 as the float -0.0, not an integer: write 0)"
        case .some(.unsignedInteger):
            " (beyond the signed 64-bit range of an integer)"
        case .some(.float) where isIntegerToken:
            " (beyond the signed 64-bit range of an integer)"
        case .some(.float):
            " (a fraction or an exponent makes it a float to the SDK, even when it is whole)"
        default:
            ""
        }
    }

    /// The SDK's reading of a number node's token (§2.1), straight from the bytes.
    private func numberReading(_ node: JSONDocument.Node) -> JSONNumber.Reading? {
        bytes.withUnsafeBufferPointer { buffer in
            JSONNumber.reading(of: UnsafeBufferPointer(rebasing: buffer[Int(node.start)..<Int(node.end)]))
        }
    }

    func number(_ index: Int) throws(Failure) -> (value: Double, text: String) {
        let node = node(index)
        guard node.kind == .number else { throw failure(index, "a number") }
        let text = document.text(of: Int(node.start)..<Int(node.end))
        // Out of range cannot happen here: such a number inside placements rejects the whole file.
        return (numberReading(node)?.double ?? 0, text)
    }

    func bool(_ index: Int) throws(Failure) -> Bool {
        switch kind(index) {
        case .true: return true
        case .false: return false
        default: throw failure(index, "a boolean")
        }
    }

    func any(_ index: Int) -> JSONDocument.Value { document.value(at: index) }

    mutating func array<T>(_ index: Int, _ element: (inout EntryDecoder, Int) throws(Failure) -> T) throws(Failure) -> [T] {
        try checkArray(index)
        var result: [T] = []
        result.reserveCapacity(Int(node(index).count))
        var children = nodes.children(of: index)
        while let child = children.next(in: nodes) { result.append(try element(&self, child.value)) }
        return result
    }

    /// Fails as `array(_:_:)` does on a node that is not an array, without reading its elements
    /// (`offering(_:)` walks the packages itself).
    @inline(__always)
    func checkArray(_ index: Int) throws(Failure) {
        guard kind(index) == .array else { throw failure(index, "an array") }
    }

    mutating func map<T>(_ index: Int, _ element: (inout EntryDecoder, Int) throws(Failure) -> T) throws(Failure) -> OrderedMap<T> {
        guard kind(index) == .object else { throw failure(index, "an object") }
        let members = members(index)
        var values: [T] = []
        values.reserveCapacity(members.count)
        for value in members.values {
            values.append(try element(&self, value))
        }
        return OrderedMap(keysOf: members, values: values)
    }

    /// The members of the object at `index` as the SDK's map holds them: a repeated key keeps only
    /// its last value (at the place of its first), and the values it replaced are never decoded.
    /// The map's values are the value nodes; its keys are the ones the decoded map takes as they are.
    ///
    /// A large object's keys are gathered first and indexed in blocks (`OrderedMap(keys:values:)`).
    func members(_ index: Int) -> OrderedMap<Int> {
        let count = Int(node(index).count)
        var children = nodes.children(of: index)
        guard count > OrderedMap<Int>.linearLimit else {
            var members = OrderedMap<Int>()
            members.reserveCapacity(count)
            while let child = children.next(in: nodes), let key = child.key { members.set(child.value, for: decodedString(key)) }
            return members
        }
        var keys: [String] = []
        var values: [Int] = []
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        while let child = children.next(in: nodes), let key = child.key {
            keys.append(decodedString(key))
            values.append(child.value)
        }
        return OrderedMap(keys: keys, values: values)
    }

    // MARK: Structs

    /// Room for the fields of the largest struct of §4 (`Page`'s 20; `FieldTable` checks it).
    typealias Slots = SIMD32<Int32>

    /// The value nodes of a struct's fields, read from an object or from the array quirk.
    struct Fields<Field: SchemaField> {
        /// Per field position: 0 when absent, `node + 1` for a value, `-(node + 1)` for an explicit `null`.
        /// A vector, not an array: read for every object of every entry, it stays off the heap.
        var slots: Slots
        let container: Int

        /// The value node of an optional field, nil when absent or `null`.
        subscript(_ field: Field) -> Int? {
            assert(!field.isRequired, "\(field) is required: read it with required(_:)")
            let slot = slots[field.position]
            return slot > 0 ? Int(slot) - 1 : nil
        }

        /// The value node of a required field; `null` and a missing field fail with different messages.
        func required(_ field: Field) throws(Failure) -> Int {
            assert(field.presence == .required, "\(field) is not required")
            let slot = slots[field.position]
            if slot > 0 { return Int(slot) - 1 }
            if slot < 0 {
                throw Failure(
                    source: SourceRef(node: Int(-slot) - 1),
                    expectation: "expected a value for required field `\(field.rawValue)`, found null")
            }
            throw Failure(source: SourceRef(node: container), expectation: "missing required field `\(field.rawValue)`")
        }

        /// The value node of a required field that may be `null` (the `null` node itself when it is).
        func requiredAllowingNull(_ field: Field) throws(Failure) -> Int {
            assert(field.presence == .requiredAllowingNull, "\(field) does not allow null")
            let slot = slots[field.position]
            if slot != 0 { return Int(slot.magnitude) - 1 }
            throw Failure(source: SourceRef(node: container), expectation: "missing required field `\(field.rawValue)`")
        }
    }

    /// Reads the fields of `Value`: from an object (the last of a repeated key wins) or from the
    /// array quirk (at most one element per field, and none of the fields without a default left off).
    ///
    /// Inlined, so that the slots are written where the caller reads them, not returned through a copy.
    @inline(__always)
    mutating func fields<Value: SourceBacked>(_ index: Int, of _: Value.Type) throws(Failure) -> Fields<Value.Field> {
        var fields = Fields<Value.Field>(slots: .zero, container: index)
        // The slots are read and written in place: a vector lane chosen at run time is otherwise
        // read and written by copying all 128 bytes of the vector through the stack.
        // The table is read here, where the struct is known: `shape.table` in `readFields` would
        // retain and release it (one object both threads share) on every call.
        let table = Value.shape.table
        let failure = withUnsafeMutableBytes(of: &fields.slots) { slots in readFields(index, of: Value.shape, table: table, into: slots) }
        if let failure { throw failure }
        return fields
    }

    /// `fields(_:of:)` for the struct `shape`, whose table is `table`, into the bytes of
    /// `Fields.slots` (zero): nil, or why the value at `index` cannot be read as one.
    mutating func readFields(_ index: Int, of shape: SchemaShape, table: FieldTable, into slots: UnsafeMutableRawBufferPointer) -> Failure? {
        let fieldCount = table.names.count
        let node = nodes[index]
        switch node.kind {
        case .object:
            let count = Int(node.count)
            if !readMembers(of: index, count: count, table: table, into: slots) {
                slots.initializeMemory(as: UInt8.self, repeating: 0)
                readMembersRecordingRepeats(of: index, table: table, into: slots)
            }
        case .array:
            let count = Int(node.count)
            if count > fieldCount {
                return Failure(
                    source: SourceRef(node: index),
                    expectation: "expected an array of at most \(fieldCount) fields (\(table.names.joined(separator: ", "))), found \(count) elements")
            }
            let minimum = table.minimumArrayCount
            if count < minimum {
                return Failure(
                    source: SourceRef(node: index),
                    expectation: "expected an array of at least \(minimum) fields, found \(count) elements: `\(table.names[minimum - 1])` has no default, so the array cannot leave it off")
            }
            arrayForms.append(ArrayForm(source: SourceRef(node: index), shape: shape, elementCount: count))
            var children = nodes.children(of: index)
            while let child = children.next(in: nodes) {
                let slot = nodes[child.value].kind == .null ? -Int32(child.value + 1) : Int32(child.value + 1)
                slots.storeBytes(of: slot, toByteOffset: child.position * MemoryLayout<Int32>.stride, as: Int32.self)
            }
        default:
            return failure(index, "an object")
        }
        return nil
    }

    /// Reads the `count` members of the object at `index` into `slots` (as `Fields.slots` holds
    /// them), a field at a time, straight from the packed nodes and the text; false, with `slots`
    /// partly written, when a known field repeats, and the object is to be read again by
    /// `readMembersRecordingRepeats`, which records the repeats (`duplicateFields`). Both give the
    /// same slots: this is the path nearly every object takes.
    func readMembers(of index: Int, count: Int, table: FieldTable, into slots: UnsafeMutableRawBufferPointer) -> Bool {
        let nodeBase = nodes.buffer.base
        let nodeCount = nodes.buffer.count
        return bytes.withUnsafeBufferPointer { text in
            // `JSONDocument.Children`'s walk, unrolled on the packed block: this loop reads nearly
            // every member of the file, and each key's packed words are needed here anyway. It only
            // reads files that load, whole texts, so no key lacks its value (the precondition).
            // Indexes and offsets fit in 31 bits (`PackedNode`): the arithmetic below cannot overflow.
            var child = index &+ 1
            for _ in 0..<count {
                // A member is its key node and the value node after it, both in the block.
                precondition(UInt(bitPattern: child) < UInt(bitPattern: nodeCount &- 1), "node index out of range")
                let key = nodeBase[child]
                let value = nodeBase[child &+ 1]
                let position: Int?
                if key.word0 & JSONDocument.PackedNode.top == 0 {
                    // A key without escapes (a key's flag A): its bytes are its name.
                    let start = Int(key.word0) &+ 1
                    position = table.position(ofKeyAt: start, count: Int(key.end) &- 1 &- start, in: text)
                } else {
                    position = fieldPosition(key: child, table: table)
                }
                if let position {
                    let offset = position &* MemoryLayout<Int32>.stride
                    if slots.load(fromByteOffset: offset, as: Int32.self) != 0 { return false }
                    let slot = Int32(truncatingIfNeeded: child &+ 2)
                    slots.storeBytes(of: value.code == 0 ? -slot : slot, toByteOffset: offset, as: Int32.self)
                }
                child = value.isContainer ? Int(value.link) : child &+ 2
            }
            return true
        }
    }

    /// `readMembers` node by node through `Nodes`, recording each known field that repeats.
    mutating func readMembersRecordingRepeats(of index: Int, table: FieldTable, into slots: UnsafeMutableRawBufferPointer) {
        var children = nodes.children(of: index)
        while let child = children.next(in: nodes), let key = child.key {
            if let field = fieldPosition(key: key, table: table) {
                let offset = field * MemoryLayout<Int32>.stride
                if slots.load(fromByteOffset: offset, as: Int32.self) != 0 {
                    recordDuplicate(object: index, field: table.names[field], value: child.value)
                }
                let value = nodes[child.value].kind == .null ? -Int32(child.value + 1) : Int32(child.value + 1)
                slots.storeBytes(of: value, toByteOffset: offset, as: Int32.self)
            }
        }
    }

    private mutating func recordDuplicate(object: Int, field: String, value: Int) {
        let ref = SourceRef(node: object)
        // This object's duplicates are the newest records: its children are decoded after its fields are read.
        var position = duplicateFields.count - 1
        while position >= 0, duplicateFields[position].object == ref {
            if duplicateFields[position].field == field {
                duplicateFields[position].values.append(SourceRef(node: value))
                return
            }
            position -= 1
        }
        let earlier = document.value(at: object).members.filter { ExactKey.same($0.key, field) && $0.value.index < value }
            .map { SourceRef(node: $0.value.index) }
        duplicateFields.append(DuplicateField(object: ref, field: field, values: earlier + [SourceRef(node: value)]))
    }

    /// The position of the field the key at `key` names, nil for a key the struct does not know.
    @inline(__always)
    func fieldPosition(key: Int, table: FieldTable) -> Int? {
        let keyNode = nodes[key]
        if keyNode.flags & JSONDocument.hasEscapes != 0 {
            let decoded = Array(document.decodeString(at: key).utf8)
            return table.bytes.firstIndex(of: decoded)
        }
        let start = Int(keyNode.start) + 1
        let length = Int(keyNode.end) - 1 - start
        return bytes.withUnsafeBufferPointer { bytes in table.position(ofKeyAt: start, count: length, in: bytes) }
    }
}

/// A known field written more than once in one object; the SDK keeps the last value.
public struct DuplicateField: Sendable, Hashable {
    /// The object the field is repeated in.
    public let object: SourceRef
    /// The field's JSON name (its `Field` raw value).
    public let field: String
    /// Every value given for the field, in text order; the last one is kept.
    public var values: [SourceRef]
}

// MARK: - The typed shape

extension EntryDecoder {
    // Field readers that take the slot directly: a method passed as a closure (`optional(slot, text)`)
    // copies the decoder, and so retains the document's buffers, on every field of every entry.
    @inline(__always)
    func optionalInt(_ slot: Int?) throws(Failure) -> Int64? {
        guard let slot else { return nil }
        return try int(slot)
    }

    @inline(__always)
    func optionalValue(_ slot: Int?) -> JSONDocument.Value? {
        guard let slot else { return nil }
        return any(slot)
    }

    @inline(__always)
    func optionalString(_ slot: Int?) throws(Failure) -> String? {
        guard let slot else { return nil }
        return try string(slot)
    }

    @inline(__always)
    mutating func optionalText(_ slot: Int?) throws(Failure) -> LocalizedText? {
        guard let slot else { return nil }
        return try text(slot)
    }

    @inline(__always)
    mutating func optionalTextList(_ slot: Int?) throws(Failure) -> LocalizedTextList? {
        guard let slot else { return nil }
        return try textList(slot)
    }

    @inline(__always)
    func optional<T>(_ slot: Int?, _ read: (Int) throws(Failure) -> T) throws(Failure) -> T? {
        guard let slot else { return nil }
        return try read(slot)
    }

    @inline(__always)
    mutating func optional<T>(_ slot: Int?, _ read: (inout EntryDecoder, Int) throws(Failure) -> T) throws(Failure) -> T? {
        guard let slot else { return nil }
        return try read(&self, slot)
    }

    mutating func entry(_ index: Int) throws(Failure) -> FallbackEntry {
        let fields = try fields(index, of: FallbackEntry.self)
        return FallbackEntry(
            placement: try optional(fields[.placement]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.placement(slot) },
            paywall: try optional(fields[.paywall]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.paywall(slot) },
            experiment: try optional(fields[.experiment]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.experiment(slot) },
            funnel: try optional(fields[.funnel]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.funnel(slot) },
            source: SourceRef(node: index))
    }

    mutating func placement(_ index: Int) throws(Failure) -> Placement {
        let fields = try fields(index, of: Placement.self)
        return Placement(
            identifier: try string(fields.required(.identifier)), revision: try int(fields.required(.revision)), source: SourceRef(node: index))
    }

    mutating func experiment(_ index: Int) throws(Failure) -> Experiment {
        let fields = try fields(index, of: Experiment.self)
        return Experiment(
            id: try string(fields.required(.id)), key: try string(fields.required(.key)),
            variants: try array(fields.required(.variants)) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.variant(slot) },
            source: SourceRef(node: index))
    }

    mutating func variant(_ index: Int) throws(Failure) -> Variant {
        let fields = try fields(index, of: Variant.self)
        let variantId = try string(fields.required(.variantId))
        let weight = try number(fields.required(.weight))
        let paywall = try optional(fields[.paywall]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.paywall(slot) }
        let funnel = try optional(fields[.funnel]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.funnel(slot) }
        if paywall == nil, funnel == nil {
            throw Failure(source: SourceRef(node: index), expectation: "expected a variant with a funnel or a paywall, found neither")
        }
        return Variant(
            variantId: variantId, weight: weight.value, weightText: weight.text, paywall: paywall, funnel: funnel,
            source: SourceRef(node: index))
    }

    mutating func paywall(_ index: Int) throws(Failure) -> Paywall {
        let fields = try fields(index, of: Paywall.self)
        return Paywall(
            id: try string(fields.required(.id)), identifier: try string(fields.required(.identifier)), name: try string(fields.required(.name)),
            configFormatVersion: try int(fields.required(.configFormatVersion)),
            remoteConfig: try optional(fields[.remoteConfig]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.remoteConfig(slot) },
            builderConfig: optionalValue(fields[.builderConfig]),
            offering: try optional(fields[.offering]) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.offering(slot) },
            source: SourceRef(node: index))
    }

    mutating func remoteConfig(_ index: Int) throws(Failure) -> RemoteConfig {
        let fields = try fields(index, of: RemoteConfig.self)
        let locale = try string(fields.required(.locale))
        // `data` is required but may be null: only a missing field fails.
        return RemoteConfig(locale: locale, data: any(try fields.requiredAllowingNull(.data)), source: SourceRef(node: index))
    }

    /// Checks the offering at `index` as `Offering`'s properties read it, failing where and as
    /// they would, and records its array forms and repeated fields, without making its strings and
    /// arrays (`Offering` reads them when asked). Keep it in step with `package(_:)` and
    /// `storeIds(_:)`, which read what this checks, field for field and in the same order.
    mutating func offering(_ index: Int) throws(Failure) -> Offering {
        let fields = try fields(index, of: Offering.self)
        try checkString(fields.required(.identifier))
        _ = try bool(fields.required(.isDefault))
        let packages = try fields.required(.packages)
        try checkArray(packages)
        var children = nodes.children(of: packages)
        while let child = children.next(in: nodes) { try checkPackage(child.value) }
        return Offering(checked: document.value(at: index))
    }

    /// Checks the package at `index` as `package(_:)` reads it.
    private mutating func checkPackage(_ index: Int) throws(Failure) {
        let fields = try fields(index, of: Package.self)
        try checkString(fields.required(.packageIdentifier))
        try checkString(fields.required(.identifier))
        try checkString(fields.required(.type))
        try checkString(fields.required(.displayName))
        let storeIds = try self.fields(fields.required(.storeIds), of: StoreIds.self)
        try checkOptionalString(storeIds[.apple])
        try checkOptionalString(storeIds[.google])
        try checkOptionalString(fields[.androidBasePlanId])
        try checkOptionalString(fields[.androidOfferId])
    }

    /// Fails as `optionalString(_:)` does, without making the string.
    private func checkOptionalString(_ slot: Int?) throws(Failure) {
        guard let slot else { return }
        try checkString(slot)
    }

    mutating func package(_ index: Int) throws(Failure) -> Package {
        let fields = try fields(index, of: Package.self)
        return Package(
            packageIdentifier: try string(fields.required(.packageIdentifier)), identifier: try string(fields.required(.identifier)),
            type: try string(fields.required(.type)), displayName: try string(fields.required(.displayName)),
            storeIds: try storeIds(fields.required(.storeIds)),
            androidBasePlanId: try optionalString(fields[.androidBasePlanId]), androidOfferId: try optionalString(fields[.androidOfferId]),
            source: SourceRef(node: index))
    }

    mutating func storeIds(_ index: Int) throws(Failure) -> StoreIds {
        let fields = try fields(index, of: StoreIds.self)
        return StoreIds(apple: try optionalString(fields[.apple]), google: try optionalString(fields[.google]), source: SourceRef(node: index))
    }

    mutating func funnel(_ index: Int) throws(Failure) -> Funnel {
        let fields = try fields(index, of: Funnel.self)
        return Funnel(
            id: try string(fields.required(.id)), slug: try string(fields.required(.slug)),
            name: try optionalString(fields[.name]), versionId: try optionalString(fields[.versionId]),
            versionNo: try optionalInt(fields[.versionNo]), defaultLocale: try optionalString(fields[.defaultLocale]),
            locales: try optional(fields[.locales]) { (decoder: inout EntryDecoder, slot) throws(Failure) in
                try decoder.array(slot) { (decoder: inout EntryDecoder, element) throws(Failure) in try decoder.string(element) }
            },
            pages: try array(fields.required(.pages)) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.page(slot) },
            theme: optionalValue(fields[.theme]), settings: optionalValue(fields[.settings]),
            paywalls: try optional(fields[.paywalls]) { (decoder: inout EntryDecoder, slot) throws(Failure) in
                try decoder.map(slot) { (decoder: inout EntryDecoder, element) throws(Failure) in try decoder.paywall(element) }
            },
            source: SourceRef(node: index))
    }

    mutating func page(_ index: Int) throws(Failure) -> Page {
        let fields = try fields(index, of: Page.self)
        return Page(
            id: try string(fields.required(.id)), type: try string(fields.required(.type)),
            questionId: try optionalString(fields[.questionId]),
            title: try optionalText(fields[.title]), subtitle: try optionalText(fields[.subtitle]),
            body: try optionalText(fields[.body]), cta: try optionalText(fields[.cta]),
            headline: try optionalText(fields[.headline]), placeholder: try optionalText(fields[.placeholder]),
            suffix: try optionalText(fields[.suffix]), agreementLabel: try optionalText(fields[.agreementLabel]),
            benefits: try optionalTextList(fields[.benefits]), features: try optionalTextList(fields[.features]),
            steps: try optionalTextList(fields[.steps]),
            options: try optional(fields[.options]) { (decoder: inout EntryDecoder, slot) throws(Failure) in
                try decoder.array(slot) { (decoder: inout EntryDecoder, element) throws(Failure) in try decoder.option(element) }
            },
            paywallId: try optionalString(fields[.paywallId]),
            nextRules: try optional(fields[.nextRules]) { (decoder: inout EntryDecoder, slot) throws(Failure) in
                try decoder.array(slot) { (decoder: inout EntryDecoder, element) throws(Failure) in try decoder.nextRule(element) }
            },
            defaultNext: try optionalString(fields[.defaultNext]),
            source: SourceRef(node: index))
    }

    mutating func text(_ index: Int) throws(Failure) -> LocalizedText {
        switch kind(index) {
        case .string:
            return .plain(decodedString(index))
        case .object:
            // A text's map is made from its object's bytes alone: the same bytes read before give
            // the same text, shared (`StringCache.texts`).
            let node = nodes[index]
            let texts = strings.cache.texts
            let probe = bytes.withUnsafeBufferPointer { text in texts.probe(Int(node.start), Int(node.end), in: text) }
            if let remembered = probe.value { return remembered }
            let made = LocalizedText.localized(
                try localeMap(index) { (decoder: inout EntryDecoder, value) throws(Failure) in
                    guard decoder.kind(value) == .string else {
                        throw decoder.failure(value, "a string (a text is a string or an object of strings by locale)")
                    }
                    return decoder.decodedString(value)
                })
            texts.store(made, at: probe)
            return made
        default:
            throw failure(index, "a string or an object of strings by locale")
        }
    }

    /// The locale map at `index` as the SDK's map holds it: its distinct keys in the order of their
    /// first appearance, each with its value (the last of a repeated key) read by `value`, in that
    /// order. When the keys are exactly the previous locale map's, that map's keys are shared rather
    /// than built again, and the values are read straight from the members.
    ///
    /// The last map's keys are kept in the thread's `StringCache` (`RecentLocales`), so they are
    /// shared from entry to entry as well: an export's funnels nearly all declare the same locales.
    mutating func localeMap<T>(_ index: Int, _ value: (inout EntryDecoder, Int) throws(Failure) -> T) throws(Failure) -> OrderedMap<T> {
        var values: [T] = []
        let cache = strings.cache
        if hasRecentLocales(index, cache.recentLocales.written) {
            // The same keys without repeats: the values are the members' in text order.
            let count = cache.recentLocales.keys.count
            values.reserveCapacity(count)
            var children = nodes.children(of: index)
            while let child = children.next(in: nodes) { values.append(try value(&self, child.value)) }
        } else {
            let members = members(index)
            cache.recentLocales = JSONDocument.RecentLocales(keys: members, written: writtenLocaleKeys(of: index, distinct: members.count))
            let valueNodes = members.values
            values.reserveCapacity(valueNodes.count)
            for node in valueNodes {
                values.append(try value(&self, node))
            }
        }
        return OrderedMap(keysOf: cache.recentLocales.keys, values: values)
    }

    /// Where the keys of the object at `index`, whose map has `distinct` keys, are written, when
    /// each is written without escapes and none repeats (so their bytes are the map's keys);
    /// otherwise none, and the next map builds its own keys.
    private func writtenLocaleKeys(of index: Int, distinct: Int) -> [JSONDocument.RecentLocales.KeyBytes] {
        let count = Int(nodes[index].count)
        guard count == distinct else { return [] }
        var written: [JSONDocument.RecentLocales.KeyBytes] = []
        written.reserveCapacity(count)
        var children = nodes.children(of: index)
        while let child = children.next(in: nodes), let key = child.key {
            let keyNode = nodes[key]
            guard keyNode.flags & JSONDocument.hasEscapes == 0 else { return [] }
            written.append(.init(start: Int(keyNode.start) + 1, count: Int(keyNode.end) - Int(keyNode.start) - 2))
        }
        return written
    }

    /// True when the object at `index` has exactly the keys written at `written`, in the same
    /// order, each written without escapes.
    private func hasRecentLocales(_ index: Int, _ written: [JSONDocument.RecentLocales.KeyBytes]) -> Bool {
        let count = Int(nodes[index].count)
        guard count == written.count, count > 0 else { return false }
        return bytes.withUnsafeBufferPointer { text in
            written.withUnsafeBufferPointer { keys in
                var children = nodes.children(of: index)
                for key in keys {
                    guard let keyNodeIndex = children.next(in: nodes)?.key else { return false }
                    let keyNode = nodes[keyNodeIndex]
                    guard keyNode.flags & JSONDocument.hasEscapes == 0 else { return false }
                    let start = Int(keyNode.start) + 1
                    guard Int(keyNode.end) - 1 - start == key.count,
                        ExactKey.sameBytes(
                            UnsafeBufferPointer(rebasing: text[start..<(start + key.count)]),
                            UnsafeBufferPointer(rebasing: text[key.start..<(key.start + key.count)]))
                    else { return false }
                }
                return true
            }
        }
    }

    /// The array of strings at `array`, one string per element.
    func stringList(_ array: Int) throws(Failure) -> [String] {
        guard kind(array) == .array else { throw failure(array, "an array of strings") }
        let count = Int(nodes[array].count)
        var result: [String] = []
        result.reserveCapacity(count)
        var children = nodes.children(of: array)
        while let child = children.next(in: nodes) {
            guard kind(child.value) == .string else { throw failure(child.value, "a string") }
            result.append(decodedString(child.value))
        }
        return result
    }

    mutating func textList(_ index: Int) throws(Failure) -> LocalizedTextList {
        let made: LocalizedTextList
        let node = nodes[index]
        switch node.kind {
        case .array, .object:
            // Made from the value's bytes alone, as a text is (`StringCache.textLists`).
            let lists = strings.cache.textLists
            let probe = bytes.withUnsafeBufferPointer { text in lists.probe(Int(node.start), Int(node.end), in: text) }
            if let remembered = probe.value { return remembered }
            if node.kind == .array {
                made = .plain(try stringList(index))
            } else {
                made = .localized(try localeMap(index) { (decoder: inout EntryDecoder, value) throws(Failure) in try decoder.stringList(value) })
            }
            lists.store(made, at: probe)
        default:
            throw failure(index, "an array of strings or an object of string arrays by locale")
        }
        return made
    }

    mutating func option(_ index: Int) throws(Failure) -> PageOption {
        let fields = try fields(index, of: PageOption.self)
        return PageOption(
            label: try text(fields.required(.label)), value: try string(fields.required(.value)),
            imageUrl: try optionalString(fields[.imageUrl]), source: SourceRef(node: index))
    }

    mutating func nextRule(_ index: Int) throws(Failure) -> NextRule {
        let fields = try fields(index, of: NextRule.self)
        return NextRule(
            id: try string(fields.required(.id)), condition: try condition(fields.required(.condition)),
            goto: try string(fields.required(.goto)), source: SourceRef(node: index))
    }

    mutating func condition(_ index: Int) throws(Failure) -> Condition {
        let fields = try fields(index, of: Condition.self)
        return Condition(
            op: try enumeration(fields.required(.op), Condition.Operator.self),
            clauses: try array(fields.required(.clauses)) { (decoder: inout EntryDecoder, slot) throws(Failure) in try decoder.clause(slot) },
            source: SourceRef(node: index))
    }

    mutating func clause(_ index: Int) throws(Failure) -> Clause {
        let fields = try fields(index, of: Clause.self)
        return Clause(
            questionId: try string(fields.required(.questionId)), op: try enumeration(fields.required(.op), Clause.Operator.self),
            value: optionalValue(fields[.value]), source: SourceRef(node: index))
    }

    /// The case of `T` the string at `index` names, as `T(rawValue:)` finds it.
    ///
    /// Each case is first tried by its representation (`ExactKey.sameRepresentation`): a raw value
    /// of up to 15 UTF-8 bytes, as every operator's is, is stored inline, and so is a string the
    /// decoder makes of the same bytes, so the two are one value; only a text no case matches that
    /// way goes through the string switch of `T(rawValue:)`, which compares it with each case's text.
    func enumeration<T: RawRepresentable & CaseIterable>(_ index: Int, _ type: T.Type) throws(Failure) -> T where T.RawValue == String {
        let raw = try string(index)
        for value in T.allCases where ExactKey.sameRepresentation(value.rawValue, raw) {
            return value
        }
        guard let value = T(rawValue: raw) else {
            throw failure(index, "one of " + T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
        }
        return value
    }
}
