@testable import FallbackAudit
@testable import RovenueFallback
import Testing

/// The path a media URL is listed with: member keys and element positions joined by `/`, written
/// straight from the bytes when every key is plain ASCII, decoded otherwise; both ways give the
/// same text.
@Suite("media scan: a URL's path, spelled from bytes or decoded")
struct MediaScanPathTests {
    /// Every URL under the document's root, as `path url`.
    static func listed(_ text: String) -> [String] {
        let document = JSONDocument(text: text)
        var scan = MediaScan(document: document, listingLimit: .max)
        return (scan.urls(under: 0, skippingCopy: false)?.listed ?? []).map { "\($0.path) \($0.url)" }
    }

    @Test func plainKeysAndPositionsAreJoinedBySlashes() {
        #expect(Self.listed(#"{"a":{"imageUrl":"x.png"}}"#) == ["a/imageUrl x.png"])
        #expect(Self.listed(#"[["https://x"],{"b":["https://y"]}]"#) == ["0/0 https://x", "1/b/0 https://y"])
        let ten = (0..<10).map { "\($0)" }.joined(separator: ",")
        #expect(Self.listed(#"{"list":[\#(ten),{"src":"y"}]}"#) == ["list/10/src y"])
    }

    @Test func positionsOfEveryLengthAreWrittenInDecimal() {
        let values = (0..<1001).map { [9, 10, 99, 100, 999, 1000].contains($0) ? #""https://x/\#($0)""# : "0" }
        let expected = [9, 10, 99, 100, 999, 1000].map { "k/\($0) https://x/\($0)" }
        #expect(Self.listed(#"{"k":[\#(values.joined(separator: ","))]}"#) == expected)
    }

    /// Keys with an escape or a non-ASCII byte are decoded, anywhere in the path, and give the
    /// text a plain key with the same characters gives.
    @Test func escapedAndNonASCIIKeysAreDecoded() {
        #expect(Self.listed(#"{"k\u0065y":{"url":"z"}}"#) == ["key/url z"])
        #expect(Self.listed(#"{"a":{"k\"q":["https://x"]}}"#) == [#"a/k"q/0 https://x"#])
        #expect(Self.listed(#"{"é":{"ünï":{"url":"z"}}}"#) == ["é/ünï/url z"])
        #expect(Self.listed(#"{"a":{"\u00e9":{"url":"z"}}}"#) == ["a/é/url z"])
    }

    /// A slash goes before each part but the first written: an empty first key adds none, an
    /// empty key after it leaves two slashes, with or without a decoded key in the path.
    @Test func emptyKeysKeepTheirSlashes() {
        #expect(Self.listed(#"{"":{"url":"z"}}"#) == ["url z"])
        #expect(Self.listed(#"{"":{"":["https://x"]}}"#) == ["0 https://x"])
        #expect(Self.listed(#"{"a":{"":{"url":"z"}}}"#) == ["a//url z"])
        #expect(Self.listed(#"{"":{"\u0061":{"url":"z"}}}"#) == ["a/url z"])
    }

    @Test func deepPathsAndLongKeysAreWrittenWhole() {
        let depth = 100
        let deep = String(repeating: #"{"a":"#, count: depth) + #"{"url":"z"}"# + String(repeating: "}", count: depth)
        #expect(Self.listed(deep) == [Array(repeating: "a", count: depth).joined(separator: "/") + "/url z"])
        let long = String(repeating: "k", count: 10_000)
        #expect(Self.listed(#"{"\#(long)":["https://x"]}"#) == ["\(long)/0 https://x"])
    }
}
