import FallbackAudit
import FallbackReports
import Testing

@Suite("Text style: what the text output lists and colours")
struct TextStyleTests {
    func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        try Configuration(bytes: Array(text.utf8), path: "cfg.json")
    }

    @Test(arguments: [(#"{"showInfos": true}"#, true), (#"{"showInfos": false}"#, false), ("{}", nil)] as [(String, Bool?)])
    func theConfigurationSaysWhetherInfosAreListed(text: String, showInfos: Bool?) throws {
        #expect(try parse(text).showInfos == showInfos)
    }

    @Test(arguments: [
        (#"{"showInfos": "yes"}"#, 1, 15, #"showInfos must be true or false, found the string "yes""#),
        (#"{"showInfos": 1}"#, 1, 15, "showInfos must be true or false, found the number 1"),
        (#"{"showinfos": true}"#, 1, 2, #"unknown key "showinfos" (did you mean "showInfos"?)"#),
    ])
    func aBadShowInfosNamesItsPlace(text: String, line: Int, column: Int, message: String) {
        #expect {
            try parse(text)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.line == line && error.column == column && error.message.hasPrefix(message)
        }
    }

    @Test func countsSayWhatIsNotShown() {
        var counts = SeverityCounts()
        counts.add(.error)
        counts.add(.warning, count: 2)
        counts.add(.info, count: 11)
        let style = TextStyle()
        #expect(style.tally(counts) == " (1 error, 2 warnings, 11 infos)")
        #expect(style.tally(counts, hiddenInfos: 11) == " (1 error, 2 warnings; 11 infos not shown)")
        #expect(style.tally(counts, hiddenInfos: 11, hint: true) == " (1 error, 2 warnings; 11 infos not shown: --verbose lists them)")
        var infos = SeverityCounts()
        infos.add(.info)
        #expect(style.tally(infos, hiddenInfos: 1, hint: true) == " (1 info not shown: --verbose lists them)")
        #expect(style.tally(SeverityCounts()) == "")
    }

    @Test func onlyAFailingOrListedInfoIsListed() {
        func finding(_ severity: Severity) -> Finding {
            Finding(ruleId: "remote-media", severity: severity, message: "m", placementKey: nil, pointer: "", line: 1, column: 1)
        }
        let quiet = TextStyle()
        #expect(quiet.lists(finding(.error), failing: false))
        #expect(quiet.lists(finding(.warning), failing: false))
        #expect(!quiet.lists(finding(.info), failing: false))
        #expect(quiet.lists(finding(.info), failing: true))
        #expect(TextStyle(listsInfos: true).lists(finding(.info), failing: false))
    }

    /// Colour wraps text only after its hidden characters are spelled out.
    @Test func paintSpellsOutBeforeItColours() {
        let colored = TextStyle(usesColor: true)
        #expect(colored.paint("a\u{1B}[2Jb", .location) == "\u{1B}[1ma<U+001B>[2Jb\u{1B}[0m")
        #expect(TextStyle().paint("a\u{1B}[2Jb", .location) == "a<U+001B>[2Jb")
        #expect(colored.paint(.error) == "\u{1B}[1;31merror\u{1B}[0m")
        #expect(colored.paint("", .rule) == "")
    }

    @Test(arguments: [
        (ColorChoice.auto, true, [:], true), (.auto, false, [:], false), (.auto, true, ["NO_COLOR": "1"], false),
        (.auto, true, ["NO_COLOR": ""], true), (.auto, true, ["TERM": "dumb"], false), (.always, false, ["NO_COLOR": "1"], true),
        (.never, true, [:], false),
    ] as [(ColorChoice, Bool, [String: String], Bool)])
    func colorChoice(_ choice: ColorChoice, isTerminal: Bool, variables: [String: String], expected: Bool) {
        #expect(choice.usesColor(isTerminal: isTerminal, variables: variables) == expected)
    }
}
