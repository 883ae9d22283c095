import FallbackAudit
import RovenueFallback
import Testing
import FallbackTestSupport

/// `serves-nothing` and `OfflineTarget` agree: an entry that loads draws the finding exactly when
/// its target is nothing, once, in the words of its reason.
@Suite("serves-nothing follows OfflineTarget")
struct ServesNothingTargetTests {
    /// An entry body (after the key) and the message's opening words when it serves nothing.
    static let entries: [(body: String, opening: String?)] = [
        (#"{"paywall":\#(Snap.paywall())}"#, #"Entry "a" has no placement"#),
        (#"{"experiment":{"id":"e","key":"k","variants":[]}}"#, #"Entry "a" has no placement"#),
        (#"{"funnel":{"id":"f","slug":"f","pages":[]},"paywall":\#(Snap.paywall())}"#, #"Entry "a" has no placement"#),
        (#"{"placement":\#(Snap.placement("a"))}"#, #"Placement "a" has no funnel, paywall or experiment"#),
        (
            #"{"placement":\#(Snap.placement("a")),"experiment":{"id":"e","key":"k","variants":[]}}"#,
            #"Experiment "e" of placement "a" has no variants"#
        ),
        (#"{"placement":\#(Snap.placement("a")),"paywall":\#(Snap.paywall())}"#, nil),
        (#"{"placement":\#(Snap.placement("a")),"funnel":{"id":"f","slug":"f","pages":[]},"paywall":\#(Snap.paywall())}"#, nil),
        (
            #"{"placement":\#(Snap.placement("a")),"paywall":\#(Snap.paywall()),"experiment":{"id":"e","key":"k","variants":[]}}"#,
            nil
        ),
        (#"{"placement":\#(Snap.placement("a")),"experiment":{"id":"e","key":"k","variants":[\#(Snap.variant("v", "1"))]}}"#, nil),
    ]

    @Test(arguments: entries)
    func findingMatchesTheTarget(body: String, opening: String?) throws {
        let text = Snap.file(#""a":\#(body)"#)
        let entry = try #require(FallbackFile(text: text).loadedEntries.first?.entry)
        let found = findings(text).filter { $0.rule == .servesNothing }
        #expect((entry.offlineTarget.nothingReason != nil) == (opening != nil))
        #expect(found.count == (opening == nil ? 0 : 1))
        if let opening {
            #expect(found.first?.message.hasPrefix(opening + ":") == true)
        }
    }
}
