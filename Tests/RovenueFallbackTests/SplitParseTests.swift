import FallbackSample
import Foundation
@testable import RovenueFallback
import Testing

/// Stage 2 in two halves (`JSONDocument.SplitParse`) gives exactly the document of one parse, on
/// every input file of the repository, on generated exports split at every place two halves can
/// meet and at places they cannot, and on hostile texts that break, nest, escape or close around
/// the meeting comma; and it does meet where it can, or these comparisons would prove nothing.
@Suite struct SplitParseTests {
    /// Expects the document of a parse split at each of `splits` (lone surrogates accepted or
    /// not) to be the byte-by-byte parse's; returns how many of the split parses met in the middle.
    @discardableResult
    static func expectSameWhenSplit(
        _ bytes: [UInt8], at splits: some Sequence<Int>, _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        var met = 0
        let acceptances = bytes.contains(UInt8(ascii: "\\")) ? [false, true] : [false]
        for accepting in acceptances {
            let reference = JSONDocument(referenceParsing: bytes, acceptingLoneSurrogates: accepting)
            for split in splits {
                // Both sets of block masks: the split's scan for the meeting comma counts blocks with them.
                for path in [StructuralIndex.Path.vector, .portableVector] {
                    let document = JSONDocument(bytes: bytes, acceptingLoneSurrogates: accepting, path: path, splitAt: split)
                    StageTwoParserTests.expectSame(
                        document, as: reference, bytes: bytes, "\(label) \(path) split at \(split) accepting \(accepting)",
                        comparingPositions: false, sourceLocation: sourceLocation)
                    if document.storage.parsedInTwoHalves, case .vector = path { met += 1 }
                }
            }
        }
        return met
    }

    /// The offsets of the commas between members of an object nested in the top-level value: where
    /// two halves can meet.
    static func meetingCommas(_ text: String) -> [Int] {
        let document = JSONDocument(text: text)
        return document.nodes.indices.compactMap { index -> Int? in
            let node = document.nodes[index]
            guard node.kind == .string, node.flags & JSONDocument.isKey != 0, document.nodes.ordinal(of: index) > 0 else { return nil }
            let parent = Int(document.nodes.parent(of: index))
            guard parent >= 0, document.nodes.parent(of: parent) == 0 else { return nil }
            return Array(text.utf8)[..<Int(node.start)].lastIndex(of: UInt8(ascii: ","))
        }
    }

    @Test(arguments: StageTwoParserTests.files) func identicalOnFile(_ path: String) throws {
        let bytes = try StructuralIndexTests.bytes(ofFile: path)
        let splits = Set((0...8).map { bytes.count * $0 / 8 })
        Self.expectSameWhenSplit(bytes, at: splits.sorted(), path)
    }

    /// Every meeting comma of an export, compact and pretty-printed, every offset near them (in
    /// keys and strings, where the halves cannot meet there) and every 7th offset of a small one.
    @Test(arguments: ["\n", "\r\n"]) func aSampleExportMeetsAtEveryMember(_ lineEnd: String) throws {
        let compact = SampleExport(placementCount: 12, seed: 3).jsonText()
        let pretty = JSONDocument(text: compact).root.owned.jsonText(.prettyPrinted).replacingOccurrences(of: "\n", with: lineEnd)
        for (name, text) in [("compact", compact), ("pretty", pretty)] {
            let commas = Self.meetingCommas(text)
            try #require(commas.count == 11, "\(name): \(commas.count) meeting commas")
            let met = Self.expectSameWhenSplit(Array(text.utf8), at: commas, name)
            #expect(met == commas.count, "\(name): the halves met at \(met) of \(commas.count) commas")
            let around = Set(commas.flatMap { ($0 - 12)...($0 + 12) }).filter { $0 >= 0 }
            Self.expectSameWhenSplit(Array(text.utf8), at: around.sorted(), "\(name) around the commas")
        }
        let small = SampleExport(placementCount: 3, seed: 11).jsonText()
        let met = Self.expectSameWhenSplit(Array(small.utf8), at: stride(from: 0, through: small.utf8.count, by: 7), "small export at every 7th offset")
        #expect(met > 0)
    }

    /// Texts that break, nest, escape or close after the meeting comma, or fool the scan that finds it.
    static let hostile: [String] = [
        #"{"formatVersion":1,"placements":{"a":{"x":1},"b":{"y":[1,2]},"c":null}}"#,
        #"{"placements":{"a":1,"b":2,"c":3},"generatedAt":5,"projectId":"p"}"#,
        #"[1,{"a":{"k":"v"},"b":{"k":"w"},"c":{}}]"#,
        #"{"placements":{"a":1,"b":2,}}"#,
        #"{"placements":{"a":1,"b":2"#,
        #"{"placements":{"a":1,"b":"unterminated"#,
        #"{"placements":{"a":1,"b":"\x"}}"#,
        #"{"placements":{"a":1,"b":"\ud800","c":"\udc00x","d":"\ud83d\ude00"}}"#,
        #"{"placements":{"a":1,"b":1e400,"c":-1e999,"d":1.5}}"#,
        #"{"placements":{"a":1,"b":"},\"c\":{","c":"\\","d":"\\\"}"}}"#,
        #"{"placements":{"a":"x,y","b":{"c,d":[",",{"e":","}]},"f":2}}"#,
        #"{"placements":{"a":1,"b":2}} trailing"#,
        #"{"placements":{"a":1,"b":2}}}"#,
        #"{"placements":{"a":1,"b":2]}"#,
        #"{"placements":[{"a":1},{"b":2}],"c":{"d":1,"e":2}}"#,
        #"{"placements":{"a":1,"a":2,"a":3}}"#,
        "{\"placements\":{\"a\":1,\"b\":\"tab\tinside\"}}",
        "{\"placements\":{\"a\":1,\"b\":\"\u{E9}t\u{E9}\",\"c\":\"\u{1F600}\"}}",
        "{\"placements\" : {\n  \"a\" : 1 ,\n  \"b\" : [ true , false , null ] ,\r\n  \"c\" : { }\n}\n}\n",
        "{\"placements\":{\"a\":1,\"b\":" + String(repeating: "[", count: 140) + String(repeating: "]", count: 140) + ",\"c\":2}}",
        "{\"placements\":{\"a\":1,\"b\":" + String(repeating: "{\"k\":", count: 130) + "0" + String(repeating: "}", count: 130) + "}}",
    ]

    @Test(arguments: hostile.indices) func identicalOnHostileTexts(_ which: Int) {
        let bytes = Array(Self.hostile[which].utf8)
        Self.expectSameWhenSplit(bytes, at: 0...bytes.count, "hostile \(which)")
    }

    /// Invalid UTF-8 before, at and after the meeting comma.
    @Test func identicalWithInvalidUTF8() {
        let text = Array(#"{"placements":{"a":"x","b":"y","c":"z"}}"#.utf8)
        for position in text.indices {
            for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0x80]] {
                var bytes = text
                bytes.insert(contentsOf: bad, at: position)
                Self.expectSameWhenSplit(bytes, at: stride(from: 0, through: bytes.count, by: 3), "invalid UTF-8 at \(position)")
            }
        }
    }

    /// Random damage to an export: bytes replaced by structural characters, deleted or doubled.
    @Test func identicalOnDamagedExports() {
        let text = Array(SampleExport(placementCount: 4, seed: 5).jsonText().utf8)
        var generator = SplitMix64(seed: 42)
        for round in 0..<120 {
            let bytes = Self.damaged(text, by: &generator)
            let splits = (0..<12).map { _ in Int(generator.next() % UInt64(bytes.count + 1)) }
            Self.expectSameWhenSplit(bytes, at: splits, "damaged export \(round)")
        }
    }

    /// `bytes` with one to three random changes drawn from `generator`: a byte replaced by a
    /// structural character, deleted or doubled.
    static func damaged(_ bytes: [UInt8], by generator: inout SplitMix64) -> [UInt8] {
        let replacements = Array(#"{}[],:"\ 0e-"#.utf8)
        var bytes = bytes
        for _ in 0..<(1 + Int(generator.next() % 3)) {
            let position = Int(generator.next() % UInt64(bytes.count))
            switch generator.next() % 3 {
            case 0: bytes[position] = replacements[Int(generator.next() % UInt64(replacements.count))]
            case 1: bytes.remove(at: position)
            default: bytes.insert(bytes[position], at: position)
            }
        }
        return bytes
    }

    /// When the second half does not come (the scan found no meeting comma, or another one), the
    /// first goes on alone from the comma it stopped at.
    @Test func aFirstHalfWithoutItsSecondGoesOnAlone() throws {
        let text = SampleExport(placementCount: 6, seed: 13).jsonText()
        let bytes = Array(text.utf8)
        let reference = JSONDocument(referenceParsing: bytes)
        let commas = Self.meetingCommas(text)
        try #require(commas.count == 5)
        for comma in commas {
            let storage = bytes.withUnsafeBufferPointer { buffer in
                let index = ParseIndex(bytes: buffer, path: .vector)
                var parser = JSONDocument.Parser(count: bytes.count, scanner: IndexedScanner(index: index))
                parser.stopAfter = comma
                var stopped = 0
                parser.parseValues(buffer, &stopped)
                #expect(stopped == comma)
                parser.finish(buffer, at: stopped, meeting: nil)
                #expect(parser.stopAfter == Int.max, "the first half never stopped at \(comma)")
                return JSONDocument.Storage(bytes: bytes, parser: parser)
            }
            let document = JSONDocument(storage: storage)
            #expect(!document.storage.parsedInTwoHalves)
            StageTwoParserTests.expectSame(document, as: reference, bytes: bytes, "no second half at \(comma)")
        }
    }

    /// Where the halves meet in valid text, the second half was written into the first half's node
    /// block from where the first half's nodes end (`SplitParse.SharedBlock`), not copied there.
    @Test func aMetSplitParseWritesItsSecondHalfInPlace() throws {
        let compact = SampleExport(placementCount: 12, seed: 3).jsonText()
        let pretty = JSONDocument(text: compact).root.owned.jsonText(.prettyPrinted)
        for (name, text) in [("compact", compact), ("pretty", pretty)] {
            let bytes = Array(text.utf8)
            let reference = JSONDocument(referenceParsing: bytes)
            for comma in Self.meetingCommas(text) {
                let document = JSONDocument(bytes: bytes, path: .vector, splitAt: comma)
                #expect(document.storage.parsedInTwoHalves && document.storage.secondHalfWrittenInPlace, "\(name) split at \(comma)")
                StageTwoParserTests.expectSame(document, as: reference, bytes: bytes, "\(name) split at \(comma)", comparingPositions: false)
            }
        }
    }

    /// A large export is split without being asked, and still gives the one-piece document.
    @Test func aLargeExportIsSplitByDefault() throws {
        let bytes = Array(SampleExport(placementCount: 900, seed: 9).jsonText().utf8)
        try #require(bytes.count >= JSONDocument.SplitParse.minimumByteCount)
        let document = JSONDocument(bytes: bytes)
        #expect(document.storage.parsedInTwoHalves == (ProcessInfo.processInfo.activeProcessorCount > 1))
        #expect(document.storage.secondHalfWrittenInPlace == document.storage.parsedInTwoHalves)
        let whole = JSONDocument(bytes: bytes, path: .vector, splitAt: Int.max)
        #expect(!whole.storage.parsedInTwoHalves)
        StageTwoParserTests.expectSame(document, as: whole, bytes: bytes, "large export")
    }

    /// The meeting comma's scan counts the nodes before the comma exactly, in compact and
    /// pretty-printed text with empty containers (`{}`, `[ ]`, a brace on each line), so the second
    /// half writes where its nodes will stand; the comma it finds is the first at or after the split.
    @Test(arguments: ["", " ", "\n  ", "\r\n\t"]) func theScanCountsTheNodesBeforeTheComma(_ gap: String) throws {
        let export = SampleExport(placementCount: 40, seed: 21).jsonText()
        let pretty = JSONDocument(text: export).root.owned.jsonText(.prettyPrinted)
        // Empty containers, with `gap` inside, in every placement; long runs of them cross blocks.
        let empties = "\"e\":{\(gap)},\"f\":[\(gap)],\"g\":[{\(gap)},[\(gap)]," + String(repeating: "{\(gap)},", count: 40) + "[\(gap)]],"
        let withEmpties = export.replacingOccurrences(of: "\"placement\":", with: empties + "\"placement\":")
        try #require(withEmpties != export)
        for (name, text) in [("compact", export), ("pretty", pretty), ("with empty containers", withEmpties)] {
            let bytes = Array(text.utf8)
            let document = JSONDocument(text: text)
            let commas = Self.meetingCommas(text)
            try #require(commas.count == 39, "\(name): \(commas.count) meeting commas")
            // The key after each comma: as many nodes come before it as its index.
            let keys = document.nodes.indices.filter { index in
                let node = document.nodes[index]
                guard node.kind == .string, node.flags & JSONDocument.isKey != 0, document.nodes.ordinal(of: index) > 0 else { return false }
                let parent = Int(document.nodes.parent(of: index))
                return parent >= 0 && document.nodes.parent(of: parent) == 0
            }
            try #require(keys.count == commas.count)
            bytes.withUnsafeBufferPointer { buffer in
                let index = ParseIndex(bytes: buffer, path: .vector)
                for (comma, key) in zip(commas, keys) {
                    for split in [comma - 40, comma - 1, comma] where split >= 0 {
                        let found = JSONDocument.SplitParse.boundary(buffer, index: index, from: split)
                        #expect(found?.comma == comma, "\(name) from \(split)")
                        #expect(found?.nodesBefore == key, "\(name) from \(split): \(found?.nodesBefore ?? -1) nodes before, not \(key)")
                    }
                }
            }
        }
    }

    /// The block count from masks counts what the count token by token counts, on any bytes:
    /// random runs of brackets, separators, quotes, whitespace and control characters (backslashes
    /// too, which stop both), from every offset of their first blocks, at several depths.
    @Test func theBlockCountByMasksIsTheCountByTokens() {
        let alphabet = Array("{}[],:\"  \n\t\r\u{1}0a\\".utf8)
        var generator = SplitMix64(seed: 77)
        var compared = 0
        var countedBlocks = 0
        for round in 0..<300 {
            let length = 64 * (1 + Int(generator.next() % 12)) + Int(generator.next() % 64)
            // Mostly without backslashes (they end a count), with a few in some rounds.
            let letters = round % 5 == 0 ? alphabet.count : alphabet.count - 1
            // Some rounds mostly brackets, so that empty containers and deep runs are common.
            let bracketHeavy = round % 3 == 0
            // Opening as a text's top-level value does: both counts look back from a bracket that
            // closes, at most to the first byte.
            let bytes: [UInt8] = [UInt8(ascii: "{")] + (1..<length).map { _ in
                if bracketHeavy, generator.next() % 4 != 0 { return Array("{}[] ".utf8)[Int(generator.next() % 5)] }
                return alphabet[Int(generator.next() % UInt64(letters))]
            }
            bytes.withUnsafeBufferPointer { buffer in
                let index = ParseIndex(bytes: buffer, path: .vector)
                index.significant.withUnsafeBufferPointer { significant in
                    index.stringStops.withUnsafeBufferPointer { stops in
                        for offset in stride(from: 0, to: min(length, 130), by: 1 + Int(generator.next() % 5)) {
                            for startDepth in [2, 3, 8, 1_000] {
                                var referenceDepth = startDepth, referenceSeparators = 0
                                let reference = Self.countBlocksByToken(
                                    buffer, significant: significant, stops: stops, from: offset, before: length, depth: &referenceDepth,
                                    separators: &referenceSeparators)
                                // With this processor's masks and with the portable ones.
                                let masksToCompare: [any BlockMasks.Type] = [NativeBlockMasks.self, PortableBlockMasks.self]
                                for masks in masksToCompare {
                                    var depth = startDepth, separators = 0
                                    let counted = JSONDocument.SplitParse.countBlocks(
                                        buffer, significant: significant, stops: stops, from: offset, before: length, depth: &depth,
                                        separators: &separators, masks: masks)
                                    #expect(
                                        counted == reference && depth == referenceDepth && separators == referenceSeparators,
                                        "round \(round) from \(offset) at depth \(startDepth) with \(masks)")
                                    compared += 1
                                    countedBlocks += (counted.offset - offset) >> 6
                                }
                            }
                        }
                    }
                }
            }
        }
        // The comparisons counted blocks, or they would prove nothing.
        #expect(compared > 5_000 && countedBlocks > 5_000)
    }

    /// `SplitParse.countBlocks` token by token, as it was before it counted by masks: every
    /// significant byte outside strings read with a branch on it.
    static func countBlocksByToken(
        _ bytes: UnsafeBufferPointer<UInt8>, significant: UnsafeBufferPointer<UInt64>, stops: UnsafeBufferPointer<UInt64>,
        from offset: Int, before end: Int, depth: inout Int, separators: inout Int
    ) -> (offset: Int, inString: Bool) {
        var word = offset &>> 6
        // The bytes of the first block before `offset` were walked already.
        var live = ~0 &<< UInt64(offset & 63)
        // All ones while a string runs on from one block into the next.
        var inStringCarry: UInt64 = 0
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (offset, false) }
        let backslash = SIMD64<UInt8>(repeating: UInt8(ascii: "\\"))
        while (word &+ 1) &<< 6 <= end {
            let blockStart = word &<< 6
            guard !StructuralIndex.anyLane(base.loadUnaligned(fromByteOffset: blockStart, as: SIMD64<UInt8>.self) .== backslash) else {
                break
            }
            // Without backslashes, the significant string stops are quotes (and, in text that is
            // not JSON, control characters in strings: then the count is wrong, and the halves do
            // not meet).
            let quotes = stops[word] & significant[word] & live
            let inString = StructuralIndex.prefixXOR(quotes) ^ inStringCarry
            var tokens = significant[word] & ~inString & ~quotes & live
            var opens = 0
            var closes = 0
            var marks = 0
            var empty = 0
            while tokens != 0 {
                let at = blockStart &+ tokens.trailingZeroBitCount
                switch bytes[at] {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    opens &+= 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    closes &+= 1
                    if JSONDocument.SplitParse.closesEmpty(bytes, at: at) { empty &+= 1 }
                case UInt8(ascii: ","), UInt8(ascii: ":"):
                    marks &+= 1
                default:
                    break
                }
                tokens &= tokens &- 1
            }
            guard depth - closes >= 2 else { break }
            depth += opens - closes
            separators += opens + marks - empty
            inStringCarry = UInt64(bitPattern: Int64(bitPattern: inString) >> 63)
            word &+= 1
            live = ~0
        }
        let stopped = word &<< 6
        guard stopped > offset else { return (offset, false) }
        return (stopped, inStringCarry != 0)
    }
}
