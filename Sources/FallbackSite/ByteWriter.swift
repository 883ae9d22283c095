/// Where the page path writes UTF-8 bytes: a `[UInt8]` (a drawing), or a `ByteWriter` (a page's
/// substitution, a source listing). The byte helpers (`ListingBytes`, `SnapshotText.appendHTML`)
/// write to either.
protocol ByteSink: ~Copyable {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(byte: UInt8)
}

extension ByteSink where Self: ~Copyable {
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text`'s UTF-8.
    @inline(__always)
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    @inline(__always)
    mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(bytes: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    mutating func append(byte: UInt8) {
        append(byte)
    }
}

/// A growing run of bytes that appends a short piece in a few instructions (issue 10): an
/// `[UInt8]`'s `append(contentsOf:)` costs about a hundred instructions a call (a generic,
/// unspecialised-size copy, a uniqueness and a capacity check), and a page or a source listing is
/// made of millions of pieces of a few bytes. `take()` gives the bytes as an array.
struct ByteWriter: ~Copyable, ByteSink {
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    @inline(__always)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        if length > capacity - count { grow(toHold: length) }
        let target = UnsafeMutableRawPointer(start + count)
        let from = UnsafeRawPointer(source)
        // Short pieces as two overlapping loads and stores, not a call to memcpy.
        switch length {
        case 1...3:
            target.storeBytes(of: source[0], as: UInt8.self)
            target.storeBytes(of: source[length / 2], toByteOffset: length / 2, as: UInt8.self)
            target.storeBytes(of: source[length - 1], toByteOffset: length - 1, as: UInt8.self)
        case 4...8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: length - 4, as: UInt32.self)
        case 9...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: length - 8, as: UInt64.self)
        default:
            target.copyMemory(from: from, byteCount: length)
        }
        count += length
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        start[count] = byte
        count += 1
    }

    /// Room for `length` more bytes: at least double the capacity, so that appends stay linear.
    @inline(never)
    private mutating func grow(toHold length: Int) {
        let newCapacity = max(capacity * 2, count + length)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        UnsafeMutableRawPointer(new).copyMemory(from: start, byteCount: count)
        start.deallocate()
        start = new
        capacity = newCapacity
    }

    /// The bytes written so far, as an array; the writer is left empty.
    mutating func take() -> [UInt8] {
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress { UnsafeMutableRawPointer(target).copyMemory(from: start, byteCount: count) }
            initialized = count
        }
        count = 0
        return bytes
    }
}
