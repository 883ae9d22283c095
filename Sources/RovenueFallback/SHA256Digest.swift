import CSHA256

/// A SHA-256 digest (FIPS 180-4), computed in Swift so that it works wherever Foundation does,
/// Linux included; on a processor with SHA-256 instructions (x86-64 SHA-NI) the compression
/// function runs on them (`CSHA256`), with the same result.
public struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The digest's eight words, each read big-endian from four of its bytes: held inline, not as
    /// an array, since a history keeps one for every revision of every placement (an array of 32
    /// bytes took 64 on the heap, and an allocation each).
    private let words: SIMD8<UInt32>

    /// The 32 bytes of the digest.
    public var bytes: [UInt8] {
        (0..<32).map { UInt8(truncatingIfNeeded: words[$0 / 4] >> (24 - 8 * UInt32($0 % 4))) }
    }

    /// The first four bytes of the digest, read as a big-endian integer.
    package var leadingWord: UInt32 { words[0] }

    /// The digest of `bytes`.
    public init(of bytes: some Sequence<UInt8>) {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        self = hasher.finalize()
    }

    fileprivate init(words: SIMD8<UInt32>) {
        self.words = words
    }

    /// The digest as 64 lowercase hexadecimal digits.
    public var hexString: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: 64) { text in
            for index in 0..<64 {
                text[index] = digits[Int(words[index / 8] >> (28 - 4 * UInt32(index % 8)) & 0xF)]
            }
            return 64
        }
    }

    public var description: String { hexString }
}

/// Computes a SHA-256 digest from bytes supplied in pieces.
///
/// ```swift
/// var hasher = SHA256Hasher()
/// hasher.update(header)
/// hasher.update(body)
/// let digest = hasher.finalize()
/// ```
public struct SHA256Hasher: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
        0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    /// Whether whole blocks go through the processor's SHA-256 instructions (`CSHA256`) rather
    /// than the Swift rounds below: true where the processor has them. Tests set it to false to
    /// compare the two; both give the same digest.
    package var usesHardware = SHA256Hasher.hardwareAvailable
    /// Whether this processor has the SHA-256 instructions (x86-64 SHA-NI; asked once).
    package static let hardwareAvailable = fallback_sha256_hardware_available() != 0
    /// Bytes not yet hashed because they do not fill a 64-byte block; always fewer than 64.
    private var pending: [UInt8] = []
    private var byteCount: UInt64 = 0

    /// A hasher that has seen no bytes yet.
    public init() {}

    /// Appends `bytes` to the message.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
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
    public func finalize() -> SHA256Digest {
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

        return SHA256Digest(words: SIMD8(
            copy.state.0, copy.state.1, copy.state.2, copy.state.3, copy.state.4, copy.state.5, copy.state.6, copy.state.7))
    }

    /// Runs the compression function over `blocks`, whose length is a multiple of 64: with the
    /// processor's SHA-256 instructions where it has them (SHA-256 fell from 20% of a `history`'s
    /// CPU samples to about 5%), else in Swift.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        guard let base = blocks.baseAddress, blocks.count >= 64 else { return }
        if usesHardware {
            // SAFETY: a tuple of eight `UInt32`s is laid out as eight contiguous words.
            withUnsafeMutablePointer(to: &state) { tuple in
                tuple.withMemoryRebound(to: UInt32.self, capacity: 8) { words in
                    fallback_sha256_compress_blocks(words, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
                }
            }
            return
        }
        compressInSwift(blocks: blocks)
    }

    /// `compress(blocks:)` in Swift, for processors without SHA-256 instructions.
    ///
    /// The 64 rounds are written out (generated, one line a round): the message schedule is
    /// sixteen local words overwritten in place, the eight working variables rotate by name rather
    /// than by moving, and the round constants are literals, so a block is plain register
    /// arithmetic with no array, bounds check or loop counter.
    private mutating func compressInSwift(blocks: UnsafeRawBufferPointer) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        var offset = 0
        while offset < blocks.count {
            do {
                var w0 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 0, as: UInt32.self))
                var w1 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                var w2 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self))
                var w3 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                var w4 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 16, as: UInt32.self))
                var w5 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 20, as: UInt32.self))
                var w6 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 24, as: UInt32.self))
                var w7 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 28, as: UInt32.self))
                var w8 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 32, as: UInt32.self))
                var w9 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 36, as: UInt32.self))
                var w10 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 40, as: UInt32.self))
                var w11 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 44, as: UInt32.self))
                var w12 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 48, as: UInt32.self))
                var w13 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 52, as: UInt32.self))
                var w14 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 56, as: UInt32.self))
                var w15 = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + 60, as: UInt32.self))
                var (v0, v1, v2, v3, v4, v5, v6, v7) = (h0, h1, h2, h3, h4, h5, h6, h7)
                var bc = v1 ^ v2
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0x428a_2f98 &+ w0)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0x7137_4491 &+ w1)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0xb5c0_fbcf &+ w2)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0xe9b5_dba5 &+ w3)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x3956_c25b &+ w4)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0x59f1_11f1 &+ w5)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x923f_82a4 &+ w6)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0xab1c_5ed5 &+ w7)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0xd807_aa98 &+ w8)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0x1283_5b01 &+ w9)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0x2431_85be &+ w10)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0x550c_7dc3 &+ w11)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x72be_5d74 &+ w12)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0x80de_b1fe &+ w13)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x9bdc_06a7 &+ w14)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0xc19b_f174 &+ w15)
                w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0xe49b_69c1 &+ w0)
                w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0xefbe_4786 &+ w1)
                w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0x0fc1_9dc6 &+ w2)
                w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0x240c_a1cc &+ w3)
                w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x2de9_2c6f &+ w4)
                w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0x4a74_84aa &+ w5)
                w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x5cb0_a9dc &+ w6)
                w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0x76f9_88da &+ w7)
                w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0x983e_5152 &+ w8)
                w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0xa831_c66d &+ w9)
                w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0xb003_27c8 &+ w10)
                w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0xbf59_7fc7 &+ w11)
                w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0xc6e0_0bf3 &+ w12)
                w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0xd5a7_9147 &+ w13)
                w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x06ca_6351 &+ w14)
                w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0x1429_2967 &+ w15)
                w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0x27b7_0a85 &+ w0)
                w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0x2e1b_2138 &+ w1)
                w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0x4d2c_6dfc &+ w2)
                w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0x5338_0d13 &+ w3)
                w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x650a_7354 &+ w4)
                w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0x766a_0abb &+ w5)
                w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x81c2_c92e &+ w6)
                w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0x9272_2c85 &+ w7)
                w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0xa2bf_e8a1 &+ w8)
                w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0xa81a_664b &+ w9)
                w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0xc24b_8b70 &+ w10)
                w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0xc76c_51a3 &+ w11)
                w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0xd192_e819 &+ w12)
                w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0xd699_0624 &+ w13)
                w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0xf40e_3585 &+ w14)
                w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0x106a_a070 &+ w15)
                w0 = w0 &+ smallSigma0(w1) &+ w9 &+ smallSigma1(w14)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0x19a4_c116 &+ w0)
                w1 = w1 &+ smallSigma0(w2) &+ w10 &+ smallSigma1(w15)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0x1e37_6c08 &+ w1)
                w2 = w2 &+ smallSigma0(w3) &+ w11 &+ smallSigma1(w0)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0x2748_774c &+ w2)
                w3 = w3 &+ smallSigma0(w4) &+ w12 &+ smallSigma1(w1)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0x34b0_bcb5 &+ w3)
                w4 = w4 &+ smallSigma0(w5) &+ w13 &+ smallSigma1(w2)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x391c_0cb3 &+ w4)
                w5 = w5 &+ smallSigma0(w6) &+ w14 &+ smallSigma1(w3)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0x4ed8_aa4a &+ w5)
                w6 = w6 &+ smallSigma0(w7) &+ w15 &+ smallSigma1(w4)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0x5b9c_ca4f &+ w6)
                w7 = w7 &+ smallSigma0(w8) &+ w0 &+ smallSigma1(w5)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0x682e_6ff3 &+ w7)
                w8 = w8 &+ smallSigma0(w9) &+ w1 &+ smallSigma1(w6)
                sha256Round(&v3, &v7, &bc, v0, v1, v2, v4, v5, v6, 0x748f_82ee &+ w8)
                w9 = w9 &+ smallSigma0(w10) &+ w2 &+ smallSigma1(w7)
                sha256Round(&v2, &v6, &bc, v7, v0, v1, v3, v4, v5, 0x78a5_636f &+ w9)
                w10 = w10 &+ smallSigma0(w11) &+ w3 &+ smallSigma1(w8)
                sha256Round(&v1, &v5, &bc, v6, v7, v0, v2, v3, v4, 0x84c8_7814 &+ w10)
                w11 = w11 &+ smallSigma0(w12) &+ w4 &+ smallSigma1(w9)
                sha256Round(&v0, &v4, &bc, v5, v6, v7, v1, v2, v3, 0x8cc7_0208 &+ w11)
                w12 = w12 &+ smallSigma0(w13) &+ w5 &+ smallSigma1(w10)
                sha256Round(&v7, &v3, &bc, v4, v5, v6, v0, v1, v2, 0x90be_fffa &+ w12)
                w13 = w13 &+ smallSigma0(w14) &+ w6 &+ smallSigma1(w11)
                sha256Round(&v6, &v2, &bc, v3, v4, v5, v7, v0, v1, 0xa450_6ceb &+ w13)
                w14 = w14 &+ smallSigma0(w15) &+ w7 &+ smallSigma1(w12)
                sha256Round(&v5, &v1, &bc, v2, v3, v4, v6, v7, v0, 0xbef9_a3f7 &+ w14)
                w15 = w15 &+ smallSigma0(w0) &+ w8 &+ smallSigma1(w13)
                sha256Round(&v4, &v0, &bc, v1, v2, v3, v5, v6, v7, 0xc671_78f2 &+ w15)
                h0 &+= v0; h1 &+= v1; h2 &+= v2; h3 &+= v3
                h4 &+= v4; h5 &+= v5; h6 &+= v6; h7 &+= v7
            }
            offset += 64
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }
}

/// One SHA-256 round (FIPS 180-4, 6.2.2 step 3) with the working variables named as they stand
/// this round: `d` becomes the new `e` and `h` the new `a`; `constantAndWord` is `K[t] + W[t]`.
/// `bc` holds `b ⊕ c` on the way in and `a ⊕ b` (the next round's `b ⊕ c`) on the way out.
@inline(__always)
private func sha256Round(
    _ d: inout UInt32, _ h: inout UInt32, _ bc: inout UInt32, _ a: UInt32, _ b: UInt32, _ c: UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32,
    _ constantAndWord: UInt32
) {
    // Σ1(e) = ROTR⁶ ⊕ ROTR¹¹ ⊕ ROTR²⁵ and Σ0(a) = ROTR² ⊕ ROTR¹³ ⊕ ROTR²², each as rotations of
    // one running value: x86-64's rotate overwrites its operand, so three rotations of `e` cost a
    // copy each, where the chain needs one.
    let bigSigma1 = rotr(rotr(rotr(e, 14) ^ e, 5) ^ e, 6)
    // Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g): where `e` has a 1 take `f`, else `g`.
    let choice = g ^ (e & (f ^ g))
    let t1 = h &+ bigSigma1 &+ choice &+ constantAndWord
    let bigSigma0 = rotr(rotr(rotr(a, 9) ^ a, 11) ^ a, 2)
    // Maj(a, b, c): where `a` and `b` differ, `c` decides, else `b`.
    let ab = a ^ b
    let majority = (ab & bc) ^ b
    bc = ab
    d &+= t1
    h = t1 &+ bigSigma0 &+ majority
}

@inline(__always)
private func smallSigma0(_ x: UInt32) -> UInt32 {
    // ROTR⁷ ⊕ ROTR¹⁸ ⊕ SHR³, the rotations chained as in Σ.
    rotr(rotr(x, 11) ^ x, 7) ^ (x >> 3)
}

@inline(__always)
private func smallSigma1(_ x: UInt32) -> UInt32 {
    // ROTR¹⁷ ⊕ ROTR¹⁹ ⊕ SHR¹⁰.
    rotr(rotr(x, 2) ^ x, 17) ^ (x >> 10)
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
    (x >> n) | (x << (32 - n))
}
