import FallbackSample
import Foundation
import Testing
@testable import RovenueFallback

/// `Offering` is a view: the load checks an offering, its packages and their store ids without
/// making their strings and arrays (`EntryDecoder.offering(_:)`), and its properties read them when
/// asked. These tests hold the check to the full read that the load ran before the view (the
/// offering's fields, then `package(_:)` for each package): the same failure at the same node with
/// the same words, the same array forms and repeated fields recorded, and, when both succeed, the
/// same values.
@Suite struct OfferingViewTests {
    /// What the load did before `Offering` was a view: every field read and made.
    struct FullRead: Equatable {
        let identifier: String
        let isDefault: Bool
        let packages: [PackageValues]
    }

    /// A package's values, compared field by field.
    struct PackageValues: Equatable {
        let packageIdentifier, identifier, type, displayName: String
        let apple, google, androidBasePlanId, androidOfferId: String?
        let source, storeIdsSource: SourceRef

        init(_ package: Package) {
            packageIdentifier = package.packageIdentifier
            identifier = package.identifier
            type = package.type
            displayName = package.displayName
            apple = package.storeIds.apple
            google = package.storeIds.google
            androidBasePlanId = package.androidBasePlanId
            androidOfferId = package.androidOfferId
            source = package.source
            storeIdsSource = package.storeIds.source
        }
    }

    /// Every field of the offering at `index` read and made, as the load read it before the view.
    static func fullRead(_ document: JSONDocument, at index: Int) -> (Result<FullRead, DecodeFailure>, [ArrayForm], [DuplicateField]) {
        var decoder = EntryDecoder(document: document)
        let result: Result<FullRead, DecodeFailure>
        do {
            let fields = try decoder.fields(index, of: Offering.self)
            let identifier = try decoder.string(fields.required(.identifier))
            let isDefault = try decoder.bool(fields.required(.isDefault))
            let packages = try decoder.array(fields.required(.packages)) { (decoder: inout EntryDecoder, slot) throws(DecodeFailure) in
                try decoder.package(slot)
            }
            result = .success(FullRead(identifier: identifier, isDefault: isDefault, packages: packages.map(PackageValues.init)))
        } catch {
            result = .failure(error)
        }
        return (result, decoder.takeArrayForms(), decoder.takeDuplicateFields())
    }

    /// The load's check of the offering at `index`: the view it makes, or its failure.
    static func checked(_ document: JSONDocument, at index: Int) -> (Result<Offering, DecodeFailure>, [ArrayForm], [DuplicateField]) {
        var decoder = EntryDecoder(document: document)
        let result: Result<Offering, DecodeFailure>
        do {
            result = .success(try decoder.offering(index))
        } catch {
            result = .failure(error)
        }
        return (result, decoder.takeArrayForms(), decoder.takeDuplicateFields())
    }

    /// The node of the offering in an entry whose paywall is an object at `/paywall`.
    static func offeringNode(in file: FallbackTopLevel) -> Int? {
        file.document.root["placements"]?["k"]?["paywall"]?["offering"]?.index
    }

    /// Compares the check with the full read for the offering in `entry`; true when both failed.
    @discardableResult
    static func compare(entry: String, _ comment: Comment? = nil) throws -> Bool {
        let file = FallbackTopLevel(bytes: Array(fileText(entry: entry).utf8))
        try #require(file.rejection == nil, "\(entry)")
        let index = try #require(offeringNode(in: file), "no offering in \(entry)")
        let (expected, expectedForms, expectedRepeats) = fullRead(file.document, at: index)
        let (actual, forms, repeats) = checked(file.document, at: index)
        switch (expected, actual) {
        case (.success(let full), .success(let view)):
            // The view is read only where the full read succeeds: where it fails, reading the
            // view stops the process (`Offering.read`'s precondition), which the case below reports instead.
            #expect(view.source == SourceRef(node: index))
            #expect(FullRead(identifier: view.identifier, isDefault: view.isDefault, packages: view.packages.map(PackageValues.init)) == full, "\(entry)")
        case (.failure(let full), .failure(let check)):
            #expect(check == full, "\(entry)")
        default:
            Issue.record("the full read gave \(expected), the check \(actual), for \(entry)")
        }
        #expect(forms == expectedForms, "\(entry)")
        #expect(repeats == expectedRepeats, "\(entry)")
        if case .failure = expected { return true }
        return false
    }

    @Test(arguments: EntryDecodingTests.offeringCases + EntryDecodingTests.packageCases + EntryDecodingTests.storeIdsCases)
    func checkFailsAsTheFullReadFails(_ decodeCase: DecodeCase) throws {
        let failed = try Self.compare(entry: decodeCase.entry)
        #expect(failed == (decodeCase.pointer != nil), "\(decodeCase.name)")
    }

    /// Two wrong fields in one struct: the failure is at the first in the order the full read
    /// takes them (§4's order), so a check that takes them in another order fails here, not only
    /// in the one generated offering that happens to have both wrong.
    static let orderCases: [DecodeCase] = {
        let packageSlot = EntryDecodingTests.packageSlot
        let storeIdsSlot = EntryDecodingTests.storeIdsSlot
        return [
            .fails("packageIdentifier and identifier wrong", packageSlot.embed(Valid.package.with("packageIdentifier", "1").with("identifier", "2").json),
                at: packageSlot.pointer + "/packageIdentifier", "expected a string"),
            .fails("identifier and type wrong", packageSlot.embed(Valid.package.with("identifier", "1").with("type", "2").json),
                at: packageSlot.pointer + "/identifier", "expected a string"),
            .fails("type and displayName wrong", packageSlot.embed(Valid.package.with("type", "1").with("displayName", "2").json),
                at: packageSlot.pointer + "/type", "expected a string"),
            .fails("displayName wrong and storeIds a string", packageSlot.embed(Valid.package.with("displayName", "1").with("storeIds", #""x""#).json),
                at: packageSlot.pointer + "/displayName", "expected a string"),
            .fails("storeIds a string and androidBasePlanId wrong", packageSlot.embed(Valid.package.with("storeIds", #""x""#).with("androidBasePlanId", "1").json),
                at: packageSlot.pointer + "/storeIds", "expected an object"),
            .fails("apple and google wrong", storeIdsSlot.embed(#"{"google":2,"apple":1}"#), at: storeIdsSlot.pointer + "/apple", "expected a string"),
            .fails("google and androidBasePlanId wrong", packageSlot.embed(Valid.package.with("storeIds", #"{"google":2}"#).with("androidBasePlanId", "1").json),
                at: storeIdsSlot.pointer + "/google", "expected a string"),
            .fails("androidBasePlanId and androidOfferId wrong", packageSlot.embed(Valid.package.with("androidOfferId", "2").with("androidBasePlanId", "1").json),
                at: packageSlot.pointer + "/androidBasePlanId", "expected a string"),
            .fails("identifier and isDefault wrong", EntryDecodingTests.offeringSlot.embed(Valid.offering.with("isDefault", "1").with("identifier", "2").json),
                at: "/paywall/offering/identifier", "expected a string"),
            .fails("isDefault wrong and packages an object", EntryDecodingTests.offeringSlot.embed(Valid.offering.with("packages", "{}").with("isDefault", "1").json),
                at: "/paywall/offering/isDefault", "expected a boolean"),
            .fails("the first package wrong, then the second", EntryDecodingTests.offeringSlot.embed(Valid.offering.with("packages", #"[{"type":1},"p"]"#).json),
                at: "/paywall/offering/packages/0", "missing required field `packageIdentifier`"),
        ]
    }()

    @Test(arguments: orderCases)
    func theFirstWrongFieldInContractOrderFails(_ decodeCase: DecodeCase) throws {
        try EntryDecodingTests.check(decodeCase)
        #expect(try Self.compare(entry: decodeCase.entry))
    }

    /// A struct written as an object (its fields in a shuffled order, some left off, some repeated,
    /// some keys escaped) or as the array quirk (some elements left off the end, some extra).
    static func written(_ fields: [(name: String, value: String)], _ generator: inout SplitMix64) -> String {
        if generator.below(4) == 0 {
            var elements = fields.map(\.value)
            switch generator.below(8) {
            case 0: elements.removeLast(min(elements.count, 1 + generator.below(3)))
            case 1: elements.append(#""extra""#)
            default: break
            }
            return "[" + elements.joined(separator: ",") + "]"
        }
        var members: [String] = []
        for (name, value) in fields {
            let key = generator.below(10) == 0 ? "\\u00" + String(format: "%02x", name.utf8.first!) + name.dropFirst() : name
            switch generator.below(30) {
            case 0: continue
            case 1: members.append("\"\(key)\":\(value)"); members.append("\"\(name)\":\(generator.pick(["null", "1", #""again""#, value]))")
            default: members.append("\"\(key)\":\(value)")
            }
        }
        if generator.below(5) == 0 { members.append(#""metadata":{"a":[1]}"#) }
        if members.count > 1 {
            for _ in 0..<generator.below(3) { members.swapAt(generator.below(members.count), 0) }
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A value for a field: usually of its type, sometimes `null` or of another type.
    static func value(_ good: String, _ generator: inout SplitMix64) -> String {
        generator.below(30) == 0 ? generator.pick(["null", "1", "true", #""s""#, "[]", "{}", #""caf\u00e9""#]) : good
    }

    static func storeIds(_ generator: inout SplitMix64) -> String {
        written([("apple", value(#""com.app.\#(generator.below(100))""#, &generator)), ("google", value(#""g_\u00e9""#, &generator))], &generator)
    }

    static func package(_ number: Int, _ generator: inout SplitMix64) -> String {
        written(
            [
                ("packageIdentifier", value("\"$rc_\(number)\"", &generator)), ("identifier", value("\"p\(number)\"", &generator)),
                ("type", value(#""MONTHLY""#, &generator)), ("displayName", value(#""Monthly \"plus\"""#, &generator)),
                ("storeIds", generator.below(10) == 0 ? value("{}", &generator) : storeIds(&generator)),
                ("androidBasePlanId", value(#""base""#, &generator)), ("androidOfferId", value(#""offer""#, &generator)),
            ], &generator)
    }

    static func offering(_ generator: inout SplitMix64) -> String {
        let packages = (0..<generator.below(4)).map { package($0, &generator) }
        let list = generator.below(12) == 0 ? generator.pick(["{}", "null", #""p""#]) : "[" + packages.joined(separator: ",") + "]"
        return written(
            [("identifier", value(#""default""#, &generator)), ("isDefault", value(generator.pick(["true", "false"]), &generator)), ("packages", list)],
            &generator)
    }

    @Test func generatedOfferingsCheckAsTheyRead() throws {
        var generator = SplitMix64(seed: 20_261_207)
        var failed = 0
        let count = 1_500
        for _ in 0..<count {
            let offering = Self.offering(&generator)
            if try Self.compare(entry: EntryDecodingTests.offeringSlot.embed(offering)) { failed += 1 }
        }
        // Both kinds are well represented, or the comparison proves little.
        #expect(failed > count / 5)
        #expect(failed < count * 4 / 5)
    }

    /// The view reads the values as written, through the document, for each call; the file's load
    /// and the site read the same.
    @Test func viewReadsTheValuesAsWritten() throws {
        let offering = #"["gold",false,[{"packageIdentifier":"$a","identifier":"a","identifier":"a2","type":"ANNUAL","displayName":"Year","storeIds":["com.a",null]},["$b","b","WEEKLY","Week",{}]]]"#
        let file = FallbackFile(text: fileText(entry: EntryDecodingTests.offeringSlot.embed(offering)))
        let paywall = try #require(file.loadedEntries.first?.entry.paywall)
        let view = try #require(paywall.offering)
        #expect(view.identifier == "gold")
        #expect(view.isDefault == false)
        let packages = view.packages
        #expect(packages.map(\.identifier) == ["a2", "b"])
        #expect(packages.map(\.packageIdentifier) == ["$a", "$b"])
        #expect(packages.map(\.type) == ["ANNUAL", "WEEKLY"])
        #expect(packages.map(\.storeIds.apple) == ["com.a", nil])
        #expect(packages.map(\.storeIds.google) == [nil, nil])
        #expect(file.location(of: view.source).pointer == "/placements/k/paywall/offering")
        #expect(file.location(of: packages[1].source).pointer == "/placements/k/paywall/offering/2/1")
        // The load recorded the array forms and the repeated field inside the offering.
        let record = try #require(file.entries.first)
        #expect(record.shapedArrayForms.map(\.shape) == [.offering, .storeIds, .package])
        #expect(record.duplicateFields.map(\.field) == ["identifier"])
    }

    /// A paywall carried by a variant or a funnel's `paywalls` map is decoded by the same reader,
    /// so its offering is the same view, read from its own place.
    @Test func offeringsOfCarriedPaywallsReadFromTheirPlace() throws {
        let offering = #"{"identifier":"carried","isDefault":false,"packages":[["$v","v","WEEKLY","Week",{"google":"g.v"}]]}"#
        let paywall = Valid.paywall.with("offering", offering).json
        let variant = #"{"variantId":"a","weight":1,"paywall":"# + paywall + "}"
        let funnel = Valid.funnel.with("paywalls", #"{"pw":"# + paywall + "}").json
        let entry = #"{"placement":"# + EntryDecodingTests.placementJSON + #","experiment":"#
            + Valid.experiment.with("variants", "[" + variant + "]").json + #","funnel":"# + funnel + "}"
        let file = FallbackFile(text: fileText(entry: entry))
        let loaded = try #require(file.loadedEntries.first?.entry, "\(String(describing: file.entries.first?.failure))")
        let views = [
            (try #require(loaded.experiment?.variants.first?.paywall?.offering), "/placements/k/experiment/variants/0/paywall/offering"),
            (try #require(loaded.funnel?.paywalls?.values.first?.offering), "/placements/k/funnel/paywalls/pw/offering"),
        ]
        for (view, pointer) in views {
            #expect(file.location(of: view.source).pointer == pointer)
            #expect(view.identifier == "carried")
            #expect(view.isDefault == false)
            #expect(view.packages.map(\.storeIds.google) == ["g.v"])
            #expect(file.location(of: view.packages[0].source).pointer == pointer + "/packages/0")
        }
    }

    /// The view holds its document: it reads the same after the file that made it is gone.
    @Test func aViewOutlivesItsFile() throws {
        var file: FallbackFile? = FallbackFile(text: fileText(entry: EntryDecodingTests.offeringSlot.embed(Valid.offering.json)))
        let view = try #require(file?.loadedEntries.first?.entry.paywall?.offering)
        file = nil
        #expect(view.identifier == "default")
        #expect(view.packages.map(\.displayName) == ["Monthly"])
    }

    /// Reads from many threads at once give what one thread reads: each read leases its own
    /// string cache from the document's pool.
    @Test func concurrentReadsAgree() throws {
        let offerings = (0..<16).map { number in
            #"{"identifier":"o\#(number)","isDefault":true,"packages":["# + (0...number % 4).map { #"["$\#($0)","p\#($0)","T","D\#($0)",{"apple":"a\#(number)"}]"# }
                .joined(separator: ",") + "]}"
        }
        let placements = offerings.enumerated().map { quote("k\($0.offset)") + ":" + EntryDecodingTests.offeringSlot.embed($0.element) }
        let file = FallbackFile(text: fileText(placements: "{" + placements.joined(separator: ",") + "}"))
        let views = file.loadedEntries.compactMap { $0.entry.paywall?.offering }
        try #require(views.count == offerings.count)
        let expected = views.map { view in view.packages.map(PackageValues.init) }
        // 64 chunks of one read each, run on every core as the parallel decode runs its chunks.
        let reads = ParallelChunks(count: 64, size: 1).map { rounds in
            rounds.map { round in views[round % views.count].packages.map(PackageValues.init) }
        }.flatMap { $0 }
        #expect(reads == (0..<64).map { expected[$0 % views.count] })
        #expect(expected.map(\.count) == (0..<16).map { $0 % 4 + 1 })
    }
}

extension SplitMix64 {
    /// A number in `0..<bound`, drawn as the offering generator draws its choices.
    fileprivate mutating func below(_ bound: Int) -> Int { Int.random(in: 0..<bound, using: &self) }

    /// One of `choices`.
    fileprivate mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}
