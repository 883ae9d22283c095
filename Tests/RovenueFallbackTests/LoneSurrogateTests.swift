import Foundation
import Testing
@testable import RovenueFallback

/// fallback-format.md §2 rule 1: a lone surrogate escape throws, except in the value of a top-level
/// key other than `formatVersion` and `placements`, which the SDK's parser skips without decoding
/// its strings. Where it loads, it reads as U+FFFD.
@Suite("§2 rule 1: lone surrogates")
struct LoneSurrogateTests {
    static let loneSurrogates = [
        #"\uD800"#, #"\uDBFF"#, #"\ud83d"#, #"\uD83Dx"#, #"\uD83D\u0041"#, #"\uD83D\n"#, #"\uD83D\uD83D"#, #"\uD83D\uE000"#,
        #"\uD83D "#, #"a\uD800b"#, #"\uDC00"#, #"\uDFFF"#, #"\ude00"#, #"\uDE00\uD83D"#, #"x\uDC00"#, #"\uD83D\uDE00\uD800"#,
    ]

    @Test(arguments: loneSurrogates)
    func loadsInTheValueOfAnotherTopLevelKey(_ content: String) throws {
        for key in ["projectId", "generatedAt", "extra"] {
            for value in ["\"" + content + "\"", "[\"" + content + "\"]", #"{"a":{"b":""# + content + #""}}"#] {
                let text = #"{"formatVersion":1,"# + quote(key) + ":" + value + #","placements":{"k":{"placement":{"identifier":"k","revision":1}}}}"#
                let file = FallbackFile(text: text)
                #expect(file.rejection == nil, "\(text)")
                #expect(file.loadedCount == 1)
            }
        }
        // Also in a key inside such a value: that key is skipped unread too.
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"extra":{""# + content + #"":1}}"#) == nil)
    }

    @Test(arguments: loneSurrogates)
    func throwsWhereTheSDKDecodesTheString(_ content: String) {
        let string = "\"" + content + "\""
        let texts = [
            // A top-level key itself.
            "{" + string + #":1,"formatVersion":1,"placements":{}}"#,
            // formatVersion (rule 1 before rule 10), in any depth.
            #"{"formatVersion":"# + string + #","placements":{}}"#,
            #"{"formatVersion":["# + string + #"],"placements":{}}"#,
            // placements: a string there is decoded to report the wrong type (rule 1 before rule 9).
            #"{"formatVersion":1,"placements":"# + string + "}",
            // A placement key, an entry, a field the entry ignores, a replaced duplicate key.
            fileText(placements: "{" + string + ":{}}"),
            fileText(entry: #"{"placement":{"identifier":"# + string + #","revision":1}}"#),
            fileText(entry: #"{"unknown":["# + string + "]}"),
            fileText(placements: #"{"k":"# + string + #","k":{}}"#),
            // The array quirk's two fields, and a top-level string.
            "[" + string + "]", #"[1,{"k":"# + string + "}]", string,
        ]
        for text in texts {
            let rejection = FallbackFile(text: text).rejection
            #expect(rejection?.rule == .invalidJSON, "\(text)")
            #expect(rejection?.detail.contains("surrogate") == true, "\(String(describing: rejection))")
        }
    }

    @Test func theRejectionPointsAtTheEscape() throws {
        let text = "{\"formatVersion\":1,\n\"placements\":{\"k\":{\"x\":\"ab\\uDC00\"}}}"
        let rejection = try #require(FallbackFile(text: text).rejection)
        #expect(rejection.rule == .invalidJSON)
        #expect(rejection.position == .init(line: 2, column: 27))
        #expect(rejection.message == "fallback placements file is not valid JSON: lone trailing surrogate in hex escape at line 2 column 27")
    }

    /// Checks come in text order: an ignored lone surrogate does not hide a later rule, and one in
    /// placements throws only when it comes before another rule's violation.
    @Test func textOrderDecides() {
        #expect(rejectionRule(#"{"projectId":"\ud800","formatVersion":2,"placements":{}}"#) == .unsupportedFormatVersion)
        #expect(rejectionRule(#"{"projectId":"\ud800","formatVersion":1,"formatVersion":1}"#) == .duplicateField)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{"k":["\ud800",1e400]}}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{"k":[1e400,"\ud800"]}}"#) == .numberOutOfRange)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":"\ud800",}"#) == .invalidJSON)
        #expect(rejectionRule(#"{"formatVersion":1,"placements":{},"projectId":"\ud800\uZZZZ"}"#) == .invalidJSON)
    }

    @Test(arguments: [
        (#"\uD800"#, "\u{FFFD}"), (#"a\uD800b"#, "a\u{FFFD}b"), (#"\uD83D\u0041"#, "\u{FFFD}A"),
        (#"\uDE00\uD83D"#, "\u{FFFD}\u{FFFD}"), (#"\uD83D\uD83D\uDE00"#, "\u{FFFD}😀"), (#"\uD83D\n"#, "\u{FFFD}\n"),
        (#"\uDC00x"#, "\u{FFFD}x"), (#"\ud83d\ude00"#, "😀"),
    ])
    func decodesAsReplacementCharacters(_ content: String, _ expected: String) throws {
        let file = FallbackFile(text: #"{"formatVersion":1,"placements":{},"projectId":""# + content + #""}"#)
        #expect(file.rejection == nil)
        let projectId = try #require(file.projectId?.string)
        #expect(projectId == expected)
        #expect(Array(projectId.utf8) == Array(expected.utf8))
        #expect(file.projectId?.owned == .string(expected))
    }

    /// Other JSON the tool reads (configuration, template contexts) stays strict.
    @Test func aPlainDocumentStillRejectsThem() throws {
        let document = JSONDocument(text: #"{"a":"\ud800"}"#)
        let error = try #require(document.syntaxError)
        #expect(error.message == "lone leading surrogate in hex escape")
        #expect(error.offset == 6)
    }
}
