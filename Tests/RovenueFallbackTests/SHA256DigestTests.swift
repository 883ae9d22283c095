import Testing
import RovenueFallback

struct SHA256DigestTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let message: [UInt8]
        let expected: String

        init(_ name: String, _ message: [UInt8], _ expected: String) {
            self.name = name
            self.message = message
            self.expected = expected
        }

        var testDescription: String { name }
    }

    /// FIPS 180-2, appendix B, and the empty message.
    static let publishedVectors: [Vector] = [
        Vector("empty", [], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector("abc", Array("abc".utf8), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector(
            "448-bit message",
            Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        Vector(
            "896-bit message",
            Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8),
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        Vector(
            "one million a",
            [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        ),
    ]

    /// Lengths around the padding boundaries; expected digests from Python's `hashlib`.
    static let boundaryVectors: [Vector] = [
        Vector("55 bytes", pattern(count: 55), "8aa994584139d128848eeebc4e815639ba5ab6e6e39574195a63ac4f14f7c43b"),
        Vector("56 bytes", pattern(count: 56), "ad574708f75c044c9b85de64cb568ee7711ff4f36448c6242f053ba8f6cc2b63"),
        Vector("63 bytes", pattern(count: 63), "280ed3e8ff1df845b2e7dfe6ac6cee817bef20e783cc65abc41b818b4d2fe076"),
        Vector("64 bytes", pattern(count: 64), "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd"),
        Vector("65 bytes", pattern(count: 65), "788367c73c7ddf4c53f65e68cc0d943e6227ab55b0e78ba63ace822b1c6301c0"),
    ]

    /// `bytes((i * 31 + 7) & 0xff for i in range(count))` in Python.
    static func pattern(count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    @Test(arguments: publishedVectors + boundaryVectors)
    func digestMatches(_ vector: Vector) {
        let digest = SHA256Digest(of: vector.message)
        #expect(digest.hexString == vector.expected)
        #expect(digest.bytes.count == 32)
    }

    /// The digest of `message` with the Swift rounds only, or with the processor's instructions.
    static func digest(of message: [UInt8], hardware: Bool) -> SHA256Digest {
        var hasher = SHA256Hasher()
        hasher.usesHardware = hardware
        hasher.update(message)
        return hasher.finalize()
    }

    /// Both compression functions give the published digests (the hardware one where this
    /// processor has it; `hardwareAvailable` is false on others, and on Linux x86-64 CI true).
    @Test(arguments: publishedVectors + boundaryVectors)
    func bothCompressionFunctionsMatchThePublishedDigests(_ vector: Vector) {
        #expect(Self.digest(of: vector.message, hardware: false).hexString == vector.expected)
        if SHA256Hasher.hardwareAvailable {
            #expect(Self.digest(of: vector.message, hardware: true).hexString == vector.expected)
        }
    }

    /// Every length from 0 to 600 bytes, and pieces fed at odd sizes, give the same digest with the
    /// processor's instructions as with the Swift rounds, for bytes of every value.
    @Test(.enabled(if: SHA256Hasher.hardwareAvailable, "this processor has no SHA-256 instructions"))
    func hardwareAndSwiftAgreeOnEveryLengthAndSplit() {
        var generator = SystemRandomNumberGenerator()
        let message = (0..<600).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for length in 0...message.count {
            let prefix = Array(message.prefix(length))
            #expect(Self.digest(of: prefix, hardware: true) == Self.digest(of: prefix, hardware: false), "length \(length)")
        }
        for pieceSize in [1, 7, 63, 64, 65, 129] {
            var hardware = SHA256Hasher()
            var software = SHA256Hasher()
            software.usesHardware = false
            for start in stride(from: 0, to: message.count, by: pieceSize) {
                let piece = message[start..<min(start + pieceSize, message.count)]
                hardware.update(piece)
                software.update(piece)
            }
            #expect(hardware.finalize() == software.finalize(), "pieces of \(pieceSize)")
        }
    }

    @Test(arguments: [1, 3, 55, 63, 64, 65, 127, 1000])
    func incrementalUpdatesMatchOneShot(chunkSize: Int) {
        let message = Self.pattern(count: 10_000)
        var hasher = SHA256Hasher()
        var start = 0
        while start < message.count {
            let end = min(start + chunkSize, message.count)
            hasher.update(message[start..<end])
            start = end
        }
        #expect(hasher.finalize().hexString == "470b2cd71bff57ce8be0be3fc23df273052c4bb10a1235fddb8f158d6f928546")
    }

    @Test func finalizeLeavesTheHasherUsable() {
        var hasher = SHA256Hasher()
        hasher.update("ab".utf8)
        _ = hasher.finalize()
        hasher.update("c".utf8)
        #expect(hasher.finalize() == SHA256Digest(of: "abc".utf8))
    }

    @Test func acceptsNonContiguousSequences() {
        let lazyBytes = (0..<64).lazy.map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(SHA256Digest(of: lazyBytes).hexString == "c6ab9724ade5b6a7a1edfffb12f3aa9181351355af8fd08c919952ad211339dd")
    }

    @Test func bytesAreTheDigestInOrder() {
        let digest = SHA256Digest(of: "abc".utf8)
        #expect(digest.bytes.prefix(4) == [0xba, 0x78, 0x16, 0xbf])
        #expect(digest.bytes.suffix(4) == [0xf2, 0x00, 0x15, 0xad])
        #expect(digest.description == digest.hexString)
    }
}
