import Testing
import RovenueFallback

/// The unrolled compression function (issue 10: the snapshot's digest was 70 instructions a byte)
/// against the loop it replaced, kept here as the oracle: digests of every length up to a few
/// blocks, of pseudo-random megabytes, and fed in uneven pieces. Bucketing hashes with this type,
/// so it must be exact.
@Suite("SHA-256 against the reference loop")
struct SHA256ReferenceTests {
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    static func reference(_ message: [UInt8]) -> [UInt8] {
        var hasher = ReferenceSHA256Hasher()
        hasher.update(message)
        return hasher.finalize()
    }

    @Test func everyLengthUpToFourBlocksMatchesTheReference() {
        for length in 0...260 {
            for seed: UInt64 in [1, 2] {
                let message = Self.bytes(length, seed: seed &* 1000 &+ UInt64(length))
                #expect(SHA256Digest(of: message).bytes == Self.reference(message), "\(length) bytes")
            }
        }
        for byte: UInt8 in [0x00, 0xFF, 0x80] {
            let message = [UInt8](repeating: byte, count: 200)
            #expect(SHA256Digest(of: message).bytes == Self.reference(message))
        }
    }

    @Test(arguments: [1_000_000, 1_048_576 + 37])
    func megabytesMatchTheReference(length: Int) {
        let message = Self.bytes(length, seed: UInt64(length))
        #expect(SHA256Digest(of: message).bytes == Self.reference(message))
        var hasher = SHA256Hasher()
        var start = 0
        var step = 1
        while start < message.count {
            let end = min(start + step, message.count)
            hasher.update(message[start..<end])
            start = end
            step = step * 3 % 1001 + 1
        }
        #expect(hasher.finalize().bytes == Self.reference(message))
    }
}

/// The loop `SHA256Hasher.compress(blocks:)` ran before it was unrolled, as it was.
struct ReferenceSHA256Hasher {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
        0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Bytes not yet hashed because they do not fill a 64-byte block; always fewer than 64.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    /// A hasher that has seen no bytes yet.
    init() {}

    /// Appends `bytes` to the message.
    mutating func update(_ bytes: some Sequence<UInt8>) {
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            absorb(UnsafeRawBufferPointer(buffer))
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { absorb($0) }
        }
    }

    private mutating func absorb(_ buffer: UnsafeRawBufferPointer) {
        guard !buffer.isEmpty else { return }
        byteCount &+= UInt64(buffer.count)
        var input = buffer[...]

        if !pending.isEmpty {
            let taken = min(64 - pending.count, input.count)
            pending.append(contentsOf: input.prefix(taken))
            input = input.dropFirst(taken)
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress(blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }

        let wholeBlocks = input.count / 64 * 64
        if wholeBlocks > 0 {
            compress(blocks: UnsafeRawBufferPointer(rebasing: input.prefix(wholeBlocks)))
        }
        pending.append(contentsOf: input.dropFirst(wholeBlocks))
    }

    /// The digest of everything passed to `update` so far.
    func finalize() -> [UInt8] {
        var copy = self
        let bitCount = byteCount &* 8
        var tail = copy.pending
        tail.append(0x80)
        while tail.count % 64 != 56 {
            tail.append(0)
        }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitCount >> UInt64(shift)))
        }
        tail.withUnsafeBytes { copy.compress(blocks: $0) }

        let words = [copy.state.0, copy.state.1, copy.state.2, copy.state.3,
                     copy.state.4, copy.state.5, copy.state.6, copy.state.7]
        var digest = [UInt8]()
        digest.reserveCapacity(32)
        for word in words {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// Runs the compression function over `blocks`, whose length is a multiple of 64.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var (h0, h1, h2, h3, h4, h5, h6, h7) = state
                var offset = 0
                while offset < blocks.count {
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4 * t, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t - 15], y = w[t - 2]
                        let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                        let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }

                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for t in 0..<64 {
                        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[t] &+ w[t]
                        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }

                    h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d
                    h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
                    offset += 64
                }
                state = (h0, h1, h2, h3, h4, h5, h6, h7)
            }
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x >> n) | (x << (32 - n))
}
