import RovenueFallback
import Testing

@testable import FallbackAudit
import FallbackTestSupport

/// `key-mismatch` ends with what `getFunnel`/`getPaywall(identifier)` finds offline: "the entry
/// under that key" only when `placements` has a key with exactly the identifier's bytes, as the
/// SDK's map compares keys, and the SDK loads that entry (a skipped entry is not in its map, §3);
/// when that entry serves nothing (§5), the message says so. The audit finds the key in the file's
/// index of its keys (`FallbackTopLevel.entryIndex(forKey:)`). Both audit paths give the same words.
@Suite struct KeyMismatchLookupTests {
    static let paywall = Snap.paywall()
    /// The entries beside the one checked, under `caf\u00e9` (composed), `b`, `broken` (skipped),
    /// `empty` (loads, serves nothing), `twice` (first skipped, then loaded) and `lost` (first
    /// loaded, then skipped).
    static let others = [
        #""caf\u00e9":{"placement":\#(Snap.placement("caf\\u00e9")),"paywall":\#(paywall)}"#,
        #""b":{"placement":\#(Snap.placement("b")),"paywall":\#(paywall)}"#,
        #""broken":{"placement":{"identifier":"broken","revision":"one"}}"#,
        #""empty":{}"#,
        #""twice":{"placement":{"identifier":"twice","revision":-0}}"#,
        #""lost":{"placement":\#(Snap.placement("lost")),"paywall":\#(paywall)}"#,
        #""twice":{"placement":\#(Snap.placement("twice")),"paywall":\#(paywall)}"#,
        #""lost":{"placement":{"identifier":"lost","revision":1.0}}"#,
    ]

    static let found = "the entry under that key"

    /// The file: the other entries, then `x` and `y` whose identifiers are the JSON string contents
    /// `identifier` and `second`: two lookups in one pass, so a memo that mixes entries up shows.
    static func file(identifier: String, second: String) -> String {
        Snap.file((others + [
            #""x":{"placement":\#(Snap.placement(identifier)),"paywall":\#(paywall)}"#,
            #""y":{"placement":\#(Snap.placement(second)),"paywall":\#(paywall)}"#,
        ]).joined(separator: ","))
    }

    /// The `key-mismatch` message of placement `key` on each path, by the path's name.
    static func messages(_ text: String, key: String) throws -> [(path: String, message: String)] {
        let wholeFile = findings(text)
        // One entry a chunk: the entry asked about is always in another chunk, decoded apart.
        let chunked = Audit().check(FallbackTopLevel(text: text), chunkSize: 1) { _ in }.findings
        return try [("whole file", wholeFile), ("check's chunks", chunked)].map { path, found in
            let mismatches = found.filter { $0.ruleId == "key-mismatch" && $0.message.hasPrefix("Placement key \"\(key)\"") }
            try #require(mismatches.count == 1, "\(path)")
            return (path, mismatches[0].message)
        }
    }

    @Test(arguments: [
        // A key of the file, written composed (U+00E9).
        ("caf\\u00e9", found),
        // The same text decomposed (e + U+0301): equal as Swift strings, another key to the SDK.
        ("cafe\\u0301", "nothing"),
        // The key written only with another case.
        ("CAF\\u00c9", "nothing"),
        // Another loaded entry's key, written with an escape in the identifier.
        ("\\u0062", found),
        // The key of an entry the SDK skips: not in its map.
        ("broken", "nothing"),
        // An entry that loads and serves nothing: found, and said to serve nothing.
        ("empty", found + ", which serves nothing (the entry has no placement),"),
        // A repeated key: the last occurrence is the entry, here loaded, there skipped.
        ("twice", found),
        ("lost", "nothing"),
    ])
    func messageNamesWhatTheIdentifierFinds(identifier: String, finds: String) throws {
        // `y` names `broken` (nothing) when `x`'s key is found, else `b` (found): the two lookups
        // of one pass have different answers.
        let second = finds == Self.found ? "broken" : "b"
        let secondFinds = second == "b" ? Self.found : "nothing"
        let text = Self.file(identifier: identifier, second: second)
        for (path, message) in try Self.messages(text, key: "x") {
            #expect(message.hasSuffix("finds \(finds) offline."), "\(path): \(message)")
        }
        for (path, message) in try Self.messages(text, key: "y") {
            #expect(message.hasSuffix("finds \(secondFinds) offline."), "\(path): \(message)")
        }
    }
}
