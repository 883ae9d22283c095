import RovenueFallback

/// Pretty-printed JSON text written straight into UTF-8 bytes: the same text as
/// `JSONValue.jsonText([.prettyPrinted])` (two-space indentation, one member or element per line,
/// `[]` and `{}` for empty containers, strings escaped by `JSONValue.appendQuoted`), without
/// building a `JSONValue` tree first or growing a `String` token by token.
///
/// The reports with thousands of findings (`check --format json`, SARIF) write through it; a
/// report writes its values in order (`beginObject()`, `key(_:)`, a value, …, `end()`), or a whole
/// `JSONValue` (`value(_:)`), or both. Nothing recurses: any depth is written.
struct PrettyJSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Where the text goes as it is written (`init(output:reservingCapacity:)`); nil keeps it all
    /// in `bytes` for `finishText()`.
    private let output: ReportSink?
    /// For each open container: how many members or elements it has so far.
    private var counts: [Int] = []
    /// For each open container: true for an object.
    private var isObject: [Bool] = []
    /// A key was written and its value comes next (no separator before it).
    private var afterKey = false

    init(reservingCapacity capacity: Int = 0) {
        output = nil
        bytes.reserveCapacity(capacity)
    }

    /// A writer that hands its text to `output` a chunk at a time, between tokens, so it holds
    /// about one chunk (and the token being written) whatever the length of the document. Into a
    /// gathering sink it writes straight into the sink's own buffer, with the capacity reserved there.
    init(output: ReportSink) {
        self.output = output
        if output.isGathering {
            bytes = output.takePending()
        } else {
            bytes.reserveCapacity(output.chunkSize + 1024)
        }
    }

    /// Ends the text with a line feed, as a report's `json()` does, and hands the rest to `output`.
    mutating func finish() {
        bytes.append(UInt8(ascii: "\n"))
        output?.write(taking: &bytes)
    }

    /// The text written, with a final line feed, as a report's `json()` returns it; the writer is
    /// empty after (its buffer is let go rather than copied, so a large report is held twice only
    /// while it becomes a `String`).
    mutating func finishText() -> String {
        bytes.append(UInt8(ascii: "\n"))
        defer { bytes = [] }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Containers

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        counts.append(0)
        isObject.append(true)
    }

    mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        counts.append(0)
        isObject.append(false)
    }

    /// Closes the innermost open object or array.
    mutating func end() {
        guard let count = counts.popLast(), let object = isObject.popLast() else {
            preconditionFailure("end() without an open container")
        }
        if count > 0 { newline(indent: counts.count) }
        bytes.append(object ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }

    /// The next member's key, in an open object: a name written in the source. A report writes
    /// the same few names thousands of times (seven for each finding), so a name without a byte to
    /// escape, as every one is, is not escaped by `JSONValue.appendQuoted`: the separator, the line
    /// and its indentation, the quoted name and `: ` are spelled in a buffer on the stack and
    /// appended at once (each append to `bytes` costs tens of instructions, whatever its length).
    mutating func key(_ name: StaticString) {
        precondition(isObject.last == true && !afterKey, "a key belongs in an object, before its value")
        name.withUTF8Buffer { text in
            guard let last = counts.indices.last,
                !text.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else {
                key(text: name.description)
                return
            }
            if let output, bytes.count >= output.chunkSize { output.write(taking: &bytes) }
            // What `separate()`, `quoted(_:)` and `key(text:)` write: `,` after an earlier member,
            // a line indented two spaces a level, then `"name": `.
            let indent = 2 * counts.count
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 + indent + text.count + 4) { token in
                var length = 0
                if counts[last] > 0 {
                    token[length] = UInt8(ascii: ",")
                    length += 1
                }
                token[length] = UInt8(ascii: "\n")
                length += 1
                UnsafeMutableBufferPointer(rebasing: token[length..<(length + indent)]).initialize(repeating: UInt8(ascii: " "))
                length += indent
                token[length] = UInt8(ascii: "\"")
                length += 1
                if let source = text.baseAddress, let target = token.baseAddress {
                    (target + length).initialize(from: source, count: text.count)
                }
                length += text.count
                token[length] = UInt8(ascii: "\"")
                token[length + 1] = UInt8(ascii: ":")
                token[length + 2] = UInt8(ascii: " ")
                length += 3
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: token[..<length]))
            }
            counts[last] += 1
            afterKey = true
        }
    }

    /// The keys of objects a report writes thousands of times at one depth (a finding's seven),
    /// each spelled once with what goes before it: `,`, the line and its indentation, then
    /// `"name": `, the name escaped by `JSONValue.appendQuoted`. `key(_:of:)` appends one such token
    /// at once, where `key(_:)` spells it for every member.
    struct MemberKeys: Sendable {
        /// How many containers are open inside an object these keys belong in.
        fileprivate let depth: Int
        /// For each name: its token after an earlier member (the first byte, `,`, dropped for the first).
        fileprivate let tokens: [[UInt8]]

        /// The keys `names` of objects open `depth` containers deep (the top level's members are at depth 1).
        init(_ names: [String], depth: Int) {
            self.depth = depth
            tokens = names.map { name in
                var token: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "\n")]
                token += repeatElement(UInt8(ascii: " "), count: 2 * depth)
                JSONValue.appendQuoted(name, to: &token)
                token += [UInt8(ascii: ":"), UInt8(ascii: " ")]
                return token
            }
        }
    }

    /// `keys` for objects written as elements of the innermost open array.
    func keysOfElementObjects(_ names: [String]) -> MemberKeys {
        MemberKeys(names, depth: counts.count + 1)
    }

    /// The next member's key, in an open object at `keys`' depth: the name at `index` in `keys`,
    /// the same text as `key(text:)` writes for it.
    mutating func key(_ index: Int, of keys: MemberKeys) {
        precondition(isObject.last == true && !afterKey, "a key belongs in an object, before its value")
        precondition(counts.count == keys.depth, "keys spelled for another depth")
        if let output, bytes.count >= output.chunkSize { output.write(taking: &bytes) }
        let last = counts.count - 1
        keys.tokens[index].withUnsafeBufferPointer { token in
            bytes.append(contentsOf: counts[last] > 0 ? token : UnsafeBufferPointer(rebasing: token.dropFirst()))
        }
        counts[last] += 1
        afterKey = true
    }

    /// The next member's key, in an open object: a name read from data.
    mutating func key(text key: String) {
        precondition(isObject.last == true && !afterKey, "a key belongs in an object, before its value")
        separate()
        quoted(key)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        afterKey = true
    }

    // MARK: Scalars

    mutating func string(_ string: String) {
        separate()
        quoted(string)
    }

    /// `value` in decimal, as `String(value)` spells it: the digits are spelled on the stack and
    /// appended at once, without making a `String` for them.
    mutating func integer(_ value: Int) {
        separate()
        // 19 digits and a sign: `Int.min`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    mutating func null() {
        separate()
        bytes.append(contentsOf: "null".utf8)
    }

    /// `string`, or `null` when it is nil.
    mutating func string(orNull string: String?) {
        if let string { self.string(string) } else { null() }
    }

    /// `"key": "text"`.
    mutating func pair(_ name: StaticString, _ text: String) {
        key(name)
        string(text)
    }

    /// `"key": number`.
    mutating func pair(_ name: StaticString, _ number: Int) {
        key(name)
        integer(number)
    }

    /// A whole value, as `JSONValue.jsonText([.prettyPrinted])` writes it, from an explicit stack.
    mutating func value(_ root: JSONValue) {
        /// An open container of `root` and how much of it is written.
        enum Open {
            case array([JSONValue], next: Int)
            case object([JSONValue.Member], next: Int)
        }
        var open: [Open] = []
        var next: JSONValue? = root
        while true {
            if let value = next {
                next = nil
                switch value {
                case .null: null()
                case .bool(let flag):
                    separate()
                    bytes.append(contentsOf: (flag ? "true" : "false").utf8)
                case .number(let number):
                    separate()
                    bytes.append(contentsOf: number.text.utf8)
                case .string(let text): string(text)
                case .array(let elements):
                    beginArray()
                    open.append(.array(elements, next: 0))
                case .object(let members):
                    beginObject()
                    open.append(.object(members, next: 0))
                }
            }
            guard let top = open.popLast() else { return }
            switch top {
            case .array(let elements, let index) where index < elements.count:
                next = elements[index]
                open.append(.array(elements, next: index + 1))
            case .object(let members, let index) where index < members.count:
                key(text: members[index].key)
                next = members[index].value
                open.append(.object(members, next: index + 1))
            case .array, .object:
                end()
            }
        }
    }

    // MARK: Elements rendered in parallel

    /// Items written at once into the innermost open array: 128 to a batch.
    static let elementBatchSize = 128
    /// Batches rendered at once: what the writer holds beyond a chunk is at most this many batches' text.
    static let elementBatchesAtOnce = 16
    /// The most bytes a wave of batches is expected to write (by the caller's estimate), past its
    /// first item: a wave holds its text twice at its end, so thousands of items that each name a
    /// megabyte key must not make one wave.
    static let elementWaveBytes = 8 << 20

    /// Each of `items` as one element of the innermost open array, written by `write`, the same
    /// text as calling `write` on this writer for each in turn; but batches of items are written
    /// concurrently, each into a writer of its own at this depth (`init(elementsAtDepth:following:)`),
    /// and their texts joined in order. A report's thousands of findings are most of its text:
    /// written here they no longer wait for one core after the audit.
    ///
    /// `estimatedBytes` guesses an item's text (its strings' bytes are enough): a wave is at most
    /// `elementBatchSize × elementBatchesAtOnce` items, and stops early at the item that takes its
    /// estimate past `elementWaveBytes`, so what the writer holds stays near that, however long
    /// the items' strings. An item estimated past `elementWaveBytes` by itself ends the wave before
    /// it and is written on this writer, its text handed on as it is made.
    mutating func elements<Element: Sendable>(
        _ items: [Element], estimatedBytes: (Element) -> Int, _ write: @Sendable (inout PrettyJSONWriter, Element) -> Void
    ) {
        elements(count: items.count, estimatedBytes: { estimatedBytes(items[$0]) }) { writer, index in write(&writer, items[index]) }
    }

    /// `elements(_:estimatedBytes:_:)` of items given by their positions `0..<count`: for items a
    /// caller reads in place, field by field. Handed out whole, each `Finding` was a copy (a retain
    /// and release of every string it holds) for its estimate and again for its text: about 1% of a
    /// 10,000-placement `check`'s CPU time, two thirds of it in the estimates, on one core.
    mutating func elements(count: Int, estimatedBytes: (Int) -> Int, _ write: @Sendable (inout PrettyJSONWriter, Int) -> Void) {
        precondition(isObject.last == false && !afterKey, "elements belong in an open array")
        let depth = counts.count
        var done = 0
        while done < count {
            var wave = 0
            var estimate = 0
            while wave < min(count - done, Self.elementBatchSize * Self.elementBatchesAtOnce),
                wave == 0 || estimate < Self.elementWaveBytes
            {
                let itemEstimate = estimatedBytes(done + wave)
                // An item past a wave's bytes by itself ends the wave before it, to be written alone.
                if wave > 0, itemEstimate >= Self.elementWaveBytes { break }
                estimate += itemEstimate
                wave += 1
            }
            let first = done
            if wave == 1, estimate >= Self.elementWaveBytes {
                // One item past a wave's bytes on its own is written here, handed to the output a
                // chunk at a time as it is made, not held whole in a batch's text and then copied.
                write(&self, first)
                done += 1
                continue
            }
            let following = counts[depth - 1] > 0
            // A wave its bytes cut short is still spread over the cores, in smaller batches.
            let batch = estimate < Self.elementWaveBytes
                ? Self.elementBatchSize
                : min(Self.elementBatchSize, (wave + Self.elementBatchesAtOnce - 1) / Self.elementBatchesAtOnce)
            let texts = ParallelChunks(count: wave, size: batch).map { range in
                var batch = PrettyJSONWriter(elementsAtDepth: depth, following: following || range.lowerBound > 0)
                for index in range { write(&batch, first + index) }
                return batch.bytes
            }
            for text in texts {
                if let output, bytes.count >= output.chunkSize { output.write(taking: &bytes) }
                bytes.append(contentsOf: text)
            }
            counts[depth - 1] += wave
            done += wave
        }
    }

    /// A writer for elements of an array open `depth` containers deep, after an earlier element
    /// of it when `following`: its text goes after the text written so far by the writer it
    /// stands for.
    private init(elementsAtDepth depth: Int, following: Bool) {
        output = nil
        counts = Array(repeating: 1, count: depth)
        counts[depth - 1] = following ? 1 : 0
        isObject = Array(repeating: false, count: depth)
        // A batch of findings runs to tens of kilobytes: grown from nothing, it would be copied a dozen times.
        bytes.reserveCapacity(1 << 16)
    }

    // MARK: Text

    /// Before a value or a key: nothing after a key or at the top; else a comma after an earlier
    /// sibling, and a line at the container's depth.
    private mutating func separate() {
        if let output, bytes.count >= output.chunkSize { output.write(taking: &bytes) }
        if afterKey {
            afterKey = false
            return
        }
        guard let last = counts.indices.last else { return }
        if counts[last] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[last] += 1
        newline(indent: counts.count)
    }

    /// A line feed and `indent` levels of two spaces, appended at once while the depth is within
    /// `lineStart` (each append to `bytes` costs tens of instructions, whatever its length).
    private mutating func newline(indent: Int) {
        let length = 1 + 2 * indent
        guard length <= Self.lineStart.count else {
            bytes.append(UInt8(ascii: "\n"))
            bytes += repeatElement(UInt8(ascii: " "), count: 2 * indent)
            return
        }
        Self.lineStart.withUnsafeBufferPointer { line in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: line[..<length]))
        }
    }

    /// A line feed and the spaces of the deepest indentation `newline(indent:)` appends at once.
    private static let lineStart: [UInt8] = [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: 32)

    /// `string` as a JSON string literal, escaped by `JSONValue.appendQuoted(_:to:)`.
    private mutating func quoted(_ string: String) {
        JSONValue.appendQuoted(string, to: &bytes)
    }
}
