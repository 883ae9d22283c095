import FallbackAudit
import FallbackTestSupport
import Testing

/// A finding names the first `Format.listedLimit` locales of a long list and counts the rest: each
/// page's finding repeats the lists, so N pages in a funnel of N locales would make N² of text.
@Suite("locale lists in findings name the first few")
struct LongListMessageTests {
    static func text(localeCount: Int, title: String) -> String {
        let locales = (0..<localeCount).map { #""l\#($0)""# }.joined(separator: ",")
        return Snap.funnelFile(extra: #""defaultLocale":"l0","locales":[\#(locales)],"#, [Snap.page("p", "info", #""title":\#(title)"#)])
    }

    static func named(_ range: Range<Int>, _ separator: String = ", ") -> String {
        range.map { #""l\#($0)""# }.joined(separator: separator)
    }

    @Test(arguments: [3, 13, 14, 40])
    func translationGapsAndDeclaredLocales(localeCount: Int) throws {
        let finding = try #require(findings(Self.text(localeCount: localeCount, title: #"{"l0":"Hi"}"#)).first { $0.rule == .translationMissing })
        let gaps = localeCount - 1
        let listedGaps = (1..<min(localeCount, Format.listedLimit + 1)).map { #""l\#($0)" (missing)"# }.joined(separator: ", ")
            + (gaps > Format.listedLimit ? ", and \(gaps - Format.listedLimit) more" : "")
        #expect(finding.message.contains("has no copy for locales \(listedGaps), though"))
        let declared = Self.named(0..<min(localeCount, Format.listedLimit))
            + (localeCount > Format.listedLimit ? ", and \(localeCount - Format.listedLimit) more" : "")
        #expect(finding.message.contains("declares \(declared): a first launch"))
    }

    @Test(arguments: [3, 12, 13, 14, 40])
    func plainCopyNamesTheFirstDeclaredLocalesAndDevices(localeCount: Int) throws {
        let finding = try #require(findings(Self.text(localeCount: localeCount, title: #""Hi""#)).first { $0.rule == .textNotLocalized })
        let declared = Self.named(0..<min(localeCount, Format.listedLimit))
            + (localeCount > Format.listedLimit ? ", and \(localeCount - Format.listedLimit) more" : "")
        #expect(finding.message.contains("declares \(declared): a first launch in "))
        // Every locale but the default one ("l0", the copy's own) shows it untranslated.
        let devices = Self.named(1..<min(localeCount, Format.listedLimit + 1), " or ")
            + (localeCount - 1 > Format.listedLimit ? " or \(localeCount - 1 - Format.listedLimit) more" : "")
        #expect(finding.message.contains("a first launch in \(devices) shows it as written"))
    }
}
