import RovenueFallback

/// Line and column of byte offsets in constant time per query, whatever the line length.
///
/// `JSONDocument.position(ofOffset:)` scans from the start of the line, which on a compact
/// (single-line) 50 MB export costs the whole offset per call. This makes one pass and keeps the
/// position every `stride` bytes; a query scans at most `stride` bytes. Positions match
/// `JSONDocument`'s: lines start after `\n`, columns count Unicode scalars from 1.
struct TextLocator {
    private static let stride = 512
    private let bytes: [UInt8]
    private var lines: [Int32] = []
    private var columns: [Int32] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
        let checkpoints = bytes.count / Self.stride + 1
        lines.reserveCapacity(checkpoints)
        columns.reserveCapacity(checkpoints)
        var line: Int32 = 1
        var column: Int32 = 1
        bytes.withUnsafeBufferPointer { buffer in
            for offset in 0..<buffer.count {
                if offset % Self.stride == 0 {
                    lines.append(line)
                    columns.append(column)
                }
                let byte = buffer[offset]
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
        }
        if bytes.count % Self.stride == 0 {
            lines.append(line)
            columns.append(column)
        }
    }

    func position(ofOffset offset: Int) -> JSONDocument.Position {
        let offset = max(0, min(offset, bytes.count))
        let checkpoint = offset / Self.stride
        var line = Int(lines[checkpoint])
        var column = Int(columns[checkpoint])
        for index in checkpoint * Self.stride..<offset {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONDocument.Position(line: line, column: column)
    }
}
