import FallbackSample
import Foundation
import RovenueFallback
import Testing

@Suite("SampleExport")
struct SampleExportTests {
    private static let pageTypes: Set<String> = [
        "welcome", "statement", "feature", "info", "loading", "result", "paywall", "end_screen", "success",
        "contact_info", "email", "phone", "multi_choice", "single_choice", "picture_choice", "yes_no", "legal",
        "checkbox", "opinion_scale", "rating", "long_text", "short_text", "date_input", "number_input", "slider",
        "text_input",
    ]

    @Test("the same count and seed give the same text", arguments: [1, 40, 200])
    func deterministic(count: Int) {
        let first = SampleExport(placementCount: count, seed: 7).jsonText()
        let second = SampleExport(placementCount: count, seed: 7).jsonText()
        #expect(first == second)
    }

    @Test("the output is pinned, so every platform and toolchain must write these bytes")
    func golden() {
        let bytes = Array(SampleExport(placementCount: 25, seed: 1).jsonText().utf8)
        let fnv1a = bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
        #expect(bytes.count == 139_872)
        #expect(fnv1a == 0x7C32_AA04_33F7_7C7C)
    }

    @Test("different seeds give different exports", arguments: [(1, 2), (2, 3), (1, 99)] as [(UInt64, UInt64)])
    func seedsDiffer(first: UInt64, second: UInt64) {
        let a = SampleExport(placementCount: 20, seed: first)
        let b = SampleExport(placementCount: 20, seed: second)
        #expect(a.jsonText() != b.jsonText())
        #expect(a.json()["generatedAt"] != b.json()["generatedAt"])
        #expect(a.json()["projectId"] != b.json()["projectId"])
    }

    @Test("the export has the requested number of placements", arguments: [0, 1, 7, 150])
    func placementCount(count: Int) throws {
        let placements = try #require(members(of: SampleExport(placementCount: count).json()["placements"]))
        #expect(placements.count == count)
        #expect(Set(placements.map(\.key)).count == count)
    }

    @Test("the top level is format 1 with a 2026 timestamp in milliseconds")
    func header() throws {
        let export = SampleExport(placementCount: 3, seed: 11).json()
        #expect(export["formatVersion"] == 1)
        let generatedAt = try #require(int(export["generatedAt"]))
        #expect((1_767_225_600_000..<1_798_761_600_000).contains(generatedAt))
        #expect(export["projectId"]?.stringValue?.hasPrefix("proj_") == true)
    }

    @Test("every object's keys are unique and in ascending byte order", arguments: [1, 5] as [UInt64])
    func sortedKeys(seed: UInt64) {
        let export = SampleExport(placementCount: 60, seed: seed)
        #expect(allObjectsSorted(export.json()))
        #expect(export.json().jsonText() == export.jsonText())
    }

    @Test("the text has no whitespace outside strings")
    func compact() {
        #expect(whitespaceOutsideStrings(in: SampleExport(placementCount: 80, seed: 3).jsonText()) == 0)
    }

    @Test("the export and every placement parse with JSONSerialization", arguments: [1, 8] as [UInt64])
    func parses(seed: UInt64) throws {
        let export = SampleExport(placementCount: 120, seed: seed)
        let whole = try JSONSerialization.jsonObject(with: Data(export.jsonText().utf8))
        let placements = try #require((whole as? [String: Any])?["placements"] as? [String: Any])
        #expect(placements.count == 120)
        for member in try #require(members(of: export.json()["placements"])) {
            let entry = try JSONSerialization.jsonObject(with: Data(member.value.jsonText([.sortedKeys]).utf8))
            #expect(entry is [String: Any], "placement \(member.key)")
        }
    }

    @Test("a placement is about 5 KB", arguments: [1, 42] as [UInt64])
    func sizePerPlacement(seed: UInt64) {
        let count = 300
        let bytes = SampleExport(placementCount: count, seed: seed).jsonText().utf8.count
        #expect((4_000...6_500).contains(bytes / count), "\(bytes / count) bytes per placement")
    }

    @Test("content has the shape of a funnel-era export", arguments: [1, 2, 3] as [UInt64])
    func shape(seed: UInt64) throws {
        let placements = try #require(members(of: SampleExport(placementCount: 200, seed: seed).json()["placements"]))
        var funnels = [JSONValue]()
        var integerRevisions = 0
        var targets = Set<String>()
        for member in placements {
            let entry = member.value
            #expect(entry["placement"]?["identifier"]?.stringValue == member.key)
            if int(entry["placement"]?["revision"]) != nil { integerRevisions += 1 }
            if let funnel = entry["funnel"], !funnel.isNull {
                targets.insert("funnel")
                funnels.append(funnel)
            } else if let paywall = entry["paywall"], !paywall.isNull {
                targets.insert("paywall")
                #expect(paywall["offering"]?["packages"].map(elements)?.isEmpty == false)
            } else if let experiment = entry["experiment"], !experiment.isNull {
                targets.insert("experiment")
                let variants = try #require(experiment["variants"].map(elements))
                #expect((2...3).contains(variants.count))
                let total = variants.compactMap { $0["weight"].flatMap(number) }.reduce(0, +)
                #expect(abs(total - 1) < 1e-9)
                funnels += variants.compactMap { $0["funnel"] }
            } else {
                targets.insert("nothing")
            }
        }
        #expect(targets == ["funnel", "paywall", "experiment", "nothing"])
        #expect(Double(integerRevisions) >= 0.98 * Double(placements.count))
        for funnel in funnels {
            let pages = elements(funnel["pages"] ?? .null)
            #expect((5...15).contains(pages.count))
            let types = pages.compactMap { $0["type"]?.stringValue }
            #expect(Set(types).isSubset(of: Self.pageTypes))
            let questions = pages.compactMap { $0["question_id"]?.stringValue }
            #expect(Set(questions).count == questions.count)
            let locales = elements(funnel["locales"] ?? .null)
            #expect((2...3).contains(locales.count))
        }
    }

    // MARK: Helpers

    @Test("a next release republishes the requested placements a day later; the rest stay byte-identical")
    func nextRelease() throws {
        let first = SampleExport(placementCount: 60, seed: 5)
        let second = first.nextRelease(changing: 4)
        let third = second.nextRelease(changing: 4)
        #expect(first.release == 0 && second.release == 1 && third.release == 2)
        #expect(second.jsonText() == first.nextRelease(changing: 4).jsonText())
        #expect(SampleExport(placementCount: 60, seed: 5).nextRelease(changing: 0).json()["placements"] == first.json()["placements"])
        let exports = [first, second, third].map { $0.json() }
        for (older, newer) in zip(exports, exports.dropFirst()) {
            let before = try #require(members(of: older["placements"]))
            let after = try #require(members(of: newer["placements"]))
            #expect(before.map(\.key) == after.map(\.key))
            #expect(zip(before, after).count { $0.value != $1.value } == 4)
            for (old, new) in zip(before, after) {
                #expect(try revision(new.value) >= revision(old.value), "\(new.key)")
            }
            #expect(try #require(int(newer["generatedAt"])) - #require(int(older["generatedAt"])) == 86_400_000)
            #expect(newer["projectId"] == older["projectId"])
        }
    }

    /// `placement.revision`, written as an integer or (rarely) a string.
    private func revision(_ entry: JSONValue) throws -> Int64 {
        let value = try #require(entry["placement"]?["revision"])
        return try #require(int(value) ?? value.stringValue.flatMap { Int64($0) })
    }

    private func members(of value: JSONValue?) -> [JSONValue.Member]? {
        if case .object(let members)? = value { return members }
        return nil
    }

    private func elements(_ value: JSONValue) -> [JSONValue] {
        if case .array(let elements) = value { return elements }
        return []
    }

    private func int(_ value: JSONValue?) -> Int64? {
        if case .number(let number)? = value { return number.int64Value }
        return nil
    }

    private func number(_ value: JSONValue) -> Double? {
        if case .number(let number) = value { return number.doubleValue }
        return nil
    }

    private func allObjectsSorted(_ value: JSONValue) -> Bool {
        switch value {
        case .object(let members):
            let ordered = zip(members, members.dropFirst()).allSatisfy {
                $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
            }
            return ordered && members.allSatisfy { allObjectsSorted($0.value) }
        case .array(let elements):
            return elements.allSatisfy(allObjectsSorted)
        default:
            return true
        }
    }

    private func whitespaceOutsideStrings(in text: String) -> Int {
        var count = 0
        var scan = JSONTextScan()
        for byte in text.utf8 {
            if !scan.isInString, JSONTextScan.isWhitespace(byte) { count += 1 }
            scan.read(byte)
        }
        return count
    }
}
