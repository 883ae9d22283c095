/// What `JSONDocument`'s grammar (stage 2) asks of the bytes between tokens and inside strings:
/// where whitespace ends, where a string's plain run ends, and, once the parse has stopped, where
/// lines start and how many UTF-8 continuation bytes each 4 KiB block holds up to that point.
protocol JSONTokenScanner {
    /// The first offset at or after `offset` whose byte is not JSON whitespace; the text's length
    /// when there is none.
    mutating func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int
    /// The first offset at or after `offset` whose byte is a quote, a backslash, a control character
    /// or the start of invalid UTF-8; the text's length when there is none.
    mutating func stringStop(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int
    /// The first byte of the text that does not start or continue well-formed UTF-8.
    func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int?
    /// The line starts (0 and one past each line feed) up to `extent`, and the UTF-8 continuation
    /// bytes of each 4 KiB block before `extent`, where the parse stopped.
    func positions(_ bytes: UnsafeBufferPointer<UInt8>, upTo extent: Int) -> (lineStarts: [Int], continuationsInBlock: [Int32])
}

/// Stage 2's questions answered from stage 1's bitmaps: a bit search per question, whitespace and
/// string bytes never walked one by one (but for one look at the byte where the search starts,
/// which in compact text is the answer).
struct IndexedScanner: JSONTokenScanner {
    let index: ParseIndex

    @inline(__always)
    func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        if offset < bytes.count, bytes[offset] > 0x20 { return offset }
        return index.significant.withUnsafeBufferPointer { ParseIndex.next(in: $0, from: offset) }
    }

    @inline(__always)
    func stringStop(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        // The first invalid UTF-8 is a string stop; it is never before the string being read: an
        // earlier string would have stopped there, and outside strings only ASCII parses.
        index.stringStops.withUnsafeBufferPointer { ParseIndex.next(in: $0, from: offset) }
    }

    func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? { index.firstInvalidUTF8 }

    func positions(_ bytes: UnsafeBufferPointer<UInt8>, upTo extent: Int) -> (lineStarts: [Int], continuationsInBlock: [Int32]) {
        var lineStarts = index.lineStarts
        var continuations = index.continuationsInBlock
        guard extent < bytes.count else { return (lineStarts, continuations) }
        // Stage 1 indexed the whole text; the byte-by-byte walk only counts what it read.
        var kept = lineStarts.count
        while kept > 1, lineStarts[kept - 1] > extent { kept -= 1 }
        lineStarts.removeSubrange(kept...)
        let block = extent >> JSONDocument.blockShift
        for later in block..<continuations.count { continuations[later] = 0 }
        for offset in (block << JSONDocument.blockShift)..<extent where bytes[offset] & 0xC0 == 0x80 {
            continuations[block] += 1
        }
        return (lineStarts, continuations)
    }
}

/// Stage 2's questions answered one byte at a time, as the parser did before it had a stage 1
/// (eight plain ASCII string bytes at a time at most): the reference `IndexedScanner` is tested
/// against. Line starts and continuation bytes are counted as the walk passes them.
struct ByteScanner: JSONTokenScanner {
    private var lineStarts: [Int] = [0]
    private var continuationsInBlock: [Int32]

    init(count: Int) {
        continuationsInBlock = [Int32](repeating: 0, count: (count >> JSONDocument.blockShift) + 1)
    }

    mutating func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        var offset = offset
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                offset += 1
            } else if byte == 0x0A {
                offset += 1
                lineStarts.append(offset)
            } else {
                break
            }
        }
        return offset
    }

    mutating func stringStop(_ bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int {
        let count = bytes.count
        var index = offset
        while true {
            // Fast path over plain ASCII: eight bytes at a time while none is a quote, a backslash,
            // a control character or non-ASCII, then byte by byte to the first that is.
            if let base = UnsafeRawPointer(bytes.baseAddress) {
                while index &+ 8 <= count {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if JSONTextScan.stringStopBits(word) | (word & 0x8080_8080_8080_8080) != 0 { break }
                    index &+= 8
                }
            }
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
                index += 1
            }
            guard index < count, bytes[index] >= 0x80,
                let length = StructuralIndex.utf8SequenceLength(bytes, at: index)
            else { return index }
            for continuation in index + 1..<index + length {
                continuationsInBlock[continuation >> JSONDocument.blockShift] += 1
            }
            index += length
        }
    }

    func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        StructuralIndex.firstInvalidUTF8(bytes, from: 0, through: bytes.count).invalid
    }

    func positions(_ bytes: UnsafeBufferPointer<UInt8>, upTo extent: Int) -> (lineStarts: [Int], continuationsInBlock: [Int32]) {
        (lineStarts, continuationsInBlock)
    }
}
