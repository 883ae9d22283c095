import Testing
@testable import FallbackSite

/// `PageValues.substitutedBytes(in:)` skips, 16 bytes at a time, to the one byte that can change
/// the markup position or start a token (issue 10, render cost). The skip must find the same byte
/// a byte-by-byte scan finds, and tokens must be replaced, in the form for where they stand,
/// wherever they fall against the 16-byte blocks.
@Suite("Token substitution scan")
struct SubstituteScanTests {
    @Test func theSkipFindsTheFirstOfTwoBytesAsAByteByByteScanDoes() {
        let alphabet: [UInt8] = Array("ab<\"'z é".utf8)
        var state: UInt64 = 0x5EED
        for length in 0..<70 {
            for _ in 0..<20 {
                let bytes = (0..<length).map { _ -> UInt8 in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    // Mostly plain letters, so hits fall in every lane of a block and past it.
                    return state >> 60 < 13 ? UInt8(ascii: "a") : alphabet[Int(state >> 33) % alphabet.count]
                }
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        for (first, second) in [(UInt8(ascii: "<"), UInt8(ascii: "z")), (UInt8(ascii: "\""), UInt8(ascii: "z")), (0xC3, UInt8(ascii: "'"))] {
                            let expected = (start..<length).first { buffer[$0] == first || buffer[$0] == second } ?? length
                            #expect(PageValues.firstIndex(of: first, or: second, in: buffer, from: start) == expected)
                        }
                    }
                }
            }
        }
        #expect(PageValues.firstIndex(of: 1, or: 2, in: UnsafeBufferPointer(start: nil, count: 0), from: 0) == 0)
    }

    /// Text, attributes in both quotes, a plain-text element and near-tokens, shifted across every
    /// offset of a 16-byte block.
    @Test(arguments: 0..<34)
    func tokensAreReplacedWhereverTheyFall(shift: Int) {
        let values = PageValues()
        let hostile = "<script>x</script> \"q\" 'a' é \u{202E}"
        let value = values.escaping.escape(hostile)
        let trusted = values.html("<b>é</b>")
        let padding = String(repeating: "p", count: shift)
        let page = padding + "<title>z\(value)zz</title><p title=\"zqxv \(value)\" data-x='\(value)'>zqx\(value)\(trusted.token)</p>"
            + "<a\nhref=\(value)>\(value)</a><textarea>\(value)</textarea>\(value)"
        let html = SnapshotText.html(hostile)
        let attribute = SnapshotText.attribute(hostile)
        let expected = padding + "<title>z\(SnapshotText.plainText(hostile))zz</title><p title=\"zqxv \(attribute)\" data-x='\(attribute)'>zqx\(html)<b>é</b></p>"
            + "<a\nhref=\(attribute)>\(html)</a><textarea>\(SnapshotText.plainText(hostile))</textarea>\(html)"
        #expect(values.substitute(in: page) == expected)
    }
}
