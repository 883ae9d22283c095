/// Stage 1 as `JSONDocument`'s parser reads it: for every 64-byte block of the text, a bitmap of
/// the bytes that are not whitespace and a bitmap of the bytes that end a string's plain run (a
/// quote, a backslash, a control character, the first invalid UTF-8), with the line starts, the
/// UTF-8 continuation bytes per 4 KiB block and the first invalid UTF-8, all found in the same pass,
/// 64 bytes at a time with the block masks of `BlockMasks` (the vector path: this processor's
/// fastest masks; the portable vector path: Swift's `SIMD64<UInt8>` comparisons) or one byte at a
/// time (the scalar path). All three give the same index.
///
/// Stage 2, the parser's grammar, then jumps: from a token's end to the next significant byte and
/// from a string's opening quote to the next quote, backslash or control byte, with a bit search
/// instead of a byte loop; it looks at a byte only where a bitmap says something is there.
/// `StructuralIndex` is the same stage 1 as offset lists, for tools and tests; this form keeps the
/// bits, which is what a parser that already follows the grammar needs.
///
/// Bytes past the end count as set in both bitmaps (the last word is padded, and one word more is
/// kept when the text fills its last block), so a search always stops, at the text's length at most.
package struct ParseIndex: Sendable {
    /// Bit `i` of word `b` is set when byte `64 * b + i` is not JSON whitespace.
    package private(set) var significant: [UInt64] = []
    /// Bit `i` of word `b` is set when byte `64 * b + i` is `"`, `\` or below U+0020, or is the
    /// first invalid UTF-8 (`firstInvalidUTF8`): where a string's plain run ends, with one search.
    private(set) var stringStops: [UInt64] = []
    /// The offset at which each line starts: 0, then one past every line feed.
    private(set) var lineStarts: [Int] = [0]
    /// For each 4 KiB block (`JSONDocument.blockShift`), its UTF-8 continuation bytes.
    private(set) var continuationsInBlock: [Int32]
    /// The first byte that does not start or continue a well-formed UTF-8 sequence.
    private(set) var firstInvalidUTF8: Int?
    /// How the text was scanned: later scans of its blocks (`JSONDocument.SplitParse.boundary`) use
    /// the same masks.
    let path: StructuralIndex.Path

    /// Texts from this size up are scanned in parallel runs of blocks on the vector path.
    package static let parallelThreshold = 4 << 20

    /// Indexes `bytes` along `path`; both paths give the same index. On the vector path a text of
    /// `parallelThreshold` bytes or more is scanned in runs of blocks on all cores (`ParallelChunks`),
    /// then merged in text order; `runWords`, for tests, forces runs of that many 64-byte blocks at
    /// any size. The runs give the same index as one scan: the bitmaps depend on each byte alone,
    /// and the UTF-8 check is carried across runs exactly (`scanVector`).
    package init(bytes: UnsafeBufferPointer<UInt8>, path: StructuralIndex.Path, runWords: Int? = nil) {
        self.path = path
        continuationsInBlock = [Int32](repeating: 0, count: (bytes.count >> JSONDocument.blockShift) + 1)
        let wordCount = bytes.count / 64 + 1
        var significant: [UInt64] = []
        var stringStops: [UInt64] = []
        significant = [UInt64](unsafeUninitializedCapacity: wordCount) { significantWords, significantCount in
            stringStops = [UInt64](unsafeUninitializedCapacity: wordCount) { stopWords, stopCount in
                #if _endian(little)
                    let runs = runWords.map { ParallelChunks(count: wordCount, size: $0) }
                        ?? (bytes.count >= ParseIndex.parallelThreshold
                            ? ParallelChunks.forCores(count: wordCount, perCore: 2, minimumSize: (1 << 20) / 64)
                            : ParallelChunks(count: wordCount, chunks: 1))
                    switch path {
                    case .vector, .portableVector:
                        scanVector(bytes, runs: runs, significant: significantWords, stringStops: stopWords, portableMasks: path == .portableVector)
                    case .scalar: scanScalar(bytes, significant: significantWords, stringStops: stopWords)
                    }
                #else
                    scanScalar(bytes, significant: significantWords, stringStops: stopWords)
                #endif
                stopCount = wordCount
            }
            significantCount = wordCount
        }
        self.significant = significant
        self.stringStops = stringStops
        if let invalid = firstInvalidUTF8 { self.stringStops[invalid >> 6] |= 1 << UInt64(invalid & 63) }
    }

    /// The first offset at or after `offset` whose bit is set in `words`; the text's length when
    /// no byte's is. `offset` must not pass the text's length.
    @inline(__always)
    static func next(in words: UnsafeBufferPointer<UInt64>, from offset: Int) -> Int {
        var block = offset &>> 6
        var word = words[block] & (~0 &<< UInt64(offset & 63))
        while word == 0 {
            block &+= 1
            word = words[block]
        }
        return block &<< 6 | word.trailingZeroBitCount
    }

    // MARK: Scalar path

    private mutating func scanScalar(
        _ bytes: UnsafeBufferPointer<UInt8>, significant: UnsafeMutableBufferPointer<UInt64>,
        stringStops: UnsafeMutableBufferPointer<UInt64>
    ) {
        for word in 0..<significant.count {
            var significantBits: UInt64 = 0
            var stopBits: UInt64 = 0
            for lane in 0..<64 {
                let offset = word * 64 + lane
                let bit: UInt64 = 1 << UInt64(lane)
                guard offset < bytes.count else {
                    significantBits |= bit
                    stopBits |= bit
                    continue
                }
                let byte = bytes[offset]
                if !JSONTextScan.isWhitespace(byte) { significantBits |= bit }
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { stopBits |= bit }
                if byte == 0x0A { lineStarts.append(offset + 1) }
                if byte & 0xC0 == 0x80 { continuationsInBlock[offset >> JSONDocument.blockShift] += 1 }
            }
            significant[word] = significantBits
            stringStops[word] = stopBits
        }
        firstInvalidUTF8 = StructuralIndex.firstInvalidUTF8(bytes, from: 0, through: bytes.count).invalid
    }

    // MARK: Vector path

    /// What a run of blocks found besides its bitmap words, merged in text order by `scanVector`.
    private struct RunScan {
        /// The offset of the run's first byte.
        let runStart: Int
        var lineStarts: [Int] = []
        /// UTF-8 continuation bytes of the 4 KiB blocks from `firstBlock` on.
        var firstBlock: Int
        var continuations: [Int32] = []
        /// Where the run's UTF-8 check started: past the continuation bytes (three at most) that
        /// open the run, which a sequence started before it would take.
        var utf8Start: Int
        /// The run's first invalid UTF-8 from `utf8Start`, else where the sequence after its last starts.
        var firstInvalidUTF8: Int?
        var utf8Resume: Int
    }

    /// The text and the bitmaps as the runs share them: each run reads the text and writes only
    /// its own words.
    private struct SharedBuffers: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let significant: UnsafeMutableBufferPointer<UInt64>
        let stringStops: UnsafeMutableBufferPointer<UInt64>
    }

    /// Scans each run of words (concurrently when there are several) and merges what they found.
    /// The UTF-8 check is exact across runs: a run starts its check past the continuation bytes that
    /// open it (at most three: the tail of a sequence begun before it). If the runs before it leave
    /// the check elsewhere, that place is a continuation byte where a sequence must start, so it is
    /// the first invalid byte, unless one was found before.
    private mutating func scanVector(
        _ bytes: UnsafeBufferPointer<UInt8>, runs: ParallelChunks, significant: UnsafeMutableBufferPointer<UInt64>,
        stringStops: UnsafeMutableBufferPointer<UInt64>, portableMasks: Bool
    ) {
        let shared = SharedBuffers(bytes: bytes, significant: significant, stringStops: stringStops)
        let scans = runs.map { words in
            portableMasks
                ? ParseIndex.scanVector(shared, words: words, masks: PortableBlockMasks.self)
                : ParseIndex.scanVector(shared, words: words, masks: NativeBlockMasks.self)
        }
        var resume = 0
        for scan in scans {
            lineStarts += scan.lineStarts
            for (block, count) in scan.continuations.enumerated() where count > 0 {
                continuationsInBlock[scan.firstBlock + block] += count
            }
            guard firstInvalidUTF8 == nil else { continue }
            // The runs before end their last sequence at most three bytes into this one, on a
            // continuation byte of it, so never past its `utf8Start`.
            let checkedTo = max(resume, scan.runStart)
            guard checkedTo == scan.utf8Start else {
                firstInvalidUTF8 = checkedTo
                continue
            }
            firstInvalidUTF8 = scan.firstInvalidUTF8
            resume = scan.utf8Resume
        }
    }

    /// Scans the 64-byte blocks `words` into their bitmap words with `Masks`; returns the rest of
    /// what they hold.
    private static func scanVector<Masks: BlockMasks>(_ shared: SharedBuffers, words: Range<Int>, masks: Masks.Type) -> RunScan {
        let bytes = shared.bytes
        let significant = shared.significant
        let stringStops = shared.stringStops
        let count = bytes.count
        let runStart = words.lowerBound * 64
        let firstBlock = runStart >> JSONDocument.blockShift
        let lastBlock = min((words.upperBound * 64 - 1) >> JSONDocument.blockShift, count >> JSONDocument.blockShift)
        var utf8Start = runStart
        while utf8Start < min(count, runStart + 3), bytes[utf8Start] & 0xC0 == 0x80 { utf8Start += 1 }
        var scan = RunScan(
            runStart: runStart, firstBlock: firstBlock, continuations: [Int32](repeating: 0, count: lastBlock - firstBlock + 1), utf8Start: utf8Start,
            utf8Resume: utf8Start)
        // The last block, padded with zero bytes: significant and a string stop, as the bytes past
        // the end must be, and neither a line feed nor UTF-8.
        let padded = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { padded.deallocate() }
        for word in words {
            let blockStart = word * 64
            let block: UnsafeRawPointer
            if blockStart + 64 <= count, let base = UnsafeRawPointer(bytes.baseAddress) {
                block = base + blockStart
            } else {
                padded.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
                for lane in 0..<max(0, count - blockStart) { padded.storeBytes(of: bytes[blockStart + lane], toByteOffset: lane, as: UInt8.self) }
                block = UnsafeRawPointer(padded)
            }
            // Most blocks of compact text hold no byte below U+0020: then the only whitespace is
            // the space, and there is no line feed to look for.
            let control = Masks.controlCharacters(in: block)
            let stops = Masks.bytes(equalTo: UInt8(ascii: "\""), or: UInt8(ascii: "\\"), in: block) | control
            let whitespace = control == 0 ? Masks.bytes(equalTo: 0x20, in: block) : Masks.whitespace(in: block)
            let highBits = Masks.highBytes(in: block)
            if control != 0 {
                var lineFeeds = Masks.bytes(equalTo: 0x0A, in: block)
                while lineFeeds != 0 {
                    scan.lineStarts.append(blockStart + lineFeeds.trailingZeroBitCount + 1)
                    lineFeeds &= lineFeeds &- 1
                }
            }
            stringStops[word] = stops
            significant[word] = ~whitespace
            guard highBits != 0 else { continue }
            let continuations = Masks.continuationBytes(in: block)
            scan.continuations[(blockStart >> JSONDocument.blockShift) - firstBlock] += Int32(continuations.nonzeroBitCount)
            if scan.firstInvalidUTF8 == nil {
                (scan.firstInvalidUTF8, scan.utf8Resume) = StructuralIndex.firstInvalidUTF8(
                    bytes, inBlockAt: blockStart, high: highBits, resume: scan.utf8Resume)
            }
        }
        return scan
    }
}
