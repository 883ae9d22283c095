import FallbackSample
import Foundation
import Testing
@testable import RovenueFallback

/// No crash, no hang, no stack overflow, whatever the bytes: every input is loaded or rejected by a
/// rule of fallback-format.md §2.
@Suite("Robustness")
struct RobustnessTests {
    @Test func emptyFile() {
        let document = JSONDocument(bytes: [])
        #expect(document.hasRoot == false)
        #expect(document.syntaxError != nil)
        let file = FallbackFile(bytes: [])
        #expect(file.rejection?.rule == .invalidJSON)
        #expect(file.rejection?.position == JSONDocument.Position(line: 1, column: 1))
        #expect(file.entries.isEmpty)
        #expect(throws: FallbackError.self) { try FallbackStore().setFallbackPlacements(json: "") }
    }

    /// Every byte prefix of both example files: rejected as invalid JSON (rule 1) or, when the cut
    /// splits a multi-byte character, as invalid UTF-8 (rule 3). A prefix that only lacks trailing
    /// whitespace is the whole document and loads.
    @Test(arguments: ["funnel-era-fallback.json", "paywall-era-fallback.json"], 0..<4)
    func everyTruncationIsRejectedCleanly(_ name: String, _ quarter: Int) throws {
        let bytes = try fixtureBytes(name)
        let complete = FallbackFile(bytes: bytes)
        #expect(complete.rejection == nil)
        let end = try #require(bytes.lastIndex { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) + 1
        let stride = (bytes.count + 3) / 4
        var unexpected: [(length: Int, rule: FallbackRejection.Rule?)] = []
        for length in quarter * stride..<min(bytes.count, (quarter + 1) * stride) {
            let rule = FallbackFile(bytes: Array(bytes[..<length])).rejection?.rule
            if length < end {
                if rule != .invalidJSON && rule != .invalidUTF8 { unexpected.append((length, rule)) }
            } else if rule != nil {
                unexpected.append((length, rule))
            }
        }
        #expect(unexpected.isEmpty, "first unexpected: \(unexpected.prefix(5))")
    }

    @Test func truncationInsideAMultiByteCharacterIsInvalidUTF8() {
        // "ç" is C3 A7: cutting after C3 leaves a truncated sequence inside an unterminated string.
        let bytes = Array(#"{"formatVersion":1,"projectId":"ç"}"#.utf8)
        let cut = bytes.firstIndex(of: 0xC3)! + 1
        #expect(FallbackFile(bytes: Array(bytes[..<cut])).rejection?.rule == .invalidUTF8)
        #expect(FallbackFile(bytes: Array(bytes[..<(cut - 1)])).rejection?.rule == .invalidJSON)
    }


    /// Every outcome must be coherent: a rejection loads nothing; a load accounts for every key.
    static func checkCoherent(_ file: FallbackFile) {
        if file.rejection != nil {
            #expect(file.entries.isEmpty)
            #expect(file.loadedCount == 0)
        } else {
            #expect(file.loadedCount + file.skippedCount == file.entries.count)
            for record in file.entries {
                if let failure = record.failure {
                    let location = file.location(of: failure.source)
                    #expect(location.pointer.hasPrefix("/placements/") || location.pointer.hasPrefix("/1/"))
                }
                for ref in record.arrayForms + record.duplicateFields.map(\.object) {
                    _ = file.location(of: ref)
                }
            }
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(seed: 0x5EED)
        let alphabet = Array(#"{}[]:,"\ 01-.eE+tfnulrasx/"#.utf8) + [0x00, 0x0A, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        for _ in 0..<3000 {
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            Self.checkCoherent(FallbackFile(bytes: bytes))
            Self.checkCoherent(FallbackFile(bytes: bytes, strippingByteOrderMark: true))
        }
    }

    @Test func mutatedFixturesNeverCrash() throws {
        var generator = SplitMix64(seed: 42)
        let original = try fixtureBytes("paywall-era-fallback.json")
        let interesting = Array(#"{}[]:,"\0123456789-.eEtfn "#.utf8) + [0x80, 0xC3, 0xED, 0xFF]
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = interesting.randomElement(using: &generator)!
                case 1: bytes.remove(at: index)
                default: bytes.insert(interesting.randomElement(using: &generator)!, at: index)
                }
            }
            Self.checkCoherent(FallbackFile(bytes: bytes))
        }
    }

    @Test func everyLeadingByteAloneInAString() {
        for byte in UInt8(0)...UInt8(255) {
            let bytes = Array(#"{"formatVersion":1,"projectId":""#.utf8) + [byte] + Array(#""}"#.utf8)
            let rule = FallbackFile(bytes: bytes).rejection?.rule
            switch byte {
            case 0x00..<0x20: #expect(rule == .invalidJSON, "byte \(byte)")
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): #expect(rule == .invalidJSON, "byte \(byte)")
            case 0x20..<0x80: #expect(rule == nil, "byte \(byte)")
            default: #expect(rule == .invalidUTF8, "byte \(byte)")
            }
        }
    }

    // MARK: Deep nesting

    static let million = 1_000_000

    @Test func aMillionUnclosedBracketsAtTheTop() {
        // The top level is an array, so the quirk reads its first element as formatVersion, and the
        // 128th `[` is too deep (rule 4) long before the text ends unclosed (rule 1): the streaming
        // reader stops at the first.
        let bytes = [UInt8](repeating: UInt8(ascii: "["), count: Self.million)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection?.rule == .nestingTooDeep)
        #expect(file.rejection?.position == JSONDocument.Position(line: 1, column: 128))
        #expect(file.document.syntaxError != nil)
        #expect(file.document.syntaxError?.offset == Self.million)
    }

    @Test func aMillionUnclosedBracketsInAnUnknownKeyAreInvalidJSON() {
        let bytes = Array(#"{"formatVersion":1,"placements":{},"x":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: Self.million)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection?.rule == .invalidJSON)
        #expect(file.rejection?.offset == bytes.count)
    }

    @Test func aMillionNestedArraysInAnUnknownKeyLoad() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: Self.million) + [UInt8](repeating: UInt8(ascii: "]"), count: Self.million)
        let bytes = Array(#"{"formatVersion":1,"x":"#.utf8) + deep + Array(#","placements":{"k":{}}}"#.utf8)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
        // Positions and pointers of the deepest value are computed without recursion.
        let deepest = file.document.value(at: 4 + Self.million - 1)
        #expect(deepest.kind == .array)
        #expect(deepest.count == 0)
        #expect(deepest.position == JSONDocument.Position(line: 1, column: 24 + Self.million - 1))
        let pointer = deepest.pointer
        #expect(pointer.hasPrefix("/x/0/0/"))
        #expect(pointer.utf8.count == 2 + 2 * (Self.million - 1))
    }

    @Test func aMillionNestedObjectsInGeneratedAtLoad() {
        let levels = Self.million / 4
        let deep = String(repeating: #"{"a":"#, count: levels - 1) + "{}" + String(repeating: "}", count: levels - 1)
        let file = FallbackFile(text: #"{"formatVersion":1,"generatedAt":"# + deep + #","placements":{}}"#)
        #expect(file.rejection == nil)
    }

    @Test func aMillionNestedArraysInPlacementsAreTooDeep() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: Self.million) + [UInt8](repeating: UInt8(ascii: "]"), count: Self.million)
        let bytes = Array(#"{"formatVersion":1,"placements":{"k":"#.utf8) + deep + Array("}}".utf8)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection?.rule == .nestingTooDeep)
        // Level 128 is the 126th `[` of the entry (top level 1, placements 2).
        #expect(file.rejection?.offset == 37 + 125)
        #expect(file.entries.isEmpty)
    }

    @Test func aMillionNestedArraysInFormatVersionAreTooDeep() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: Self.million) + [UInt8](repeating: UInt8(ascii: "]"), count: Self.million)
        let file = FallbackFile(bytes: Array(#"{"formatVersion":"#.utf8) + deep + Array(#","placements":{}}"#.utf8))
        #expect(file.rejection?.rule == .nestingTooDeep)
    }

    @Test func ownedCopyOfDeepInputIsBuiltWithoutRecursion() throws {
        let depth = Self.million
        let document = JSONDocument(text: String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth))
        #expect(document.syntaxError == nil)
        var value = document.root.owned
        var levels = 0
        while case .array(let elements) = value {
            levels += 1
            value = try #require(elements.first)
            #expect(elements.count == 1)
        }
        #expect(levels == depth)
        #expect(value == .number(JSONNumber(text: "1")))
        // Each level is released as the loop walks down, so no deep release chain is left behind.
    }

    // MARK: Size

    @Test func aHundredMegabyteStringValue() throws {
        let size = 100 * 1024 * 1024
        // Built as one String and copied out once: a byte-by-byte append is slow in a debug build.
        let bytes = Array((#"{"formatVersion":1,"placements":{"k":{}},"projectId":""# + String(repeating: "a", count: size) + #""}"#).utf8)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection == nil)
        #expect(file.loadedCount == 1)
        #expect(file.projectId?.byteRange.count == size + 2)
    }

    @Test func aHundredMegabyteUnterminatedStringIsACleanRule1Error() throws {
        // The text ends inside a 100 MB string: invalid JSON at the very end.
        let bytes = Array((#"{"formatVersion":1,"placements":{},"projectId":""# + String(repeating: "a", count: 100 * 1024 * 1024)).utf8)
        let file = FallbackFile(bytes: bytes)
        #expect(file.rejection?.rule == .invalidJSON)
        #expect(file.rejection?.offset == bytes.count)
    }

    @Test func aLongPlacementIdentifier() throws {
        let identifier = String(repeating: "é", count: 1_000_000)
        let file = FallbackFile(text: fileText(entry: #"{"placement":{"identifier":""# + identifier + #"","revision":1}}"#, key: identifier))
        #expect(file.loadedCount == 1)
        #expect(file.loadedEntries.first?.key == identifier)
        #expect(file.loadedEntries.first?.entry.placement?.identifier == identifier)
    }

    @Test func manyPlacements() throws {
        let count = 50_000
        let members = (0..<count).map { #""p\#($0)":{"placement":{"identifier":"p\#($0)","revision":\#($0)}}"# }
        let text = fileText(placements: "{" + members.joined(separator: ",") + "}")
        let store = FallbackStore()
        #expect(try store.setFallbackPlacements(json: text) == count)
        #expect(store.entry(forPlacement: "p49999")?.placement?.revision == 49999)
    }

    // MARK: JSON Pointer escaping (RFC 6901)

    struct PointerCase: Sendable, CustomTestStringConvertible {
        /// The key as written in JSON (escapes allowed).
        let keyJSON: String
        let token: String
        var testDescription: String { keyJSON }
    }

    static let pointerCases: [PointerCase] = [
        PointerCase(keyJSON: #""a/b""#, token: "a~1b"),
        PointerCase(keyJSON: #""m~n""#, token: "m~0n"),
        PointerCase(keyJSON: #""~1""#, token: "~01"),
        PointerCase(keyJSON: #""/~""#, token: "~1~0"),
        PointerCase(keyJSON: #""a\/b""#, token: "a~1b"),
        PointerCase(keyJSON: #""\u007e""#, token: "~0"),
        PointerCase(keyJSON: #""""#, token: ""),
        PointerCase(keyJSON: #""with space""#, token: "with space"),
        PointerCase(keyJSON: #""çağrı 🚀""#, token: "çağrı 🚀"),
        PointerCase(keyJSON: #""0""#, token: "0"),
    ]

    @Test(arguments: pointerCases)
    func pointerEscaping(_ pointerCase: PointerCase) throws {
        let text = #"{"formatVersion":1,"placements":{"# + pointerCase.keyJSON + #":{"placement":{"identifier":"x","revision":"5"}}}}"#
        let file = FallbackFile(text: text)
        let failure = try #require(file.entries.first?.failure)
        #expect(file.location(of: failure.source).pointer == "/placements/" + pointerCase.token + "/placement/revision")

        // A map key below the entry is escaped the same way.
        let paywalls = #"{"formatVersion":1,"placements":{"k":{"funnel":{"id":"f","slug":"s","pages":[],"paywalls":{"# + pointerCase.keyJSON + #":1}}}}}"#
        let paywallFile = FallbackFile(text: paywalls)
        let paywallFailure = try #require(paywallFile.entries.first?.failure)
        #expect(paywallFile.location(of: paywallFailure.source).pointer == "/placements/k/funnel/paywalls/" + pointerCase.token)
    }

    @Test func pointerEscapingFunction() {
        #expect(JSONDocument.escapePointerToken("a/b~c") == "a~1b~0c")
        #expect(JSONDocument.escapePointerToken("~1") == "~01")
        #expect(JSONDocument.escapePointerToken("plain") == "plain")
    }
}
