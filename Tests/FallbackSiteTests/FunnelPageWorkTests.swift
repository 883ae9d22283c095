import FallbackAudit
import FallbackSample
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// Work a funnel page did more often than it needed (issue 10, funnel pages): the translation
/// coverage gathered the texts once per locale. It must give what the work as it was gave.
@Suite("Funnel page work done once")
struct FunnelPageWorkTests {
    static func funnels() throws -> [Funnel] {
        try DrawingSettleTests.funnels()
    }

    @Test func coverageOfEveryLocaleIsEachLocalesOwnCount() throws {
        var compared = 0
        for funnel in try Self.funnels() {
            let untranslated = Set(PlainCopy.untranslatedLocales(of: funnel).map(ExactKey.init))
            let expected = (funnel.locales ?? []).map { locale in
                FunnelText.coverage(of: funnel, locale: locale, plainIsUntranslated: untranslated.contains(ExactKey(locale)))
            }
            let counted = FunnelText.coverage(of: funnel)
            #expect(counted.map(\.locale) == (funnel.locales ?? []), "\(funnel.id)")
            #expect(counted.map(\.coverage) == expected, "\(funnel.id)")
            compared += expected.count
        }
        #expect(compared >= 200)
    }
}
