/// A strictly parsed (RFC 8259) JSON text that keeps, for every value, where it came from.
///
/// The document is a flat, pre-order array of nodes over the original UTF-8 bytes: node 0 is the
/// top-level value, a container's children follow it, and an object's children alternate key and
/// value. Nothing is recursive, so nesting depth costs memory, never stack. Number tokens keep their
/// lexical form and duplicate keys are all kept; how they are read is up to the caller
/// (`FallbackFile` applies the SDK's rules).
///
/// When the text is not valid JSON, `syntaxError` says why and where, and the nodes hold
/// everything parsed before that point (containers still open there are marked incomplete).
public struct JSONDocument: Sendable {
    /// The kind of a JSON value.
    public enum Kind: UInt8, Sendable {
        /// One per value form of RFC 8259; `true` and `false` are kinds of their own.
        case null, `true`, `false`, number, string, array, object

        /// How a message names a value of this kind ("an object", "a string").
        public var article: String {
            switch self {
            case .null: "null"
            case .true: "true"
            case .false: "false"
            case .number: "a number"
            case .string: "a string"
            case .array: "an array"
            case .object: "an object"
            }
        }
    }

    /// A syntax error: what is wrong, and the byte offset where it was found.
    public struct SyntaxError: Error, Sendable, Hashable {
        /// What kind of syntax error it is.
        public enum Reason: Sendable, Hashable {
            /// The bytes are not valid UTF-8 (checked before anything else, as text decoding comes first).
            case invalidUTF8
            /// Anything else that RFC 8259 forbids.
            case syntax
        }
        /// Whether the bytes are not UTF-8 or the text breaks the grammar.
        public let reason: Reason
        /// What is wrong, in the words of the SDK's parser (`EOF while parsing a value`).
        public let message: String
        /// The byte offset in `bytes` where the error was found.
        public let offset: Int
    }

    static let hasEscapes: UInt8 = 1
    static let integerToken: UInt8 = 2
    static let overflows: UInt8 = 4
    static let incomplete: UInt8 = 8
    /// A string node that is an object member's key.
    static let isKey: UInt8 = 16
    /// A string node with a `\u` escape of a surrogate that is not part of a pair.
    static let hasLoneSurrogate: UInt8 = 32

    /// A string holding a lone surrogate escape: valid JSON only where the SDK skips the value
    /// unread (§2 rule 1), and decoded as U+FFFD.
    struct LoneSurrogate: Sendable, Equatable {
        /// The string node.
        var node: Int32
        /// The byte offset of the first lone escape's backslash.
        let offset: Int32
        /// A leading (high) surrogate without a trailing one after it, rather than a trailing one alone.
        let isLeading: Bool

        /// The SDK's message when it decodes the string.
        var message: String { isLeading ? "lone leading surrogate in hex escape" : "lone trailing surrogate in hex escape" }
    }

    /// Everything parsed, shared by every copy of the document and every `Value` handle.
    final class Storage: Sendable {
        let bytes: [UInt8]
        let nodes: Nodes
        /// Byte offsets at which each line starts (line 1 starts at 0).
        let lineStarts: [Int]
        /// For each 4 KiB block, the UTF-8 continuation bytes before it and in it; columns count scalars.
        let continuationsBeforeBlock: [Int]
        let continuationsInBlock: [Int32]
        /// Where parsing stopped: continuation bytes are counted up to here.
        let parsedExtent: Int
        let syntaxError: SyntaxError?
        let tooDeepContainers: [Int32]
        let overflowingNumbers: [Int32]
        let loneSurrogates: [LoneSurrogate]
        /// Stage 2 ran in two halves that met (`SplitParse`).
        let parsedInTwoHalves: Bool
        /// The second half was written into the first half's node block (`SplitParse.SharedBlock`).
        let secondHalfWrittenInPlace: Bool
        /// The caches decoders make strings through (`StringCache`), one per decoder at a time.
        let stringCaches = StringCachePool()

        init<Scanner>(bytes: [UInt8], parser: Parser<Scanner>) {
            self.bytes = bytes
            self.nodes = Nodes(buffer: parser.nodes.finish())
            self.lineStarts = parser.lineStarts
            var running = 0
            self.continuationsBeforeBlock = parser.continuationsInBlock.map { count in
                defer { running += Int(count) }
                return running
            }
            self.continuationsInBlock = parser.continuationsInBlock
            self.parsedExtent = parser.parsedExtent
            self.syntaxError = parser.error
            self.tooDeepContainers = parser.tooDeep
            self.overflowingNumbers = parser.overflowing
            self.loneSurrogates = parser.loneSurrogates
            self.parsedInTwoHalves = parser.adoptedSecondHalf
            self.secondHalfWrittenInPlace = parser.secondHalfWrittenInPlace
        }
    }

    static let blockShift = 12

    let storage: Storage

    /// The bytes the document was parsed from.
    public var bytes: [UInt8] { storage.bytes }
    var nodes: Nodes { storage.nodes }
    var lineStarts: [Int] { storage.lineStarts }
    /// The first syntax error, or nil when the whole text is valid JSON.
    public var syntaxError: SyntaxError? { storage.syntaxError }
    /// Containers nested exactly 128 deep: the first level past the SDK's limit on every branch.
    var tooDeepContainers: [Int32] { storage.tooDeepContainers }
    /// Number tokens whose magnitude overflows a 64-bit float.
    var overflowingNumbers: [Int32] { storage.overflowingNumbers }
    /// Strings (keys and values) with a lone surrogate escape, in text order.
    var loneSurrogates: [LoneSurrogate] { storage.loneSurrogates }

    /// The largest text the reader accepts: offsets are stored in 32 bits.
    public static let maximumByteCount = Int(Int32.max)

    /// Parses `bytes`; never throws, never recurses. Texts over `maximumByteCount` bytes are a syntax error.
    ///
    /// A `\u` escape of a surrogate that is not part of a pair is a syntax error unless
    /// `acceptingLoneSurrogates`; then it is recorded (the string decodes it as U+FFFD), and the caller
    /// decides where it is allowed, as `FallbackFile` does for values the SDK skips unread.
    public init(bytes: [UInt8], acceptingLoneSurrogates: Bool = false) {
        self.init(bytes: bytes, acceptingLoneSurrogates: acceptingLoneSurrogates, path: .vector)
    }

    /// Parses `bytes` with stage 1 (`ParseIndex`) scanned along `path`, in runs of `runWords` blocks
    /// when given (`Int.max`: one thread), and stage 2 in two halves (`SplitParse`) meeting at the
    /// first place they can at or after `splitAt` (by default, from `SplitParse.minimumByteCount`
    /// bytes up; `Int.max`: in one piece). Every path, run length and split gives the same document.
    package init(
        bytes: [UInt8], acceptingLoneSurrogates: Bool = false, path: StructuralIndex.Path, runWords: Int? = nil, splitAt: Int? = nil
    ) {
        self.storage = bytes.withUnsafeBufferPointer { buffer in
            guard bytes.count <= JSONDocument.maximumByteCount else {
                return JSONDocument.tooLarge(bytes)
            }
            let index = ParseIndex(bytes: buffer, path: path, runWords: runWords)
            var parser = Parser(count: bytes.count, scanner: IndexedScanner(index: index))
            parser.acceptsLoneSurrogates = acceptingLoneSurrogates
            if let split = splitAt ?? SplitParse.automaticSplit(byteCount: bytes.count), split < bytes.count {
                SplitParse.parse(buffer, index: index, from: split, with: &parser)
            } else {
                parser.parse(buffer)
            }
            return Storage(bytes: bytes, parser: parser)
        }
    }

    /// Parses `bytes` one byte at a time, without stage 1, as the parser did before it had one: the
    /// reference the indexed parse is tested against.
    init(referenceParsing bytes: [UInt8], acceptingLoneSurrogates: Bool = false) {
        self.storage = bytes.withUnsafeBufferPointer { buffer in
            guard bytes.count <= JSONDocument.maximumByteCount else {
                return JSONDocument.tooLarge(bytes)
            }
            var parser = Parser(count: bytes.count, scanner: ByteScanner(count: bytes.count))
            parser.acceptsLoneSurrogates = acceptingLoneSurrogates
            parser.parse(buffer)
            return Storage(bytes: bytes, parser: parser)
        }
    }

    /// A text over `maximumByteCount` bytes: not parsed, a syntax error at its start.
    private static func tooLarge(_ bytes: [UInt8]) -> Storage {
        var parser = Parser(count: bytes.count, scanner: ByteScanner(count: 0))
        parser.fail(.syntax, "the text is larger than \(JSONDocument.maximumByteCount) bytes", at: 0)
        return Storage(bytes: bytes, parser: parser)
    }

    /// Parses UTF-8 text; a lone surrogate escape is a syntax error.
    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// True when the text held at least the start of a value.
    public var hasRoot: Bool { !nodes.isEmpty }

    /// The top-level value. Only valid when `hasRoot`.
    public var root: Value { Value(document: self, index: 0) }

    /// The value at a node index handed out earlier (`Value.index`, `SourceRef.node`).
    public func value(at index: Int) -> Value { Value(document: self, index: index) }

    // MARK: Positions

    /// A 1-based line and column; columns count Unicode scalars.
    public struct Position: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The 1-based line.
        public let line: Int
        /// The 1-based column, counting Unicode scalars.
        public let column: Int

        /// A position from its parts.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        public static func < (lhs: Position, rhs: Position) -> Bool {
            (lhs.line, lhs.column) < (rhs.line, rhs.column)
        }

        public var description: String { "\(line):\(column)" }
    }

    /// The line and column of a byte offset.
    public func position(ofOffset offset: Int) -> Position {
        let offset = max(0, min(offset, bytes.count))
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var line = low + 1
        var lineStart = lineStarts[low]
        if offset > storage.parsedExtent {
            // Only an error's offset lies past the parse (invalid UTF-8 after a syntax error wins):
            // the line feeds between are not indexed, so count them here.
            storage.bytes.withUnsafeBufferPointer { buffer in
                for index in storage.parsedExtent..<offset where buffer[index] == 0x0A {
                    line += 1
                    lineStart = index + 1
                }
            }
        }
        // Up to a quarter block of line is counted straight (none in a block without any); a longer
        // one from the blocks' counts, which count up to half a block at each end.
        let lineContinuations: Int
        if offset - lineStart <= 1 << (JSONDocument.blockShift - 2), offset <= storage.parsedExtent {
            let block = offset >> JSONDocument.blockShift
            lineContinuations = block == lineStart >> JSONDocument.blockShift && storage.continuationsInBlock[block] == 0
                ? 0 : continuationBytes(in: lineStart..<offset)
        } else {
            lineContinuations = continuations(before: offset) - continuations(before: lineStart)
        }
        return Position(line: line, column: (offset - lineStart) - lineContinuations + 1)
    }

    /// The UTF-8 continuation bytes in `bytes[range]`, counted 64 bytes at a time (a listing asks
    /// for the position of every value of a one-line file).
    ///
    /// Read as signed bytes, a continuation byte (`10xxxxxx`) is one below -64, and a true lane of
    /// a mask is -1: subtracting each block's mask counts them lane by lane, in bytes that are
    /// added up every 255 blocks, before they can wrap.
    private func continuationBytes(in range: Range<Int>) -> Int {
        storage.bytes.withUnsafeBytes { buffer in
            var total = 0
            var index = range.lowerBound
            let leadStart = SIMD64<Int8>(repeating: -64)
            while index + 64 <= range.upperBound {
                var counts = SIMD64<UInt8>()
                var blocks = 0
                while blocks < 255, index + 64 <= range.upperBound {
                    let block = buffer.loadUnaligned(fromByteOffset: index, as: SIMD64<Int8>.self)
                    counts &-= unsafeBitCast(block .< leadStart, to: SIMD64<UInt8>.self)
                    index += 64
                    blocks += 1
                }
                // Each word's eight counts: summed in pairs into four 16-bit lanes, then the lanes
                // gathered into the top one by a multiply (at most 2,040, so nothing carries out).
                let words = unsafeBitCast(counts, to: SIMD8<UInt64>.self)
                for lane in 0..<8 {
                    let pairs = words[lane] & 0x00FF_00FF_00FF_00FF &+ (words[lane] >> 8) & 0x00FF_00FF_00FF_00FF
                    total += Int(truncatingIfNeeded: (pairs &* 0x0001_0001_0001_0001) >> 48)
                }
            }
            while index < range.upperBound {
                if buffer[index] & 0xC0 == 0x80 { total += 1 }
                index += 1
            }
            return total
        }
    }

    /// The UTF-8 continuation bytes in `bytes[..<offset]`, from the parser's per-block counts.
    private func continuations(before offset: Int) -> Int {
        if offset > storage.parsedExtent {
            // Only an error's offset lies past the parse: count the rest the long way.
            return continuations(before: storage.parsedExtent) + continuationBytes(in: storage.parsedExtent..<offset)
        }
        let block = offset >> JSONDocument.blockShift
        let before = storage.continuationsBeforeBlock[block]
        let inBlock = Int(storage.continuationsInBlock[block])
        guard inBlock > 0 else { return before }
        // From whichever end of the block is nearer: the block's count holds its continuation
        // bytes up to its end, or up to the end of the parse in the block the parse ends in.
        let blockStart = block << JSONDocument.blockShift
        let blockEnd = min(blockStart + (1 << JSONDocument.blockShift), storage.parsedExtent)
        if offset - blockStart <= blockEnd - offset { return before + continuationBytes(in: blockStart..<offset) }
        return before + inBlock - continuationBytes(in: offset..<blockEnd)
    }
}

// MARK: - Values

extension JSONDocument {
    /// One value of the document: a cheap handle (document and node index).
    public struct Value: Sendable {
        /// The document the value belongs to.
        public let document: JSONDocument
        /// The node index; stable for the life of the document.
        public let index: Int

        var node: Node { document.nodes[index] }

        /// What kind of value this is.
        public var kind: Kind { node.kind }

        /// The byte range of the token or container in `document.bytes`.
        public var byteRange: Range<Int> { Int(node.start)..<Int(node.end) }

        /// The line and column where the value starts.
        public var position: Position { document.position(ofOffset: Int(node.start)) }

        /// False for a container the text ended (or broke) inside of.
        public var isComplete: Bool { node.flags & JSONDocument.incomplete == 0 }

        /// The containing array or object, nil for the top level.
        public var parent: Value? {
            let parent = document.nodes.parent(of: index)
            return parent < 0 ? nil : Value(document: document, index: Int(parent))
        }

        /// The decoded string, when this is a string.
        public var string: String? {
            kind == .string ? document.decodeString(at: index) : nil
        }

        /// The number token as written, when this is a number.
        public var number: JSONNumber? {
            kind == .number ? JSONNumber(text: document.text(of: byteRange)) : nil
        }

        /// The boolean, when this is `true` or `false`.
        public var bool: Bool? {
            switch kind {
            case .true: true
            case .false: false
            default: nil
            }
        }

        /// The elements of an array, in order (empty for anything else).
        public var elements: [Value] {
            guard kind == .array else { return [] }
            var result: [Value] = []
            result.reserveCapacity(Int(node.count))
            var children = document.children(ofNode: index)
            while let child = children.next(in: document) { result.append(Value(document: document, index: child.value)) }
            return result
        }

        /// One member of an object, with its key's own position.
        public struct Member: Sendable {
            /// The key, as a string value with its own position.
            public let keyValue: Value
            /// The member's value.
            public let value: Value
            /// The key, decoded.
            public var key: String { keyValue.string ?? "" }
        }

        /// Every member of an object in text order, duplicates included (empty for anything else).
        public var members: [Member] {
            guard kind == .object else { return [] }
            var result: [Member] = []
            result.reserveCapacity(Int(node.count))
            // A key the text broke off after has no value: the members stop before it.
            var children = document.children(ofNode: index)
            while let child = children.next(in: document), let key = child.key {
                result.append(Member(keyValue: Value(document: document, index: key), value: Value(document: document, index: child.value)))
            }
            return result
        }

        /// The number of elements or members.
        public var count: Int { Int(node.count) }

        /// The last member named `key` (the one a JSON map keeps), if this is an object.
        public subscript(key: String) -> Value? {
            guard kind == .object else { return nil }
            var found: Value?
            let keyBytes = Array(key.utf8)
            var children = document.children(ofNode: index)
            while let child = children.next(in: document), let keyNode = child.key {
                if document.keyEquals(keyNode, keyBytes) { found = Value(document: document, index: child.value) }
            }
            return found
        }

        /// The RFC 6901 JSON Pointer of this value (`""` for the top level); for an object key, the
        /// pointer of its member.
        public var pointer: String { document.pointer(ofNode: index) }

        /// The members of an object as a JSON map keeps them: each distinct key (by its bytes) at the
        /// place of its first occurrence, with the value of its last (empty for anything else).
        public var uniqueMembers: OrderedMap<Value> {
            var map = OrderedMap<Value>()
            for member in members { map.set(member.value, for: member.key) }
            return map
        }

        /// An owned copy of this value; duplicate keys collapse to the last occurrence, kept at the
        /// place of the first.
        ///
        /// Built without recursion, but Swift releases nested arrays recursively: an owned value
        /// nested tens of thousands deep overflows the stack when its last copy goes. Take it only
        /// of values whose depth is bounded (inside `formatVersion` and `placements`, which the
        /// contract's §2 rule 4 limits to 127 levels); for any other, work on the document's values
        /// (`jsonText(_:)` writes one without building it).
        public var owned: JSONValue { document.ownedValue(at: index) }

        /// The text `owned.jsonText(options)` gives, written from the document without building
        /// the owned value, so at any depth. `omittingMember` leaves out this value's member of that
        /// name (same UTF-8 bytes), `omittingElement` its element at that position.
        public func jsonText(
            _ options: JSONValue.WritingOptions = [], omittingMember omittedMember: String? = nil,
            omittingElement omittedElement: Int? = nil
        ) -> String {
            let tree = DocumentTree(document: document, root: index, omittedMember: omittedMember, omittedElement: omittedElement)
            var writer = JSONWriter(tree: tree, options: options)
            writer.write(index)
            return writer.output
        }

        /// True when this value is written exactly as `jsonText(.canonical)` writes it (and whole:
        /// false for a container the text broke off in): no whitespace, every object's keys unescaped and in strictly ascending byte order, every
        /// string escaped as `JSONValue.writeQuoted` escapes, every number as the SDK reads it.
        /// Read from the parsed nodes, in one pass over the value's subtree.
        public var isWrittenCanonically: Bool {
            let nodes = document.nodes
            let end = Int(node.next)
            var length = 0
            for index in self.index..<end {
                let node = nodes[index]
                switch node.kind {
                case .object, .array:
                    // A container the text broke off in is not written at all.
                    if node.flags & JSONDocument.incomplete != 0 { return false }
                    let count = Int(node.count)
                    // Brackets, commas, and a colon per member.
                    length += 2 + max(count - 1, 0) + (node.kind == .object ? count : 0)
                    if node.kind == .object, !document.keysAscend(ofObjectAt: index) { return false }
                case .string:
                    length += Int(node.end - node.start)
                    if node.flags & JSONDocument.hasEscapes != 0 {
                        if node.flags & JSONDocument.isKey != 0 || !document.escapesAreCanonical(at: index) { return false }
                    }
                case .number:
                    let start = Int(node.start)
                    let count = Int(node.end - node.start)
                    length += count
                    // An integer token of up to 18 characters other than `-0` is an integer as written.
                    let isPlainInteger = node.flags & JSONDocument.integerToken != 0 && count <= 18
                        && !(document.bytes[start] == UInt8(ascii: "-") && document.bytes[start + 1] == UInt8(ascii: "0"))
                    if !isPlainInteger {
                        let token = document.text(of: start..<Int(node.end))
                        guard JSONValue.WritingOptions.canonical.numberText(token) == token else { return false }
                    }
                case .null, .true, .false:
                    length += Int(node.end - node.start)
                }
            }
            return length == byteRange.count
        }

        /// `jsonText(options)` cut to its first `limit` characters followed by `…`, when it is
        /// longer; a long value is only written as far as the cut.
        public func jsonText(_ options: JSONValue.WritingOptions = [], shortenedTo limit: Int) -> String {
            // Every character takes at least one byte: past this many bytes, enough are written
            // to cut (unless characters are long; then the whole text is written).
            var writer = JSONWriter(tree: DocumentTree(document: document), options: options, byteLimit: 4 * (limit + 2))
            writer.write(index)
            var text = writer.output
            if writer.isTruncated, text.count <= limit + 1 { text = jsonText(options) }
            return text.count > limit ? String(text.prefix(limit)) + "…" : text
        }
    }

    /// Escapes a reference token for a JSON Pointer: every `~` → `~0` and `/` → `~1`, also one a
    /// combining mark follows (RFC 6901 escapes characters, not grapheme clusters).
    public static func escapePointerToken(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        var token = token
        var escaped: [UInt8] = []
        token.withUTF8 { appendEscapedPointerToken($0, to: &escaped) }
        return String(decoding: escaped, as: UTF8.self)
    }

    func text(of range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    /// True when the key at `keyIndex` decodes to exactly `expected`.
    func keyEquals(_ keyIndex: Int, _ expected: [UInt8]) -> Bool {
        let node = nodes[keyIndex]
        if node.flags & JSONDocument.hasEscapes != 0 {
            return Array(decodeString(at: keyIndex).utf8) == expected
        }
        let start = Int(node.start) + 1
        let end = Int(node.end) - 1
        guard end - start == expected.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            for offset in 0..<expected.count where buffer[start + offset] != expected[offset] {
                return false
            }
            return true
        }
    }

    func decodeString(at index: Int) -> String {
        let node = nodes[index]
        let start = Int(node.start) + 1
        let end = Int(node.end) - 1
        if node.flags & JSONDocument.hasEscapes == 0 {
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        utf8.reserveCapacity(end - start)
        var offset = start
        while offset < end {
            let byte = bytes[offset]
            guard byte == UInt8(ascii: "\\") else {
                utf8.append(byte)
                offset += 1
                continue
            }
            let escape = bytes[offset + 1]
            offset += 2
            switch escape {
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "u"):
                var code = JSONDocument.hexValue(bytes, offset)
                offset += 4
                if code >= 0xD800, code < 0xDC00, offset + 6 <= end, bytes[offset] == UInt8(ascii: "\\"),
                    bytes[offset + 1] == UInt8(ascii: "u")
                {
                    let low = JSONDocument.hexValue(bytes, offset + 2)
                    if low >= 0xDC00, low < 0xE000 {
                        offset += 6
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                }
                // A lone surrogate (only where the SDK never decodes the string) has no UTF-8 form.
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                utf8.append(contentsOf: String(scalar).utf8)
            default: utf8.append(escape)
            }
        }
        scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
        return String(scalars)
    }

    static func hexValue(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in offset..<offset + 4 {
            value = value << 4 | UInt32(hexDigit(bytes[index]) ?? 0)
        }
        return value
    }

    static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func ownedValue(at index: Int) -> JSONValue {
        // Iterative post-order build: containers are assembled once all their children are.
        var results: [JSONValue] = []
        /// The keys of the objects being built, innermost last.
        var keys: [[String]] = []
        var work: [(index: Int, expanded: Bool)] = [(index, false)]
        while let (current, expanded) = work.popLast() {
            let node = nodes[current]
            switch node.kind {
            case .null: results.append(.null)
            case .true: results.append(.bool(true))
            case .false: results.append(.bool(false))
            case .number: results.append(.number(JSONNumber(text: text(of: Int(node.start)..<Int(node.end)))))
            case .string: results.append(.string(decodeString(at: current)))
            case .array:
                let count = Int(node.count)
                if !expanded {
                    work.append((current, true))
                    for element in value(at: current).elements.reversed() { work.append((element.index, false)) }
                    continue
                }
                let built = Array(results[(results.count - count)...])
                results.removeLast(count)
                results.append(.array(built))
            case .object:
                if !expanded {
                    let members = value(at: current).uniqueMembers
                    keys.append(members.keys)
                    work.append((current, true))
                    for member in members.values.reversed() { work.append((member.index, false)) }
                    continue
                }
                // Read by index, not through a slice of `results`: a slice alive while the members
                // are removed made each object copy everything built before it (quadratic).
                let memberKeys = keys.removeLast()
                let start = results.count - memberKeys.count
                var members: [JSONValue.Member] = []
                members.reserveCapacity(memberKeys.count)
                for (offset, key) in memberKeys.enumerated() { members.append(JSONValue.Member(key, results[start + offset])) }
                results.removeLast(memberKeys.count)
                results.append(.object(members))
            }
        }
        return results.last ?? .null
    }

    /// A document's values as a tree for `JSONWriter`, as their owned copies would be written:
    /// strings decoded and written again (a string without escapes is already written so), numbers
    /// as the options say, duplicate keys collapsed; at `root`, a member or element may be left out.
    struct DocumentTree: JSONTree {
        let document: JSONDocument
        var root = 0
        var omittedMember: String?
        var omittedElement: Int?

        func content(
            of node: Int, options: JSONValue.WritingOptions, writingScalarTo output: inout String
        ) -> JSONContent<Int, (key: String, value: Int)>? {
            let value = document.value(at: node)
            switch value.kind {
            case .null: output += "null"
            case .true: output += "true"
            case .false: output += "false"
            case .number: output += options.numberText(document.text(of: value.byteRange))
            case .string:
                if value.node.flags & JSONDocument.hasEscapes == 0 {
                    output += document.text(of: value.byteRange)
                } else {
                    JSONValue.writeQuoted(document.decodeString(at: node), to: &output)
                }
            case .array:
                var elements = value.elements.map(\.index)
                if node == root, let omittedElement, omittedElement < elements.count { elements.remove(at: omittedElement) }
                return .array(elements)
            case .object:
                let members = value.uniqueMembers
                var pairs = zip(members.keys, members.values).map { (key: $0, value: $1.index) }
                if node == root, let omittedMember { pairs.removeAll { ExactKey.same($0.key, omittedMember) } }
                return .object(pairs)
            }
            return nil
        }

        func key(of member: (key: String, value: Int)) -> String { member.key }
        func value(of member: (key: String, value: Int)) -> Int { member.value }
    }
}

// MARK: - Parser

extension JSONDocument {
    /// Stage 2: the whole value grammar as a loop over an explicit stack of open containers. Where
    /// whitespace and a string's plain run end is the `Scanner`'s to say: `IndexedScanner` reads it
    /// off stage 1's bitmaps (`ParseIndex`), `ByteScanner` walks byte by byte as the parser always
    /// did, the reference the indexed parse is tested against. Both give the same document.
    /// Where `Parser.parseValues` starts: at a value, at an object member's key (the second half of
    /// a split parse, after the comma it starts after), or at the comma or end after a value.
    enum Expect { case value, memberKey, commaOrEnd }

    /// A container the parser has opened and not closed: its node, whether it is an object, and how
    /// many elements or members the container around it had when it opened (its count goes on from
    /// there).
    struct OpenContainer: Equatable {
        var node: Int32
        var outerCount: Int32
        var isObject: Bool
    }

    /// The open containers while `Parser.parseValues` runs, innermost last, in a block of their
    /// own: opening and closing a container is a store and a load, not a change of an array (which
    /// checks each time that it is not shared). Taken from the parser's `stack` when the loop
    /// starts and given back when it stops; it grows by doubling, so depth costs memory, never stack.
    struct OpenStack: ~Copyable {
        private var base: UnsafeMutablePointer<OpenContainer>
        private var capacity: Int
        private(set) var count: Int

        init(_ containers: [OpenContainer]) {
            capacity = max(64, 2 * containers.count)
            base = .allocate(capacity: capacity)
            count = containers.count
            for (depth, container) in containers.enumerated() { (base + depth).initialize(to: container) }
        }

        deinit { base.deallocate() }

        /// The open containers as the parser keeps them between loops.
        var containers: [OpenContainer] { Array(UnsafeBufferPointer(start: base, count: count)) }

        /// The innermost open container, if any.
        var top: OpenContainer? { count > 0 ? base[count &- 1] : nil }

        @inline(__always)
        mutating func push(_ container: OpenContainer) {
            if count == capacity { grow() }
            (base + count).initialize(to: container)
            count &+= 1
        }

        /// Removes the innermost open container, which there must be, and returns it.
        @inline(__always)
        mutating func pop() -> OpenContainer {
            count &-= 1
            return base[count]
        }

        @inline(never)
        private mutating func grow() {
            let larger = UnsafeMutablePointer<OpenContainer>.allocate(capacity: 2 * capacity)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = larger
            capacity *= 2
        }
    }

    struct Parser<Scanner: JSONTokenScanner> {
        let count: Int
        var scanner: Scanner
        var nodes: NodeBuilder
        var error: SyntaxError?
        var tooDeep: [Int32] = []
        var overflowing: [Int32] = []
        var loneSurrogates: [LoneSurrogate] = []
        var acceptsLoneSurrogates = false
        var parsedExtent = 0
        var lineStarts: [Int] = [0]
        var continuationsInBlock: [Int32] = [0]
        /// Open containers, innermost last, between runs of `parseValues` (which works on an
        /// `OpenStack` of them).
        var stack: [OpenContainer] = []
        /// The elements or members of the innermost open container so far (written to its node when
        /// it closes or the parse stops); those of each container around it are on the stack.
        var openCount: Int32 = 0
        /// The innermost open container (-1 at the top level) and whether it is an object.
        var parent: Int32 = -1
        var parentIsObject = false
        /// The split parse (`SplitParse`): the first half stops at the first comma at or after
        /// `stopAfter` that separates members of an object two levels deep, and says where.
        var stopAfter = Int.max
        var stoppedAt: Int?
        /// A second half (`SplitParse.Fragment`) starts inside two containers it did not parse:
        /// they stand on its stack as `SplitParse.assumedOuter` and `assumedInner`, of these kinds,
        /// and what closing them would write to their nodes is kept here.
        var isFragment = false
        var assumedKinds: (outer: Kind, inner: Kind) = (.object, .object)
        var assumedCloses: [SplitParse.AssumedClose?] = [nil, nil]
        /// A second half was taken in (`adopt`).
        var adoptedSecondHalf = false
        /// It was written into this parser's block (`SplitParse.SharedBlock`), not copied there.
        var secondHalfWrittenInPlace = false

        /// A parser for `count` bytes; its node block starts with room for one node per 6 bytes (the
        /// sample exports have one per 9) of `expectedBytes` (all of them by default), up to 64 Mi
        /// nodes (`nodeCapacity(for:)`), and grows from there; or it writes into `nodes` when given
        /// (a split parse's second half in the first half's block, `SplitParse.SharedBlock`).
        init(count: Int, scanner: Scanner, expectedBytes: Int? = nil, nodes: NodeBuilder? = nil) {
            self.count = count
            self.scanner = scanner
            let parsed = count <= JSONDocument.maximumByteCount ? min(count, expectedBytes ?? count) : 0
            self.nodes = nodes ?? NodeBuilder(capacity: Parser.nodeCapacity(for: parsed))
            // One container per 32 bytes (the sample exports have one per 65): the list of their
            // links rarely grows, and growing copied it into fresh pages, 2,000-3,000 page faults
            // for a 10,000-placement text. Room that is not written is never faulted in.
            self.nodes.reserveContainers(Parser.containerCapacity(for: parsed))
        }

        /// The containers a parser starts with room for, for `byteCount` bytes of text.
        static func containerCapacity(for byteCount: Int) -> Int { min(byteCount / 32 + 16, 1 << 24) }

        /// The nodes a block starts with room for, for `byteCount` bytes of text.
        static func nodeCapacity(for byteCount: Int) -> Int { min(byteCount / 6 + 16, 1 << 26) }

        mutating func fail(_ reason: SyntaxError.Reason, _ message: String, at offset: Int) {
            guard error == nil else { return }
            error = SyntaxError(reason: reason, message: message, offset: offset)
        }

        mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) {
            var offset = 0
            parseValues(bytes, &offset)
            finish(bytes, at: offset)
        }

        /// Ends a split parse (`SplitParse`): this parser read the first half and stopped at
        /// `offset`; `fragment` is the second half, if one was found. They meet where this parser
        /// stopped at the comma the fragment began after, inside containers of the kinds it assumed;
        /// otherwise the fragment is dropped and this parser goes on alone.
        mutating func finish(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, meeting fragment: SplitParse.Fragment?) {
            var offset = offset
            nodes.stopSharing()
            defer { nodes.freeLeftBlock() }
            if let comma = stoppedAt {
                stopAfter = Int.max
                stoppedAt = nil
                if var fragment, fragment.comma == comma, fragment.kinds == (nodes[Int(stack[0].node)].kind, nodes[Int(stack[1].node)].kind) {
                    adopt(&fragment.parser)
                    offset = fragment.end
                } else {
                    fragment?.parser.nodes.discard()
                    parseValues(bytes, &offset, from: .commaOrEnd)
                }
            } else {
                fragment?.parser.nodes.discard()
            }
            finish(bytes, at: offset)
        }

        /// What follows the top-level value: trailing text, containers an error left open, the
        /// error's kind and the positions.
        mutating func finish(_ bytes: UnsafeBufferPointer<UInt8>, at stopped: Int) {
            var offset = stopped
            if error == nil {
                offset = scanner.skipWhitespace(bytes, from: offset)
                if offset < count {
                    fail(.syntax, "trailing characters", at: offset)
                }
            }
            parsedExtent = error?.offset ?? count
            // Containers left open by an error end where the parse stopped.
            for (depth, open) in stack.enumerated() {
                let node = Int(open.node)
                nodes[node].setNumber(depth == stack.count - 1 ? openCount : stack[depth + 1].outerCount)
                nodes[node].setLink(nodes.count)
                nodes[node].setEnd(min(offset, count))
                nodes[node].setFlagA()
            }
            if let found = error, found.reason == .syntax, let invalid = scanner.firstInvalidUTF8(bytes) {
                // Decoding the bytes as text comes before parsing them.
                error = SyntaxError(reason: .invalidUTF8, message: "invalid UTF-8", offset: invalid)
            }
            (lineStarts, continuationsInBlock) = scanner.positions(bytes, upTo: parsedExtent)
        }

        /// Appends an array's or object's node when it opens, as the `ordinal`th element or member
        /// of the innermost open container; its `next` and count are written when it closes.
        @inline(__always)
        mutating func appendContainer(_ kind: Kind, at offset: Int, ordinal: Int32) -> Int {
            let index = nodes.count
            nodes.appendContainer(ContainerLink(node: Int32(truncatingIfNeeded: index), parent: parent, ordinal: ordinal))
            nodes.append(PackedNode(kind: kind, flags: 0, start: offset, end: offset + 1, link: index + 1, number: 0))
            return index
        }

        /// Appends a scalar's node, given its kind code (`Kind.rawValue`, or `PackedNode.keyCode`),
        /// its stored flags (`PackedNode`) and its ordinal in the innermost open container (a key's
        /// is its member's, which the member's value shares; the top-level value's is 0).
        @inline(__always)
        mutating func appendScalar(code: UInt32, flagA: Bool = false, flagB: Bool = false, start: Int, end: Int, ordinal: Int32) {
            nodes.append(PackedNode(code: code, flagA: flagA, flagB: flagB, start: start, end: end, link: Int(parent) &+ 1, number: Int(ordinal)))
        }

        /// The whole value grammar as a loop over an explicit stack of open containers (`OpenStack`).
        mutating func parseValues(_ bytes: UnsafeBufferPointer<UInt8>, _ stopped: inout Int, from start: Expect = .value) {
            var open = OpenStack(stack)
            parseValues(bytes, &stopped, from: start, open: &open)
            stack = open.containers
        }

        /// `parseValues(_:_:from:)` on `open`. Each step goes straight on to what the grammar allows
        /// next, as a goto-based parser jumps: from a key's colon to the value, from a value to the
        /// comma or end after it, from a comma to the next key or element. A value's ordinal in its
        /// container is known where the step that leads to it is (`ordinal`), and so is whether it
        /// counts as one more element once appended (`counted`: an array's element) or was counted
        /// with its key (a member's value), so no node asks what its container is.
        @inline(__always)
        private mutating func parseValues(_ bytes: UnsafeBufferPointer<UInt8>, _ stopped: inout Int, from start: Expect, open: inout OpenStack) {
            // A local, not the `inout` it is written back to where the parse stops.
            var offset = stopped
            defer { stopped = offset }
            var ordinal: Int32 = 0
            var counted: Int32 = 0
            var atValue = true
            switch start {
            case .value:
                if parent >= 0 { (ordinal, counted) = parentIsObject ? (openCount &- 1, 0) : (openCount, 1) }
            case .memberKey:
                offset = scanner.skipWhitespace(bytes, from: offset)
                guard offset < count else { return fail(.syntax, "EOF while parsing an object", at: offset) }
                guard parseMemberKey(bytes, &offset) else { return }
                ordinal = openCount &- 1
            case .commaOrEnd:
                atValue = false
            }
            while true {
                if atValue {
                    value: while true {
                        // Compact text has no whitespace between tokens: the byte is looked at before
                        // the scanner is asked, here and after each token.
                        if offset >= count || bytes[offset] <= 0x20 {
                            offset = scanner.skipWhitespace(bytes, from: offset)
                            guard offset < count else { return fail(.syntax, "EOF while parsing a value", at: offset) }
                        }
                        let byte = bytes[offset]
                        switch byte {
                        case UInt8(ascii: "\""):
                            guard let end = parseString(bytes, at: offset, ordinal: ordinal) else { return }
                            offset = end
                        case UInt8(ascii: "{"), UInt8(ascii: "["):
                            let isObject = byte == UInt8(ascii: "{")
                            let index = appendContainer(isObject ? .object : .array, at: offset, ordinal: ordinal)
                            openCount &+= counted
                            if open.count + 1 == 128 { tooDeep.append(Int32(index)) }
                            open.push(OpenContainer(node: Int32(index), outerCount: openCount, isObject: isObject))
                            openCount = 0
                            parent = Int32(index)
                            parentIsObject = isObject
                            offset += 1
                            if offset >= count || bytes[offset] <= 0x20 { offset = scanner.skipWhitespace(bytes, from: offset) }
                            if isObject {
                                guard offset < count else { return fail(.syntax, "EOF while parsing an object", at: offset) }
                                if bytes[offset] == UInt8(ascii: "}") {
                                    closeContainer(at: offset, open: &open)
                                    offset += 1
                                    break value
                                }
                                guard parseMemberKey(bytes, &offset) else { return }
                                counted = 0
                            } else {
                                guard offset < count else { return fail(.syntax, "EOF while parsing a list", at: offset) }
                                if bytes[offset] == UInt8(ascii: "]") {
                                    closeContainer(at: offset, open: &open)
                                    offset += 1
                                    break value
                                }
                                counted = 1
                            }
                            ordinal = 0
                            continue value
                        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                            guard let end = parseNumber(bytes, at: offset, ordinal: ordinal) else { return }
                            offset = end
                        case UInt8(ascii: "t"):
                            guard let end = literal(bytes, at: offset, "true", .true, ordinal: ordinal) else { return }
                            offset = end
                        case UInt8(ascii: "f"):
                            guard let end = literal(bytes, at: offset, "false", .false, ordinal: ordinal) else { return }
                            offset = end
                        case UInt8(ascii: "n"):
                            guard let end = literal(bytes, at: offset, "null", .null, ordinal: ordinal) else { return }
                            offset = end
                        default:
                            return fail(.syntax, "expected value", at: offset)
                        }
                        openCount &+= counted
                        break value
                    }
                    if open.count == 0 { return }
                }
                atValue = true
                // After a value: a comma and the next key or element, or the end of containers.
                commaOrEnd: while true {
                    let inObject = parentIsObject
                    if offset >= count || bytes[offset] <= 0x20 {
                        offset = scanner.skipWhitespace(bytes, from: offset)
                        guard offset < count else {
                            return fail(.syntax, inObject ? "EOF while parsing an object" : "EOF while parsing a list", at: offset)
                        }
                    }
                    let byte = bytes[offset]
                    if byte == UInt8(ascii: ",") {
                        if offset >= stopAfter {
                            if inObject, open.count == 2 {
                                stoppedAt = offset
                                return
                            }
                        }
                        offset += 1
                        if offset >= count || bytes[offset] <= 0x20 { offset = scanner.skipWhitespace(bytes, from: offset) }
                        if inObject {
                            guard offset < count else { return fail(.syntax, "EOF while parsing an object", at: offset) }
                            guard parseMemberKey(bytes, &offset) else { return }
                            ordinal = openCount &- 1
                            counted = 0
                        } else {
                            if offset < count, bytes[offset] == UInt8(ascii: "]") {
                                return fail(.syntax, "trailing comma", at: offset)
                            }
                            ordinal = openCount
                            counted = 1
                        }
                        break commaOrEnd
                    } else if byte == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        closeContainer(at: offset, open: &open)
                        offset += 1
                        if open.count == 0 { return }
                    } else {
                        return fail(.syntax, inObject ? "expected `,` or `}`" : "expected `,` or `]`", at: offset)
                    }
                }
            }
        }

        /// Reads an object member's key at `offset` (below `count`, whitespace skipped) and the
        /// colon after it, counting the member; false when the parse fails there.
        @inline(__always)
        private mutating func parseMemberKey(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: inout Int) -> Bool {
            guard bytes[offset] == UInt8(ascii: "\"") else {
                fail(.syntax, bytes[offset] == UInt8(ascii: "}") ? "trailing comma" : "key must be a string", at: offset)
                return false
            }
            guard let end = parseString(bytes, at: offset, isKey: true, ordinal: openCount) else { return false }
            openCount &+= 1
            offset = end
            if offset >= count || bytes[offset] <= 0x20 {
                offset = scanner.skipWhitespace(bytes, from: offset)
                guard offset < count else {
                    fail(.syntax, "EOF while parsing an object", at: offset)
                    return false
                }
            }
            guard bytes[offset] == UInt8(ascii: ":") else {
                fail(.syntax, "expected `:`", at: offset)
                return false
            }
            offset += 1
            return true
        }

        /// Closes the innermost open container at `offset`: writes its end, `next` and count to its
        /// node (or, for one a split parse's second half assumed, keeps them), and goes back to the
        /// container around it.
        @inline(__always)
        private mutating func closeContainer(at offset: Int, open: inout OpenStack) {
            let closed = open.pop()
            let index = Int(closed.node)
            if isFragment, index >= SplitParse.assumedOuter {
                assumedCloses[index - SplitParse.assumedOuter] = SplitParse.AssumedClose(end: offset + 1, next: nodes.count, count: openCount)
            } else {
                nodes[index].setEnd(offset + 1)
                nodes[index].setLink(nodes.count)
                nodes[index].setNumber(openCount)
            }
            openCount = closed.outerCount
            if let around = open.top {
                parent = around.node
                parentIsObject = around.isObject
            } else {
                parent = -1
                parentIsObject = false
            }
        }

        /// Reads `word` at `offset` and appends its node (`kind`, the `ordinal`th in its container);
        /// the offset after it, or nil.
        mutating func literal(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ word: StaticString, _ kind: Kind, ordinal: Int32) -> Int? {
            let length = word.utf8CodeUnitCount
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
            for index in 0..<length {
                guard offset + index < count else {
                    fail(.syntax, "EOF while parsing a value", at: offset + index)
                    return nil
                }
                guard bytes[offset + index] == expected[index] else {
                    fail(.syntax, "expected ident", at: offset + index)
                    return nil
                }
            }
            appendScalar(code: UInt32(kind.rawValue), start: offset, end: offset + length, ordinal: ordinal)
            return offset + length
        }

        /// Reads the string token whose opening quote is at `start`, appends its node and returns
        /// the offset after it; nil when the parse fails in it. The scanner jumps over each plain
        /// run; only what ends one (a quote, an escape, a control character, invalid UTF-8) is
        /// looked at here.
        ///
        /// Inlined where the grammar meets a quote: a string whose first plain run ends at its
        /// closing quote (nearly every string of an export) is appended here, without a call, and
        /// `isKey` is a constant at each place; any other goes on in `parseString(_:at:stop:isKey:)`.
        @inline(__always)
        mutating func parseString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, isKey: Bool = false, ordinal: Int32) -> Int? {
            let stop = scanner.stringStop(bytes, from: start + 1)
            if stop < count, bytes[stop] == UInt8(ascii: "\"") {
                appendScalar(code: isKey ? PackedNode.keyCode : UInt32(Kind.string.rawValue), start: start, end: stop + 1, ordinal: ordinal)
                return stop + 1
            }
            return parseString(bytes, at: start, stop: stop, isKey: isKey, ordinal: ordinal)
        }

        /// `parseString(_:at:isKey:)` of a string whose first plain run, from the opening quote at
        /// `start`, ends at `stop` (the scanner already passed it), not at its closing quote.
        @inline(never)
        mutating func parseString(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, stop: Int, isKey: Bool, ordinal: Int32) -> Int? {
            var index = stop
            var flags: UInt8 = 0
            var lone: LoneSurrogate?
            while true {
                guard index < count else {
                    fail(.syntax, "EOF while parsing a string", at: index)
                    return nil
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    break
                } else if byte == UInt8(ascii: "\\") {
                    flags = JSONDocument.hasEscapes
                    guard index + 1 < count else {
                        fail(.syntax, "EOF while parsing a string", at: index + 1)
                        return nil
                    }
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                        UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        index += 2
                    case UInt8(ascii: "u"):
                        // A lone surrogate is kept and recorded, not failed: whether it throws depends on
                        // where the string is (§2 rule 1), which the reader of the top level decides.
                        guard let code = hex4(bytes, index + 2) else { return nil }
                        if code >= 0xDC00, code < 0xE000 {
                            guard record(LoneSurrogate(node: 0, offset: Int32(index), isLeading: false), in: &lone) else { return nil }
                            index += 6
                        } else if code >= 0xD800, code < 0xDC00 {
                            var paired = false
                            if index + 7 < count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u") {
                                guard let low = hex4(bytes, index + 8) else { return nil }
                                paired = low >= 0xDC00 && low < 0xE000
                            }
                            if paired {
                                index += 12
                            } else {
                                guard record(LoneSurrogate(node: 0, offset: Int32(index), isLeading: true), in: &lone) else { return nil }
                                index += 6
                            }
                        } else {
                            index += 6
                        }
                    default:
                        fail(.syntax, "invalid escape", at: index)
                        return nil
                    }
                } else if byte < 0x20 {
                    fail(.syntax, "control character (\\u0000-\\u001F) found while parsing a string", at: index)
                    return nil
                } else {
                    fail(.invalidUTF8, "invalid UTF-8", at: index)
                    return nil
                }
                index = scanner.stringStop(bytes, from: index)
            }
            if var lone {
                flags |= JSONDocument.hasLoneSurrogate
                lone.node = Int32(nodes.count)
                loneSurrogates.append(lone)
            }
            appendScalar(
                code: isKey ? PackedNode.keyCode : UInt32(Kind.string.rawValue), flagA: flags & JSONDocument.hasEscapes != 0,
                flagB: flags & JSONDocument.hasLoneSurrogate != 0, start: start, end: index, ordinal: ordinal)
            return index
        }

        /// Keeps the first lone surrogate of a string when they are accepted; fails otherwise.
        mutating func record(_ found: LoneSurrogate, in first: inout LoneSurrogate?) -> Bool {
            guard acceptsLoneSurrogates else {
                fail(.syntax, found.message, at: Int(found.offset))
                return false
            }
            if first == nil { first = found }
            return true
        }

        mutating func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32? {
            var value: UInt32 = 0
            for index in offset..<offset + 4 {
                guard index < count else {
                    fail(.syntax, "EOF while parsing a string", at: index)
                    return nil
                }
                guard let digit = JSONDocument.hexDigit(bytes[index]) else {
                    fail(.syntax, "invalid escape", at: index)
                    return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }

        /// Reads the number token at `start` and appends its node (the `ordinal`th in its container);
        /// the offset after it, or nil.
        mutating func parseNumber(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, ordinal: Int32) -> Int? {
            var index = start
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < count else {
                fail(.syntax, "EOF while parsing a value", at: index)
                return nil
            }
            func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                if index < count, isDigit(bytes[index]) {
                    fail(.syntax, "invalid number", at: index)
                    return nil
                }
            } else if isDigit(bytes[index]) {
                while index < count, isDigit(bytes[index]) { index += 1 }
            } else {
                fail(.syntax, "invalid number", at: index)
                return nil
            }
            let integerDigits = index - start
            var flags = JSONDocument.integerToken
            var hasExponent = false
            if index < count, bytes[index] == UInt8(ascii: ".") {
                flags = 0
                index += 1
                guard index < count, isDigit(bytes[index]) else {
                    fail(.syntax, index < count ? "invalid number" : "EOF while parsing a value", at: index)
                    return nil
                }
                while index < count, isDigit(bytes[index]) { index += 1 }
            }
            if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                flags = 0
                hasExponent = true
                index += 1
                if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard index < count, isDigit(bytes[index]) else {
                    fail(.syntax, index < count ? "invalid number" : "EOF while parsing a value", at: index)
                    return nil
                }
                while index < count, isDigit(bytes[index]) { index += 1 }
            }
            let nodeIndex = nodes.count
            appendScalar(code: UInt32(Kind.number.rawValue), flagA: flags & JSONDocument.integerToken != 0, start: start, end: index, ordinal: ordinal)
            // Only an exponent or a long integer part can overflow (§2.1): the rest is never read here.
            if hasExponent || integerDigits > 300,
                JSONNumber.reading(of: UnsafeBufferPointer(rebasing: bytes[start..<index])) == .outOfRange
            {
                nodes[nodeIndex].setFlagB()
                overflowing.append(Int32(nodeIndex))
            }
            return index
        }
    }
}

// MARK: - Canonical form

extension JSONDocument {
    /// True when the keys of the object at `index` have no escapes and strictly ascend by their bytes.
    func keysAscend(ofObjectAt index: Int) -> Bool {
        let nodes = self.nodes
        var previous: Range<Int>?
        var members = nodes.children(of: index)
        while let child = members.next(in: nodes), let key = child.key {
            let keyNode = nodes[key]
            let range = (Int(keyNode.start) + 1)..<(Int(keyNode.end) - 1)
            if let previous {
                let ascends = bytes.withUnsafeBufferPointer { buffer in
                    buffer[previous].lexicographicallyPrecedes(buffer[range])
                }
                guard ascends else { return false }
            }
            previous = range
        }
        return true
    }

    /// True when every escape in the string at `index` is one `JSONValue.writeQuoted` writes: `\"`,
    /// `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, and `\u00xx` (lowercase) for the other control characters.
    func escapesAreCanonical(at index: Int) -> Bool {
        let node = nodes[index]
        return bytes.withUnsafeBufferPointer { text in
            var offset = Int(node.start) + 1
            let end = Int(node.end) - 1
            while offset < end {
                guard text[offset] == UInt8(ascii: "\\") else {
                    offset += 1
                    continue
                }
                switch text[offset + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
                    UInt8(ascii: "b"), UInt8(ascii: "f"):
                    offset += 2
                case UInt8(ascii: "u"):
                    let hex = Array("0123456789abcdef".utf8)
                    guard text[offset + 2] == UInt8(ascii: "0"), text[offset + 3] == UInt8(ascii: "0"),
                        let high = hex.firstIndex(of: text[offset + 4]), let low = hex.firstIndex(of: text[offset + 5])
                    else { return false }
                    let scalar = high << 4 | low
                    guard scalar < 0x20, ![0x08, 0x09, 0x0A, 0x0C, 0x0D].contains(scalar) else { return false }
                    offset += 6
                default:
                    return false
                }
            }
            return true
        }
    }
}
