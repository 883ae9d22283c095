import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// `key-mismatch` says what `getFunnel`/`getPaywall(identifier)` finds offline: "the entry under
/// that key" only when `placements` has a key with exactly the identifier's bytes, as the SDK's map
/// compares keys. The audit asks the file's one index of its keys (`FallbackTopLevel.entryIndex(forKey:)`).
@Suite struct KeyMismatchLookupTests {
    /// The identifier as the message ends for it: an entry under exactly those bytes, or none.
    @Test(arguments: [
        // Written as a key of the file, composed (U+00E9).
        ("caf\\u00e9", "the entry under that key"),
        // The same text decomposed (e + U+0301): equal as Swift strings, another key to the SDK.
        ("cafe\\u0301", "nothing"),
        // Written as a key only with another case.
        ("CAF\\u00c9", "nothing"),
        // The key of an entry the SDK skips: the map holds no entry under it.
        ("broken", "nothing"),
        // Another loaded entry's key, written with an escape in the identifier.
        ("\\u0062", "the entry under that key"),
    ])
    func messageNamesWhatTheIdentifierFinds(identifier: String, finds: String) throws {
        let placements = [
            #""caf\u00e9":{"placement":\#(Snap.placement("caf\\u00e9")),"paywall":\#(Snap.paywall())}"#,
            #""b":{"placement":\#(Snap.placement("b")),"paywall":\#(Snap.paywall())}"#,
            #""broken":{"placement":{"identifier":"broken","revision":"one"}}"#,
            #""x":{"placement":\#(Snap.placement(identifier)),"paywall":\#(Snap.paywall())}"#,
        ].joined(separator: ",")
        let text = Snap.file(placements)
        // The whole-file audit asks the records decoded already; `check`'s chunks decode the entry asked about.
        let wholeFile = findings(text).filter { $0.ruleId == "key-mismatch" }
        let chunked = Audit().check(FallbackTopLevel(text: text), chunkSize: 1) { _ in }.findings.filter { $0.ruleId == "key-mismatch" }
        for found in [wholeFile, chunked] {
            let mismatch = try #require(found.first { $0.message.hasPrefix("Placement key \"x\"") })
            #expect(mismatch.message.hasSuffix("finds \(finds) offline."), "\(mismatch.message)")
            #expect(found.count == 1)
        }
    }
}
