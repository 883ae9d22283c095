import Foundation
import Testing
@testable import RovenueFallback

/// fallback-format.md §2: when the whole load throws, and which numbered rule decides it.
@Suite("§2 file rejection")
struct FileRejectionTests {
    /// A valid file with one loadable entry, to show the rejections are not about the entries.
    static let good = fileText(entry: #"{"placement":{"identifier":"k","revision":1}}"#)

    @Test func theReferenceFileLoads() {
        let file = FallbackFile(text: Self.good)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    // MARK: Rule 1: not strict RFC 8259 JSON

    static let emptyOrWhitespace = ["", " ", "\n", "\t", "\r\n", " \t\r\n  "]

    @Test(arguments: emptyOrWhitespace)
    func rule1EmptyOrWhitespaceOnly(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    static let trailingGarbage = [
        #"{"formatVersion":1,"placements":{}} x"#,
        #"{"formatVersion":1,"placements":{}}{}"#,
        #"{"formatVersion":1,"placements":{}} 1"#,
        #"{"formatVersion":1,"placements":{}}]"#,
        #"{"formatVersion":1,"placements":{}}}"#,
        #"{"formatVersion":1,"placements":{}},"#,
        #"{"formatVersion":1,"placements":{}} null"#,
        #"{"formatVersion":1,"placements":{}}"# + "\n\n\"",
        // A form feed and a vertical tab are not JSON whitespace.
        #"{"formatVersion":1,"placements":{}}"# + "\u{0C}",
        #"{"formatVersion":1,"placements":{}}"# + "\u{0B}",
        // Nor is a no-break space or a BOM after the value.
        #"{"formatVersion":1,"placements":{}}"# + "\u{A0}",
        #"{"formatVersion":1,"placements":{}}"# + "\u{FEFF}",
    ]

    @Test(arguments: trailingGarbage)
    func rule1TrailingGarbage(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    static let trailingWhitespace = [" ", "\n", "\r\n", "\t", " \n\t\r ", "\n\n\n"]

    @Test(arguments: trailingWhitespace)
    func trailingAndLeadingWhitespaceIsFine(_ whitespace: String) {
        #expect(rejectionRule(Self.good + whitespace) == nil)
        #expect(rejectionRule(whitespace + Self.good) == nil)
        #expect(FallbackFile(text: whitespace + Self.good + whitespace).loadedCount == 1)
    }

    static let trailingCommas = [
        #"{"formatVersion":1,}"#,
        #"{"formatVersion":1,"placements":{},}"#,
        #"{"formatVersion":1,"placements":{"k":{},}}"#,
        #"{"formatVersion":1,"placements":{"k":{"placement":{"identifier":"k","revision":1,}}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":[1,]}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":[1 , ]}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":[,]}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":[,1]}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":[1,,2]}}}"#,
        #"{"formatVersion":1,"placements":{,}}"#,
        // Syntax is checked everywhere, also in values the loader does not read.
        #"{"formatVersion":1,"placements":{},"extra":[1,]}"#,
        #"{"formatVersion":1,"placements":{},"generatedAt":{"a":1,}}"#,
        "[1,]",
        "[1,{},]",
    ]

    @Test(arguments: trailingCommas)
    func rule1TrailingCommas(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    static let comments = [
        "// comment\n" + #"{"formatVersion":1,"placements":{}}"#,
        "/* comment */" + #"{"formatVersion":1,"placements":{}}"#,
        #"{"formatVersion":1 /* one */,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{} // end"# + "\n}",
        #"{"formatVersion":1,"placements":{}}"# + "\n// trailing comment",
        #"{"formatVersion":1,"placements":{}}"# + "/**/",
        #"{"formatVersion":1,"placements":{},"x":1 # hash comment"# + "\n}",
        #"{"formatVersion":1,"placements":{"k":{/* inside an entry */}}}"#,
    ]

    @Test(arguments: comments)
    func rule1Comments(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    static let nonFiniteAndBadNumbers = [
        #"{"formatVersion":NaN,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":NaN}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":Infinity}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":-Infinity}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":+Infinity}}}"#,
        #"{"formatVersion":1,"placements":{},"x":nan}"#,
        #"{"formatVersion":1,"placements":{},"x":inf}"#,
        // Leading zeros.
        #"{"formatVersion":01,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":00}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":-01}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":007.5}}}"#,
        #"{"formatVersion":1,"placements":{},"generatedAt":01764400000000}"#,
        // Other number forms RFC 8259 forbids.
        #"{"formatVersion":+1,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":.5}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":1.}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":1.e3}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":1e}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":1e+}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":0x10}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":-}}}"#,
        #"{"formatVersion":1,"placements":{"k":{"x":--1}}}"#,
    ]

    @Test(arguments: nonFiniteAndBadNumbers)
    func rule1NonFiniteLeadingZerosAndBadNumbers(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    /// Every control character U+0000–U+001F, raw in a string value and in a key.
    @Test(arguments: 0x00...0x1F)
    func rule1RawControlCharacterInString(_ code: Int) {
        let character = String(Character(Unicode.Scalar(UInt8(code))))
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":"a"# + character + #"b"}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{"k"# + character + #"":{}}}"#) == .invalidJSON)
        #expect(rejectionRule(fileText(entry: #"{"placement":{"identifier":""# + character + #"","revision":1}}"#)) == .invalidJSON)
    }

    /// U+007F and above are not control characters for JSON; escaped control characters are fine.
    static let stringsThatLoad = [
        "\u{7F}", "\u{80}", "\u{9F}", "é", "🚀", "\u{2028}", "\u{FEFF}",
        #"\u0000"#, #"\u001f"#, #"\n\t\r\b\f"#, #"\"\\\/"#, #"\uFFFF"#, #"\uD7FF"#, #"\uE000"#,
        // A valid surrogate pair, upper and lower case hex.
        #"\uD83D\uDE00"#, #"\ud83d\ude00"#, #"\uDBFF\uDFFF"#, #"\uD800\uDC00"#,
    ]

    @Test(arguments: stringsThatLoad)
    func stringContentThatLoads(_ content: String) {
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":""# + content + #""}"#) == nil)
        let file = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":""# + content + #"","revision":1}}"#))
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    @Test func escapesDecodeToTheirCharacters() throws {
        let file = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"\uD83D\uDE00 \u00e9\n\/","revision":1}}"#))
        let identifier = try #require(file.loadedEntries.first?.entry.placement?.identifier)
        #expect(identifier == "😀 é\n/")
    }

    static let invalidEscapes = [
        #"\x41"#, #"\'"#, #"\U0041"#, #"\u12G4"#, #"\u12"#, #"\u"#, #"\a"#, #"\0"#, #"\ "#, #"\v"#, #"\e"#, #"\/\z"#,
        #"\uZZZZ"#, #"\u-123"#, #"\u 123"#,
    ]

    @Test(arguments: invalidEscapes)
    func rule1InvalidEscape(_ content: String) {
        // In a value the loader ignores, in a key of placements, and in an entry.
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":""# + content + #""}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{""# + content + #"":{}}}"#) == .invalidJSON)
        #expect(rejectionRule(fileText(entry: #"{"x":""# + content + #""}"#)) == .invalidJSON)
    }

    static let loneSurrogates = [
        // Leading (high) surrogates with no trailing one.
        #"\uD800"#, #"\uDBFF"#, #"\ud83d"#, #"\uD83Dx"#, #"\uD83D\u0041"#, #"\uD83D\n"#, #"\uD83D\uD83D"#, #"\uD83D\uE000"#,
        #"\uD83D "#, #"a\uD800b"#,
        // Trailing (low) surrogates on their own, or before a leading one.
        #"\uDC00"#, #"\uDFFF"#, #"\ude00"#, #"\uDE00\uD83D"#, #"x\uDC00"#,
    ]

    /// Where the SDK decodes the string; in the value of another top-level key (`projectId`) it loads:
    /// see `LoneSurrogateTests`.
    @Test(arguments: loneSurrogates)
    func rule1LoneSurrogateEscape(_ content: String) {
        #expect(rejectionRule(#"{"formatVersion":""# + content + #"","placements":{}}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},""# + content + #"":1}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{""# + content + #"":{}}}"#) == .invalidJSON)
        #expect(rejectionRule(fileText(entry: #"{"placement":{"identifier":""# + content + #"","revision":1}}"#)) == .invalidJSON)
    }

    static let otherSyntaxErrors = [
        "{", "}", "[", "]", "{]", "[}", #"{"formatVersion":1"#, #"{"formatVersion":1,"placements":{"k":{}}"#,
        #"{"formatVersion":1,"placements":{"k":{"#, #"{"formatVersion"#, #"{"formatVersion":"#, #"{"formatVersion""#,
        #"{'formatVersion':1,'placements':{}}"#, #"{formatVersion:1,placements:{}}"#,
        #"{"formatVersion" 1,"placements":{}}"#, #"{"formatVersion":1 "placements":{}}"#,
        #"{"formatVersion":1;"placements":{}}"#, #"{"formatVersion"=1,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{},"x":tru}"#, #"{"formatVersion":1,"placements":{},"x":True}"#,
        #"{"formatVersion":1,"placements":{},"x":nul}"#, #"{"formatVersion":1,"placements":{},"x":NULL}"#,
        #"{"formatVersion":1,"placements":{},"x":undefined}"#, #"{"formatVersion":1,"placements":{},"x":"unterminated}"#,
        #"{"formatVersion":1,"placements":{},1:2}"#, #"{"formatVersion":1,"placements":{},null:2}"#,
        #"{"formatVersion":1,"placements":{"k":{"a":1 "b":2}}}"#, #"{"formatVersion":1,"placements":{"k":[1 2]}}"#,
    ]

    @Test(arguments: otherSyntaxErrors)
    func rule1OtherSyntaxErrors(_ text: String) {
        #expect(rejectionRule(text) == .invalidJSON)
    }

    // MARK: Rule 2: byte-order mark

    static let bomBytes: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func rule2ByteOrderMarkThrowsForTheStringLoaders() throws {
        let text = "\u{FEFF}" + Self.good
        #expect(rejectionRule(text) == .byteOrderMark)
        #expect(rejectionRule(bytes: Self.bomBytes + Array(Self.good.utf8)) == .byteOrderMark)
        #expect(FallbackFile(text: text).hasByteOrderMark)

        let store = FallbackStore()
        #expect(throws: FallbackError.self) { try store.setFallbackPlacements(json: text) }
        do {
            try store.setFallbackPlacements(json: text)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.rejection?.rule == .byteOrderMark)
            #expect(error.message.hasPrefix("fallback placements file is not valid JSON: "))
            #expect(error.message.hasSuffix(" at line 1 column 1"))
        }
        #expect(store.count == 0)
    }

    @Test func rule2ByteOrderMarkIsStrippedByTheSwiftFileURLConvenience() throws {
        let bytes = Self.bomBytes + Array(Self.good.utf8)
        let file = FallbackFile(bytes: bytes, strippingByteOrderMark: true)
        #expect(file.rejection == nil)
        #expect(file.hasByteOrderMark)
        #expect(file.loadedCount == 1)

        let url = FileManager.default.temporaryDirectory.appending(path: "bom-\(UUID().uuidString).json")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(fileURL: url) == 1)
        #expect(store.count == 1)
        #expect(store.entry(forPlacement: "k") != nil)
    }

    @Test func rule2OnlyAtTheVeryStart() {
        // Only one BOM is stripped; a second one is not whitespace.
        #expect(FallbackFile(bytes: Self.bomBytes + Self.bomBytes + Array(Self.good.utf8), strippingByteOrderMark: true).rejection != nil)
        // U+FEFF after leading whitespace is not JSON whitespace: invalid JSON, not a BOM.
        #expect(rejectionRule(" \u{FEFF}" + Self.good) == .invalidJSON)
        // Inside a string it is an ordinary character.
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":"\#u{FEFF}"}"#) == nil)
        // A BOM alone: the string loaders throw for the BOM; stripped, the text is empty.
        #expect(rejectionRule("\u{FEFF}") == .byteOrderMark)
        #expect(FallbackFile(bytes: Self.bomBytes, strippingByteOrderMark: true).rejection?.rule == .invalidJSON)
    }

    @Test func rule2AFileWithoutBOMLoadsThroughTheFileURLConvenienceToo() throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "plain-\(UUID().uuidString).json")
        try Data(Self.good.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(fileURL: url) == 1)
    }

    // MARK: Rule 3: invalid UTF-8

    static let invalidUTF8Sequences: [[UInt8]] = [
        // Overlong encodings.
        [0xC0, 0x80], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xF0, 0x80, 0x80, 0x80],
        [0xF0, 0x8F, 0xBF, 0xBF],
        // Surrogates encoded in UTF-8 (alone, and as a CESU-8 pair).
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80],
        // Truncated sequences (followed by the closing quote).
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xE2], [0xF0],
        // A truncated sequence followed by ASCII.
        [0xE2, 0x82, 0x41], [0xC3, 0x20],
        // Lone continuation bytes.
        [0x80], [0xBF], [0x80, 0x80],
        // Bytes that never appear in UTF-8; code points past U+10FFFF.
        [0xFE], [0xFF], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
    ]

    @Test(arguments: invalidUTF8Sequences)
    func rule3InvalidUTF8(_ sequence: [UInt8]) {
        let prefix = Array(#"{"formatVersion":1,"placements":{},"projectId":""#.utf8)
        #expect(rejectionRule(bytes: prefix + sequence + Array(#""}"#.utf8)) == .invalidUTF8)
        // In a placement key, in an entry, and as the very last bytes of the file.
        #expect(rejectionRule(bytes: Array(#"{"formatVersion":1,"placements":{""#.utf8) + sequence + Array(#"":{}}}"#.utf8)) == .invalidUTF8)
        #expect(rejectionRule(bytes: Array(#"{"formatVersion":1,"placements":{"k":{"x":""#.utf8) + sequence + Array(#""}}}"#.utf8)) == .invalidUTF8)
        #expect(rejectionRule(bytes: prefix + sequence) == .invalidUTF8)
        // With the string loaders' BOM stripped: still invalid UTF-8.
        #expect(FallbackFile(bytes: Self.bomBytes + prefix + sequence + Array(#""}"#.utf8), strippingByteOrderMark: true).rejection?.rule == .invalidUTF8)
    }

    @Test func rule3InvalidUTF8OutsideStringsAndInATextThatWouldFailOtherwise() {
        // Decoding the bytes as text comes first: whatever else is wrong, invalid UTF-8 is the reason.
        let good = Array(Self.good.utf8)
        #expect(rejectionRule(bytes: good + [0xFF]) == .invalidUTF8)
        #expect(rejectionRule(bytes: [0xFF] + good) == .invalidUTF8)
        #expect(rejectionRule(bytes: [0xFF, 0xFE] + Array(#"{}"#.utf8)) == .invalidUTF8)
        #expect(rejectionRule(bytes: Array(#"{"formatVersion":2,"placements":{},"x":""#.utf8) + [0xC0, 0x80] + Array(#""}"#.utf8)) == .invalidUTF8)
        #expect(rejectionRule(bytes: Array(#"{"formatVersion":1,"placements":{} x "#.utf8) + [0xE2, 0x82]) == .invalidUTF8)
    }

    static let validUTF8Sequences: [[UInt8]] = [
        [0xC2, 0x80], [0xC3, 0xA7], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE2, 0x82, 0xAC], [0xED, 0x9F, 0xBF],
        [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xEF, 0xBB, 0xBF], [0xF0, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80],
        [0xF4, 0x8F, 0xBF, 0xBF],
    ]

    @Test(arguments: validUTF8Sequences)
    func validUTF8Loads(_ sequence: [UInt8]) {
        let prefix = Array(#"{"formatVersion":1,"placements":{},"projectId":""#.utf8)
        #expect(rejectionRule(bytes: prefix + sequence + Array(#""}"#.utf8)) == nil)
        let file = FallbackFile(bytes: Array(#"{"formatVersion":1,"placements":{""#.utf8) + sequence + Array(#"":{}}}"#.utf8))
        #expect(file.rejection == nil)
        #expect(file.entries.map(\.key) == [String(decoding: sequence, as: UTF8.self)])
    }

    // MARK: Rule 4: nesting deeper than 127 levels inside formatVersion or placements

    /// `placements` is level 2 and its entries level 3: an entry of `levels - 2` nested containers
    /// puts the deepest one at `levels`.
    static func placementsReaching(level: Int, objects: Bool) -> String {
        fileText(entry: nested(level - 2, objects: objects))
    }

    @Test(arguments: [false, true])
    func rule4Level127InsidePlacementsLoads(_ objects: Bool) {
        let file = FallbackFile(text: Self.placementsReaching(level: 127, objects: objects))
        #expect(file.rejection == nil)
        // The entry itself does not decode (it is no Entry), which does not matter to the load.
        #expect(file.entries.count == 1)
    }

    @Test(arguments: [false, true])
    func rule4Level128InsidePlacementsThrows(_ objects: Bool) {
        #expect(rejectionRule(Self.placementsReaching(level: 128, objects: objects)) == .nestingTooDeep)
        #expect(rejectionRule(Self.placementsReaching(level: 200, objects: objects)) == .nestingTooDeep)
    }

    @Test func rule4MixedContainersCountTheSame() {
        // Levels: top 1, placements 2, entry 3, then alternating arrays and objects.
        func mixed(_ levels: Int) -> String {
            var open = "", close = ""
            for level in 0..<levels {
                if level % 2 == 0 { open += #"{"a":"#; close = "}" + close } else { open += "["; close = "]" + close }
            }
            return open + "null" + close
        }
        #expect(rejectionRule(fileText(entry: mixed(125))) == nil)
        #expect(rejectionRule(fileText(entry: mixed(126))) == .nestingTooDeep)
    }

    @Test func rule4AValidEntryWhoseBuilderConfigReachesLevel127StillLoads() throws {
        // Entry 3, paywall 4, builderConfig 5: a builderConfig of n levels reaches level 4 + n.
        func entry(builderLevels: Int) -> String {
            #"{"placement":{"identifier":"k","revision":1},"paywall":"#
                + Valid.paywall.with("builderConfig", nested(builderLevels)).json + "}"
        }
        let loads = FallbackFile(text: fileText(entry: entry(builderLevels: 123)))
        #expect(loads.rejection == nil)
        #expect(loads.loadedCount == 1)
        #expect(loads.loadedEntries.first?.entry.paywall?.builderConfig != nil)
        #expect(rejectionRule(fileText(entry: entry(builderLevels: 124))) == .nestingTooDeep)
    }

    @Test func rule4InsideFormatVersion() {
        // The top-level object is level 1, so formatVersion's outermost container is level 2.
        let level127 = FallbackFile(text: #"{"formatVersion":"# + nested(126) + #","placements":{}}"#)
        // Level 127 passes the depth check; it then fails as a version that is not 1.
        #expect(level127.rejection?.rule == .unsupportedFormatVersion)
        #expect(rejectionRule(#"{"formatVersion":"# + nested(127) + #","placements":{}}"#) == .nestingTooDeep)
        #expect(rejectionRule(#"{"formatVersion":"# + nested(127, objects: true) + #","placements":{}}"#) == .nestingTooDeep)
        #expect(rejectionRule(#"{"placements":{},"formatVersion":"# + nested(127) + "}") == .nestingTooDeep)
    }

    static let otherKeys = ["generatedAt", "projectId", "extra", "FormatVersion", "Placements", ""]

    @Test(arguments: otherKeys)
    func rule4OtherTopLevelKeysAreNotCheckedForDepth(_ key: String) {
        let deep = #"{"formatVersion":1,"placements":{},"# + quote(key) + ":" + nested(999) + "}"
        #expect(rejectionRule(deep) == nil)
        let deepObjects = #"{"formatVersion":1,"# + quote(key) + ":" + nested(999, objects: true) + #","placements":{"k":{}}}"#
        let file = FallbackFile(text: deepObjects)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    @Test func rule4AppliesToTheArrayQuirkToo() {
        #expect(rejectionRule(#"[1,{"k":"# + nested(125) + "}]") == nil)
        #expect(rejectionRule(#"[1,{"k":"# + nested(126) + "}]") == .nestingTooDeep)
        #expect(rejectionRule("[" + nested(126) + "]") == .unsupportedFormatVersion)
        #expect(rejectionRule("[" + nested(127) + "]") == .nestingTooDeep)
    }

    // MARK: Rule 5: numbers that overflow a 64-bit float inside formatVersion or placements

    static let overflowing = [
        "1e400", "-1e400", "1E400", "1e+400", "-1E+400", "1.5e309", "1.8e308", "-1.8e308", "0.1e310",
        "1" + String(repeating: "0", count: 400), "-1" + String(repeating: "0", count: 400),
        "1" + String(repeating: "0", count: 400) + ".5", "123456789e999999999999",
    ]

    @Test(arguments: overflowing)
    func rule5OverflowInsidePlacements(_ number: String) {
        #expect(rejectionRule(fileText(entry: #"{"x":"# + number + "}")) == .numberOutOfRange)
        #expect(rejectionRule(fileText(entry: #"{"placement":{"identifier":"k","revision":"# + number + "}}")) == .numberOutOfRange)
        #expect(rejectionRule(fileText(entry: "[[[" + number + "]]]")) == .numberOutOfRange)
        // Even in an occurrence of a duplicate key that the last one replaces.
        #expect(rejectionRule(fileText(placements: #"{"k":["# + number + #"],"k":{}}"#)) == .numberOutOfRange)
    }

    @Test(arguments: overflowing)
    func rule5OverflowInsideFormatVersion(_ number: String) {
        // Rule 5 comes before rule 10.
        #expect(rejectionRule(#"{"formatVersion":"# + number + #","placements":{}}"#) == .numberOutOfRange)
        #expect(rejectionRule(#"{"formatVersion":["# + number + #"],"placements":{}}"#) == .numberOutOfRange)
    }

    @Test(arguments: overflowing)
    func rule5OverflowElsewhereLoads(_ number: String) {
        for key in ["generatedAt", "projectId", "extra"] {
            #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"# + quote(key) + ":" + number + "}") == nil)
            #expect(rejectionRule(#"{"formatVersion":1,"# + quote(key) + #":{"a":["# + number + #"]},"placements":{}}"#) == nil)
        }
    }

    static let finite = [
        "1e-400", "-1e-400", "1E-400", "0e400", "0.0e999", "-0e400", "1e308", "1.7e308", "-1.7e308", "4.9e-324",
        "1" + String(repeating: "0", count: 300), "18446744073709551616", "-9223372036854775809",
        "123456789012345678901234567890", "99999999999999999999999999999999999999.5",
    ]

    @Test(arguments: finite)
    func rule5UnderflowAndLargeIntegersAreFine(_ number: String) {
        let file = FallbackFile(text: fileText(entry: #"{"x":"# + number + #","placement":{"identifier":"k","revision":1}}"#))
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    @Test func rule5IntegersTooLargeFor64BitsAreFloatsNotErrors() throws {
        // As a weight (number) the value loads; as an int it is a float, so the entry is skipped.
        let entry = #"{"placement":{"identifier":"k","revision":1},"experiment":{"id":"e","key":"k","variants":[{"variantId":"a","weight":18446744073709551616,"paywall":"#
            + Valid.paywall.json + "}]}}"
        let file = FallbackFile(text: fileText(entry: entry))
        #expect(file.rejection == nil)
        let weight = try #require(file.loadedEntries.first?.entry.experiment?.variants.first?.weight)
        #expect(weight == 18446744073709551616.0)

        let asInt = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":"k","revision":18446744073709551616}}"#))
        #expect(asInt.rejection == nil)
        #expect(asInt.loadedCount == 0)
        #expect(asInt.entries.first?.failure != nil)
    }

    // MARK: Rule 6: the top level is not an object

    static let scalarTopLevels = [
        "null", "true", "false", "1", "0", "-1.5", "1e3", #""x""#, #""""#, #""{\"formatVersion\":1}""#, "[]", " [ ] ", "[\n]",
    ]

    @Test(arguments: scalarTopLevels)
    func rule6TopLevelNotAnObject(_ text: String) {
        #expect(rejectionRule(text) == .topLevelNotAnObject)
    }

    // MARK: Rule 7: formatVersion or placements twice

    static let duplicates = [
        #"{"formatVersion":1,"formatVersion":1,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{},"placements":{}}"#,
        #"{"placements":{},"formatVersion":1,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{},"formatVersion":1}"#,
        #"{"formatVersion":1,"formatVersion":1}"#,
        // The second value is not even looked at.
        #"{"formatVersion":1,"placements":{},"placements":null}"#,
        #"{"formatVersion":1,"placements":{},"formatVersion":2}"#,
        // Checked before the version: a wrong first version is still a duplicate.
        #"{"formatVersion":2,"formatVersion":1,"placements":{}}"#,
        // Keys are compared after decoding escapes.
        #"{"formatVersion":1,"format\u0056ersion":1,"placements":{}}"#,
        #"{"formatVersion":1,"placements":{},"\u0070lacements":{}}"#,
    ]

    @Test(arguments: duplicates)
    func rule7DuplicateFormatVersionOrPlacements(_ text: String) {
        #expect(rejectionRule(text) == .duplicateField)
    }

    static let otherDuplicates = [
        #"{"formatVersion":1,"placements":{},"generatedAt":1,"generatedAt":2}"#,
        #"{"formatVersion":1,"placements":{},"projectId":"a","projectId":null}"#,
        #"{"formatVersion":1,"placements":{},"x":1,"x":[1],"x":{}}"#,
        #"{"formatVersion":1,"FormatVersion":1,"placements":{},"Placements":null}"#,
        #"{"formatVersion":1,"formatVersion ":1,"placements":{}," placements":{}}"#,
    ]

    @Test(arguments: otherDuplicates)
    func rule7OtherDuplicateTopLevelKeysLoad(_ text: String) {
        #expect(rejectionRule(text) == nil)
    }

    @Test func rule7EscapedFormatVersionKeyIsFormatVersion() {
        // A key spelled with an escape is the same key.
        #expect(rejectionRule(#"{"format\u0056ersion":1,"placements":{}}"#) == nil)
        #expect(rejectionRule(#"{"format\u0056ersion":2,"placements":{}}"#) == .unsupportedFormatVersion)
    }

    // MARK: Rule 8: formatVersion missing

    static let missingVersion = [
        "{}", " { } ", #"{"placements":{}}"#, #"{"placements":{"k":{}}}"#, #"{"FormatVersion":1,"placements":{}}"#,
        #"{"formatversion":1,"placements":{}}"#, #"{"FORMATVERSION":1,"placements":{}}"#, #"{"format_version":1,"placements":{}}"#,
        #"{"formatVersion ":1,"placements":{}}"#, #"{" formatVersion":1,"placements":{}}"#, #"{"version":1,"placements":{}}"#,
        #"{"generatedAt":1764400000000,"projectId":"proj_123","placements":{}}"#,
    ]

    @Test(arguments: missingVersion)
    func rule8FormatVersionMissing(_ text: String) {
        #expect(rejectionRule(text) == .formatVersionMissing)
    }

    // MARK: Rule 9: placements present but not an object

    static let nonObjectPlacements = ["null", "[]", "[{}]", #""{}""#, #""""#, "1", "0", "true", "false", "1.5"]

    @Test(arguments: nonObjectPlacements)
    func rule9PlacementsNotAnObject(_ placements: String) {
        #expect(rejectionRule(#"{"formatVersion":1,"placements":"# + placements + "}") == .placementsNotAnObject)
        #expect(rejectionRule(#"{"placements":"# + placements + #","formatVersion":1}"#) == .placementsNotAnObject)
        // Ahead of rule 10.
        #expect(rejectionRule(#"{"formatVersion":2,"placements":"# + placements + "}") == .placementsNotAnObject)
        // The array quirk's second element is placements.
        #expect(rejectionRule("[1," + placements + "]") == .placementsNotAnObject)
    }

    // MARK: Rule 10: formatVersion is not the integer 1

    struct VersionCase: Sendable, CustomTestStringConvertible {
        let json: String
        /// The value as the SDK prints it in its message.
        let printed: String
        var testDescription: String { json }
    }

    static let wrongVersions: [VersionCase] = [
        VersionCase(json: "1.0", printed: "1.0"),
        VersionCase(json: "1e0", printed: "1.0"),
        VersionCase(json: "1E0", printed: "1.0"),
        VersionCase(json: "10E-1", printed: "1.0"),
        VersionCase(json: "0.1e1", printed: "1.0"),
        VersionCase(json: "1.00", printed: "1.0"),
        VersionCase(json: "-0", printed: "-0.0"),
        VersionCase(json: "0", printed: "0"),
        VersionCase(json: "2", printed: "2"),
        VersionCase(json: "-1", printed: "-1"),
        VersionCase(json: "1.5", printed: "1.5"),
        VersionCase(json: #""1""#, printed: #""1""#),
        VersionCase(json: "null", printed: "null"),
        VersionCase(json: "true", printed: "true"),
        VersionCase(json: "false", printed: "false"),
        VersionCase(json: "[1]", printed: "[1]"),
        VersionCase(json: "[ 1 , 2 ]", printed: "[1,2]"),
        VersionCase(json: "{}", printed: "{}"),
        VersionCase(json: #"{ "v" : 1 }"#, printed: #"{"v":1}"#),
        // Too large for 64 bits: a float.
        VersionCase(json: "18446744073709551616", printed: "1.8446744073709552e19"),
        VersionCase(json: "-9223372036854775809", printed: "-9.223372036854776e18"),
        // Integers within 64 bits print as written.
        VersionCase(json: "18446744073709551615", printed: "18446744073709551615"),
        VersionCase(json: "-9223372036854775808", printed: "-9223372036854775808"),
        // Floats print as the shortest round-trip form, in the SDK's (Rust ryu) layout that gives
        // `1.0` and `-0.0` above: a ".0" up to 16 integer digits, plain decimals down to 0.0001.
        VersionCase(json: "1e2", printed: "100.0"),
        VersionCase(json: "1e15", printed: "1000000000000000.0"),
        VersionCase(json: "1e16", printed: "1e16"),
        VersionCase(json: "123.456", printed: "123.456"),
        VersionCase(json: "1e-5", printed: "0.00001"),
        VersionCase(json: "1e-6", printed: "1e-6"),
        VersionCase(json: "-1.5e-7", printed: "-1.5e-7"),
        VersionCase(json: "1.5e300", printed: "1.5e300"),
        VersionCase(json: "0.30000000000000004", printed: "0.30000000000000004"),
        VersionCase(json: "1e-400", printed: "0.0"),
        // Strings print as JSON strings: quotes, backslashes and control characters escaped.
        VersionCase(json: #""a\"b\\c""#, printed: #""a\"b\\c""#),
        VersionCase(json: #""\n\t\u0001""#, printed: #""\n\t\u0001""#),
        VersionCase(json: #""\/é\u00e9""#, printed: #""/éé""#),
        // (Key order in a printed object is not asserted: the contract does not say whether the SDK's
        // map keeps file order or sorts.)
        VersionCase(json: #"{"a":[true,null,"x"]}"#, printed: #"{"a":[true,null,"x"]}"#),
    ]

    @Test(arguments: wrongVersions)
    func rule10VersionIsNotTheInteger1(_ version: VersionCase) throws {
        let text = #"{"formatVersion":"# + version.json + #","placements":{"k":{}}}"#
        let file = FallbackFile(text: text)
        let rejection = try #require(file.rejection)
        #expect(rejection.rule == .unsupportedFormatVersion)
        #expect(rejection.message == "unsupported fallback placements formatVersion \(version.printed) (expected 1)")
        #expect(file.entries.isEmpty)

        let store = FallbackStore()
        do {
            try store.setFallbackPlacements(json: text)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message == "unsupported fallback placements formatVersion \(version.printed) (expected 1)")
        }
        // The array quirk reads its first element as formatVersion.
        #expect(rejectionRule("[" + version.json + "]") == .unsupportedFormatVersion)
    }

    @Test func rule10TheInteger1Loads() {
        for text in [#"{"formatVersion":1}"#, #"{"formatVersion" : 1 }"#, #"{ "placements" : { } , "formatVersion" : 1 }"#, "[1]", "[ 1 ]"] {
            #expect(rejectionRule(text) == nil, "\(text)")
        }
    }

    struct OrderCase: Sendable, CustomTestStringConvertible {
        let text: String
        let rule: FallbackRejection.Rule
        var testDescription: String { text }
    }

    /// "Checks 1–9 come first."
    static let checksBeforeTheVersion: [OrderCase] = [
        OrderCase(text: #"{"formatVersion":2,"placements":null}"#, rule: .placementsNotAnObject),
        OrderCase(text: #"{"formatVersion":2,"placements":[]}"#, rule: .placementsNotAnObject),
        OrderCase(text: #"{"formatVersion":2,"placements":{}} x"#, rule: .invalidJSON),
        OrderCase(text: #"{"formatVersion":2,"placements":{},}"#, rule: .invalidJSON),
        OrderCase(text: #"{"formatVersion":"1""#, rule: .invalidJSON),
        OrderCase(text: #"{"formatVersion":2,"placements":{"k":NaN}}"#, rule: .invalidJSON),
        OrderCase(text: #"{"formatVersion":2,"formatVersion":2}"#, rule: .duplicateField),
        OrderCase(text: #"{"formatVersion":2,"placements":{},"placements":{}}"#, rule: .duplicateField),
        OrderCase(text: #"{"formatVersion":2,"placements":{"k":[1e400]}}"#, rule: .numberOutOfRange),
        OrderCase(text: #"{"formatVersion":2,"placements":{"k":"# + nested(126) + "}}", rule: .nestingTooDeep),
        OrderCase(text: "\u{FEFF}" + #"{"formatVersion":2,"placements":{}}"#, rule: .byteOrderMark),
    ]

    @Test(arguments: checksBeforeTheVersion)
    func rule10ComesAfterChecks1To9(_ order: OrderCase) {
        #expect(rejectionRule(order.text) == order.rule)
    }

    // MARK: What does not throw

    static let loadingZero = [
        #"{"formatVersion":1}"#,
        #"{"formatVersion":1,"placements":{}}"#,
        #"{"placements":{},"formatVersion":1}"#,
        #"{"formatVersion":1,"unknown":{"a":[1,2,{"b":null}]},"other":null}"#,
        "[1]",
        "[1,{}]",
    ]

    @Test(arguments: loadingZero)
    func placementsMissingOrEmptyLoadsZero(_ text: String) throws {
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 0)
        #expect(try FallbackStore().setFallbackPlacements(json: text) == 0)
    }

    static let metadataValues = [
        nil, "null", "1764400000000", "-1", "1.5", "1e400", #""proj_123""#, #""""#, "true", "[]", "{}", #"{"a":[1,{"b":2}]}"#,
        "18446744073709551616",
    ]

    @Test(arguments: metadataValues)
    func generatedAtAndProjectIdOfAnyTypeOrAbsentLoad(_ value: String?) {
        var text = #"{"formatVersion":1,"placements":{"k":{"placement":{"identifier":"k","revision":1}}}"#
        if let value {
            text += #","generatedAt":"# + value + #","projectId":"# + value
        }
        text += "}"
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    @Test func unknownTopLevelKeysLoad() {
        let fixed = #"{"zzz":1,"formatVersion":1,"aaa":[{"x":"y"}],"placements":{"k":{}},"placements2":null,"FormatVersion":"x"}"#
        let file = FallbackFile(text: fixed)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
    }

    // MARK: The array quirk

    @Test func arrayQuirkFormatVersionOnlyLoadsZero() {
        let file = FallbackFile(text: "[1]")
        #expect(file.rejection == nil)
        #expect(file.usesArrayTopLevel)
        #expect(file.loadedCount == 0)
        #expect(FallbackFile(text: Self.good).usesArrayTopLevel == false)
    }

    @Test func arrayQuirkWithPlacementsLoads() throws {
        let text = #"[1,{"a":{"placement":{"identifier":"a","revision":1}},"b":{}}]"#
        let file = FallbackFile(text: text)
        #expect(file.rejection == nil)
        #expect(file.usesArrayTopLevel)
        #expect(file.loadedCount == 2)
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == 2)
        #expect(store.entry(forPlacement: "a")?.placement?.identifier == "a")
    }

    static let arrayTooLong = [#"[1,{},2]"#, #"[1,{},{}]"#, #"[1,{},null]"#, #"[1,{"k":{}},[]]"#, #"[1,{},1,1,1]"#]

    @Test(arguments: arrayTooLong)
    func arrayQuirkThreeOrMoreElementsThrow(_ text: String) {
        #expect(rejectionRule(text) == .topLevelArrayTooLong)
    }

    @Test func arrayQuirkThirdElementThatIsNotJSONThrowsToo() {
        #expect(rejectionRule(#"[1,{},x]"#) != nil)
    }

    @Test func arrayQuirkVersionIsChecked() {
        #expect(rejectionRule("[2]") == .unsupportedFormatVersion)
        #expect(rejectionRule("[2,{}]") == .unsupportedFormatVersion)
        #expect(rejectionRule(#"["1"]"#) == .unsupportedFormatVersion)
        #expect(rejectionRule("[1.0,{}]") == .unsupportedFormatVersion)
        #expect(rejectionRule("[null]") == .unsupportedFormatVersion)
        #expect(FallbackFile(text: "[2]").rejection?.message == "unsupported fallback placements formatVersion 2 (expected 1)")
        #expect(rejectionRule("[]") == .topLevelNotAnObject)
    }

    // MARK: Messages and positions

    struct PositionCase: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let rule: FallbackRejection.Rule
        let line: Int
        let column: Int
        var testDescription: String { name }
    }

    static let positions: [PositionCase] = [
        PositionCase(name: "trailing garbage", text: #"{"formatVersion":1,"placements":{}} x"#, rule: .invalidJSON, line: 1, column: 37),
        PositionCase(name: "trailing comma in an object", text: #"{"formatVersion":1,}"#, rule: .invalidJSON, line: 1, column: 20),
        PositionCase(name: "trailing comma in an array", text: #"{"formatVersion":1,"placements":{"a":[1,]}}"#, rule: .invalidJSON, line: 1, column: 41),
        PositionCase(name: "leading zero", text: #"{"formatVersion":01}"#, rule: .invalidJSON, line: 1, column: 19),
        PositionCase(name: "NaN", text: #"{"formatVersion":1,"x":NaN}"#, rule: .invalidJSON, line: 1, column: 24),
        PositionCase(
            name: "multi-line file",
            text: """
                {
                  "formatVersion": 1,
                  "placements": {
                    "a": {"placement": {"identifier": "a", "revision": 01}}
                  }
                }
                """,
            rule: .invalidJSON, line: 4, column: 57),
        PositionCase(
            name: "CRLF line endings", text: "{\r\n  \"formatVersion\": 01\r\n}", rule: .invalidJSON, line: 2, column: 21),
        PositionCase(
            // Columns count Unicode scalars: ç ğ ı 🚀 ï are one column each (the byte column would be 45).
            name: "non-ASCII before the error",
            text: "{\n  \"formatVersion\": 1,\n  \"projectId\": \"çağrı 🚀 naïve\", \"x\": NaN\n}",
            rule: .invalidJSON, line: 3, column: 38),
        PositionCase(
            name: "tab counts as one column", text: "{\n\t\"formatVersion\":\t1,\t\"x\":\t\"éé\",\tx}", rule: .invalidJSON,
            line: 2, column: 33),
        PositionCase(
            name: "raw control character", text: "{\"formatVersion\":1,\"projectId\":\"ab\u{01}\"}", rule: .invalidJSON,
            line: 1, column: 35),
    ]

    @Test(arguments: positions)
    func syntaxErrorPositionAndMessage(_ expected: PositionCase) throws {
        let rejection = try #require(FallbackFile(text: expected.text).rejection)
        #expect(rejection.rule == expected.rule)
        #expect(rejection.position == JSONDocument.Position(line: expected.line, column: expected.column))
        #expect(rejection.message.hasPrefix("fallback placements file is not valid JSON: "))
        #expect(rejection.message.hasSuffix(" at line \(expected.line) column \(expected.column)"))
        do {
            try FallbackStore().setFallbackPlacements(json: expected.text)
            Issue.record("the load should throw")
        } catch {
            #expect(error.kind == .invalidArgument)
            #expect(error.message == rejection.message)
        }
    }

    /// Rules 4 to 9 come from the same parse and read as "not valid JSON" too; only rule 10 has its own message.
    @Test(arguments: [
        #"{"formatVersion":1,"placements":null}"#, #"{"placements":{}}"#, #"{"formatVersion":1,"formatVersion":1}"#, "null",
        #"{"formatVersion":1,"placements":{"k":[1e400]}}"#, fileText(entry: nested(126)),
    ])
    func rules4To9UseTheInvalidJSONMessage(_ text: String) throws {
        let rejection = try #require(FallbackFile(text: text).rejection)
        #expect([.nestingTooDeep, .numberOutOfRange, .topLevelNotAnObject, .duplicateField, .formatVersionMissing, .placementsNotAnObject].contains(rejection.rule))
        #expect(rejection.message.hasPrefix("fallback placements file is not valid JSON: "))
        #expect(rejection.message.contains(" at line 1 column "))
    }
}
