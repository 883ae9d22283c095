extension StructuralIndex {
    /// One past the bracket that closes the container whose `{` or `[` is at `start`, without
    /// parsing it: brackets outside strings are counted, `{` and `[` up, `}` and `]` down (of
    /// either kind), until the count is back to zero; nil when the text ends first. A string runs
    /// from a quote outside strings to the next quote that a backslash does not escape; inside one a
    /// backslash skips the byte after it, outside strings it is a byte like any other. For tools that
    /// pass over a large value to reach what follows it (`GeneratedAtScan`); on valid JSON it is where
    /// the value ends. Nil too when the byte at `start` opens no container.
    ///
    /// The vector path reads 64 bytes at a time with the masks of `scanVector`: the quotes no
    /// backslash escapes, the string spans by prefix XOR, and the brackets outside them; a block where
    /// the count cannot reach zero is counted by population counts alone. Its escapes are simdjson's,
    /// defined for backslashes in strings; at a block with a backslash outside every string it goes
    /// on one byte at a time from that block's start, as the scalar path does, so both give the same
    /// offset for any text.
    package static func endOfContainer(in bytes: UnsafeBufferPointer<UInt8>, openingAt start: Int, path: Path = .vector) -> Int? {
        guard start >= 0, start < bytes.count, bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else { return nil }
        switch path {
        case .vector, .portableVector:
            #if _endian(little)
                return vectorEndOfContainer(bytes, from: start)
            #else
                return scalarEndOfContainer(bytes, from: start, depth: 0, inString: false, skippingFirst: false)
            #endif
        case .scalar:
            return scalarEndOfContainer(bytes, from: start, depth: 0, inString: false, skippingFirst: false)
        }
    }

    /// The scalar path, from `index` with `depth` brackets open and, when `inString`, inside a string
    /// (whose byte at `index` an escaping backslash before it skips, when `skippingFirst`).
    private static func scalarEndOfContainer(
        _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, depth: Int, inString: Bool, skippingFirst: Bool
    ) -> Int? {
        var index = skippingFirst ? index + 1 : index
        var depth = depth
        var inString = inString
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
            } else {
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default: break
                }
            }
            index += 1
        }
        return nil
    }

    private static func vectorEndOfContainer(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        let count = bytes.count
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return nil }
        let laneBits = StructuralIndex.laneBits
        let quoteBytes = SIMD64<UInt8>(repeating: UInt8(ascii: "\""))
        let backslashBytes = SIMD64<UInt8>(repeating: UInt8(ascii: "\\"))
        let braceOpen = SIMD64<UInt8>(repeating: UInt8(ascii: "{"))
        let braceClose = SIMD64<UInt8>(repeating: UInt8(ascii: "}"))
        let bracketOpen = SIMD64<UInt8>(repeating: UInt8(ascii: "["))
        let bracketClose = SIMD64<UInt8>(repeating: UInt8(ascii: "]"))
        var nextIsEscaped: UInt64 = 0
        var inStringCarry: UInt64 = 0
        var depth = 0
        var blockStart = start
        while blockStart < count {
            let block = StructuralIndex.block(of: bytes, at: blockStart, base: base)
            let backslash = StructuralIndex.bits(block .== backslashBytes, laneBits)
            let (escaped, escape) = StructuralIndex.escapes(backslash: backslash, nextIsEscaped: nextIsEscaped)
            let quote = StructuralIndex.bits(block .== quoteBytes, laneBits) & ~escaped
            let inString = StructuralIndex.prefixXOR(quote) ^ inStringCarry
            if backslash & ~inString != 0 {
                // A backslash outside strings escapes nothing here: on one byte at a time, from this
                // block's start, in the state it starts in.
                return scalarEndOfContainer(
                    bytes, from: blockStart, depth: depth, inString: inStringCarry != 0, skippingFirst: nextIsEscaped != 0)
            }
            nextIsEscaped = escape >> 63
            inStringCarry = UInt64(bitPattern: Int64(bitPattern: inString) >> 63)

            let open = StructuralIndex.bits((block .== braceOpen) .| (block .== bracketOpen), laneBits) & ~inString
            let close = StructuralIndex.bits((block .== braceClose) .| (block .== bracketClose), laneBits) & ~inString
            let closeCount = close.nonzeroBitCount
            if depth > closeCount {
                depth += open.nonzeroBitCount - closeCount
            } else {
                var events = open | close
                while events != 0 {
                    let lane = events.trailingZeroBitCount
                    let bit: UInt64 = 1 << UInt64(lane)
                    if open & bit != 0 {
                        depth += 1
                    } else {
                        depth -= 1
                        if depth == 0 { return blockStart + lane + 1 }
                    }
                    events &= events &- 1
                }
            }
            blockStart += 64
        }
        return nil
    }
}
