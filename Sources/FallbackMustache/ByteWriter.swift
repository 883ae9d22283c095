/// Where UTF-8 bytes are written: a `[UInt8]` (a drawing), or a `ByteWriter` (a template's render,
/// a page's substitution, a source listing). The site's byte helpers (`ListingBytes`,
/// `SnapshotText.appendHTML`) write to either.
///
/// It lives here, in the lowest module that writes bytes this way, so that FallbackMustache's
/// renderer and FallbackSite share one writer.
public protocol ByteSink: ~Copyable {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(byte: UInt8)
}

extension ByteSink where Self: ~Copyable {
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(bytes: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `text`'s UTF-8.
    @inlinable @inline(__always)
    public mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append(bytes: $0) }
    }

    @inlinable @inline(__always)
    public mutating func append(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append(bytes: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inlinable
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }

    @inlinable
    public mutating func append(byte: UInt8) {
        append(byte)
    }
}

/// A growing run of bytes that appends a short piece in a few instructions (issue 10): an
/// `[UInt8]`'s `append(contentsOf:)` costs about a hundred instructions a call (a generic,
/// unspecialised-size copy, a uniqueness and a capacity check), and a page or a source listing is
/// made of millions of pieces of a few bytes. `take()` gives the bytes as an array.
///
/// Its appends are `@inlinable`: every module that writes pages calls them in its innermost loops.
public struct ByteWriter: ~Copyable, ByteSink {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    /// The bytes written so far.
    @usableFromInline var written = 0
    @usableFromInline var capacity: Int
    /// False while the bytes are written into memory the writer does not own (an array's
    /// storage, `array(capacity:_:)`), which it then neither frees nor grows in place.
    @usableFromInline var ownsMemory = true

    public init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = .allocate(capacity: self.capacity)
    }

    /// A writer into `buffer`, which it does not own; it moves to memory of its own if it grows.
    private init(borrowing buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress!
        capacity = buffer.count
        ownsMemory = false
    }

    deinit { if ownsMemory { start.deallocate() } }

    /// The bytes `body` writes, as an array made with room for `capacity` bytes, written in
    /// place: a writer's `take()` copies its bytes into a new array, which for a page (written
    /// then taken twice, as its body and as the whole page) cost as much as a tenth of its
    /// substitution. Past `capacity` the writer grows as any does, and the bytes are copied
    /// once at the end. The array keeps the room it was made with.
    public static func array(capacity: Int, _ body: (inout ByteWriter) -> Void) -> [UInt8] {
        var grown: [UInt8]?
        let bytes = [UInt8](unsafeUninitializedCapacity: max(capacity, 64)) { buffer, initialized in
            var writer = ByteWriter(borrowing: buffer)
            body(&writer)
            if writer.ownsMemory {
                grown = writer.take()
            } else {
                initialized = writer.written
            }
        }
        return grown ?? bytes
    }

    /// How many bytes have been written.
    @inlinable public var count: Int { written }

    @inlinable @inline(__always)
    public mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        let length = bytes.count
        guard length > 0, let source = bytes.baseAddress else { return }
        if length > capacity - written { grow(toHold: length) }
        let target = UnsafeMutableRawPointer(start + written)
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
        written += length
    }

    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) {
        if written == capacity { grow(toHold: 1) }
        start[written] = byte
        written += 1
    }

    /// Room for `length` more bytes: at least double the capacity, so that appends stay linear.
    @usableFromInline @inline(never)
    mutating func grow(toHold length: Int) {
        let newCapacity = max(capacity * 2, written + length)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        UnsafeMutableRawPointer(new).copyMemory(from: start, byteCount: written)
        if ownsMemory { start.deallocate() }
        start = new
        capacity = newCapacity
        ownsMemory = true
    }

    /// The bytes written so far, as an array; the writer is left empty.
    public mutating func take() -> [UInt8] {
        let count = written
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress { UnsafeMutableRawPointer(target).copyMemory(from: start, byteCount: count) }
            initialized = count
        }
        written = 0
        return bytes
    }
}
