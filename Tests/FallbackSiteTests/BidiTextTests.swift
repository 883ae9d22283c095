import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Bidi controls in snapshot text cannot reorder what a page shows: each is spelled out visibly,
/// and snapshot text is isolated from the page's own words.
@Suite("Bidi controls in snapshot text")
struct BidiTextTests {
    static let controls: [Unicode.Scalar] = [
        "\u{202A}", "\u{202B}", "\u{202C}", "\u{202D}", "\u{202E}", "\u{2066}", "\u{2067}", "\u{2068}", "\u{2069}", "\u{200E}",
        "\u{200F}", "\u{061C}",
    ]

    /// A key, identifier, funnel, page, option and experiment, each with a right-to-left override.
    static let snapshot = """
        {"formatVersion":1,"projectId":"proj\\u202Etxt","placements":{
        "invoice\\u202Efdp.exe":{"placement":{"identifier":"invoice\\u202Efdp.exe","revision":1},"funnel":{"id":"fnl\\u202Eab","slug":"s\\u2067x","name":"Name\\u202Eeman","pages":[{"id":"p\\u200F1","type":"single_choice","question_id":"q\\u061C","title":"T\\u202Dt","options":[{"label":"L\\u202Bl","value":"v\\u2066"}],"default_next":"x\\u202Ay"}]}},
        "exp":{"placement":{"identifier":"exp","revision":1},"experiment":{"id":"e\\u202E1","key":"k\\u202E2","variants":[{"variantId":"v\\u202E3","weight":1,"paywall":{"id":"pw\\u202E","identifier":"i\\u202E","name":"n","configFormatVersion":1}}]}}
        }}
        """

    /// Spelling out lets text whose bytes are all printable ASCII go without decoding its scalars
    /// (`VisibleText.isPrintableASCII(_:)`): that test passes no character that is spelled out,
    /// and text with any other byte is spelled out as a scan of every scalar spells it.
    @Test func onlyPrintableASCIISkipsTheScanOfScalars() {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "~"
            let printable = (0x20...0x7E).contains(value)
            #expect(VisibleText.isPrintableASCII(text) == printable, "U+\(String(value, radix: 16))")
            if printable { #expect(!SnapshotText.isHidden(scalar) && scalar != "\n" && scalar != "\r") }
        }
        #expect(VisibleText.isPrintableASCII(""))
        for text in ["plain key_1", "tab\there", "line\nbreak\r", "del\u{7F}", "c1\u{85}", "bidi\u{202E}x", "café", "\u{2028}", "\u{FFFF}"] {
            for oneLine in [false, true] {
                let spelled = { (scalar: Unicode.Scalar) in SnapshotText.isHidden(scalar) || (oneLine && (scalar == "\n" || scalar == "\r")) }
                #expect(SnapshotText.spelledOut(text, oneLine: oneLine) == VisibleText.spellingOut(text, where: spelled))
            }
        }
    }

    @Test func noPageCarriesARawBidiControl() throws {
        let files = try site(for: Array(Self.snapshot.utf8), title: "Site\u{202E}title")
        let pages = files.filter { $0.key.hasSuffix(".html") }
        #expect(pages.count >= 5)
        for (path, html) in pages {
            for control in Self.controls {
                #expect(!html.unicodeScalars.contains(control), "\(path) has a raw U+\(String(control.value, radix: 16, uppercase: true))")
            }
        }
    }

    @Test func theControlIsSpelledOutAndTheTextIsolated() throws {
        let files = try site(for: Array(Self.snapshot.utf8))
        let placement = try #require(files.first { $0.key.hasPrefix("placements/invoice") }?.value)
        #expect(placement.contains("<bdi>invoice<span class=\"control-char\">&lt;U+202E&gt;</span>fdp.exe</bdi>"))
        // Where no markup can go (the window title), the control is spelled out as text.
        #expect(placement.contains("<title>Placement invoice&lt;U+202E&gt;fdp.exe"))
        let funnel = try #require(files.first { $0.key.hasPrefix("funnels/") }?.value)
        #expect(funnel.contains("<bdi>Name<span class=\"control-char\">&lt;U+202E&gt;</span>eman</bdi>"))
        #expect(funnel.contains("<span class=\"control-char\">&lt;U+200F&gt;</span>"))
        #expect(funnel.contains("<span class=\"control-char\">&lt;U+061C&gt;</span>"))
    }

    @Test func attributesKeepTheExactValue() throws {
        let files = try site(for: Array(Self.snapshot.utf8))
        let experiment = try #require(files.first { $0.key.hasPrefix("experiments/") }?.value)
        // The lookup hashes the experiment key exactly as the SDK does: the attribute keeps it.
        #expect(experiment.contains("data-experiment-key=\"k&#x202E;2\""))
    }

    @Test func textWithoutControlsIsUnchanged() {
        #expect(SnapshotText.html("onboarding & <b>") == "onboarding &amp; &lt;b&gt;")
        #expect(SnapshotText.html("caf\u{E9}") == "<bdi>caf\u{E9}</bdi>")
    }
}
