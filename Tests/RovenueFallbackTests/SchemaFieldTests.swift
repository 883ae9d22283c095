import FallbackSample
import Foundation
import Testing
@testable import RovenueFallback

// The schema as types (fallback-format.md §4): every struct's `Field` enum against the contract's
// own text, and the decoder, array-form records and field lookups driven by those enums.

/// The shape block of fallback-format.md §4, quoted verbatim; `ContractShapes` parses it.
let contractShapeBlock = """
    Entry            = { placement: Placement?  (default)
                         paywall:   Paywall?    (default)
                         experiment: Experiment? (default)
                         funnel:    Funnel?     (default) }
    Placement        = { identifier: string, revision: int }
    Experiment       = { id: string, key: string, variants: [Variant] }      variants may be empty
    Variant          = { variantId: string, weight: number,
                         paywall: Paywall? (default), funnel: Funnel? (default) }
                         -- a variant whose funnel and paywall are both absent fails to decode
    Paywall          = { id: string, identifier: string, name: string, configFormatVersion: int,
                         remoteConfig: RemoteConfig?, builderConfig: any? (default),
                         offering: Offering? }
    RemoteConfig     = { locale: string, data: any }          data is required (null allowed)
    Offering         = { identifier: string, isDefault: bool, packages: [Package] }
    Package          = { packageIdentifier: string, identifier: string, type: string,
                         displayName: string, storeIds: StoreIds,
                         androidBasePlanId: string? (default), androidOfferId: string? (default) }
    StoreIds         = { apple: string?, google: string? }    other stores ignored
    Funnel           = { id: string, slug: string, name: string? (default),
                         versionId: string? (default), versionNo: int? (default),
                         defaultLocale: string? (default), locales: [string]? (default),
                         pages: [Page], theme: any? (default), settings: any? (default),
                         paywalls: {string: Paywall}? (default) }
    Page             = { id: string, type: string, question_id: string? (default),
                         title, subtitle, body, cta, headline, placeholder, suffix,
                         agreementLabel: Text? (default),
                         benefits, features, steps: TextList? (default),
                         options: [Option]? (default), paywallId: string? (default),
                         next_rules: [NextRule]? (default), default_next: string? (default) }
                         -- every other page field (required, min, max, step, duration,
                            mediaKind, mediaUrl, termsUrl, background, ...) is ignored by the decoder
    Text             = string | { <locale>: string }
    TextList         = [string] | { <locale>: [string] }
    Option           = { label: Text, value: string, imageUrl: string? (default) }
    NextRule         = { id: string, condition: Condition, goto: string }
    Condition        = { op: "all" | "any", clauses: [Clause] }
    Clause           = { question_id: string, op: ClauseOp, value: any? (default) }
    ClauseOp         = "eq" | "neq" | "gt" | "gte" | "lt" | "lte" | "between" | "in"
                     | "not_in" | "contains" | "is_answered" | "is_not_answered"
    """

/// The structs of the §4 block: each definition `Name = { field: type, … }`, its fields in order.
enum ContractShapes {
    struct Field: Equatable, CustomStringConvertible {
        let name: String
        let presence: FieldPresence
        var description: String { "\(name) \(presence)" }
    }

    /// The struct definitions of `block` by name (definitions without braces, like `Text`, are not structs).
    static func parse(_ block: String) -> [String: [Field]] {
        var definitions: [(name: String, text: String)] = []
        for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
            if let first = line.first, first != " ", let equals = line.firstIndex(of: "=") {
                definitions.append((line[..<equals].trimmingCharacters(in: .whitespaces), String(line[line.index(after: equals)...])))
            } else if !definitions.isEmpty {
                definitions[definitions.count - 1].text += "\n" + line
            }
        }
        var shapes: [String: [Field]] = [:]
        for (name, text) in definitions {
            guard let (body, notes) = braced(text) else { continue }
            shapes[name] = fields(of: body, notes: notes)
        }
        return shapes
    }

    /// The text between a definition's outer braces, and what follows them (the contract's notes).
    private static func braced(_ text: String) -> (body: String, notes: String)? {
        let characters = Array(text)
        guard let open = characters.firstIndex(of: "{"), characters[..<open].allSatisfy(\.isWhitespace) else { return nil }
        var depth = 0
        for index in open..<characters.count {
            if characters[index] == "{" { depth += 1 }
            if characters[index] == "}" { depth -= 1 }
            if depth == 0 {
                return (String(characters[(open + 1)..<index]), String(characters[(index + 1)...]))
            }
        }
        return nil
    }

    /// The fields of a struct body: `a: T, b, c: U? (default)` (names before a type share it).
    private static func fields(of body: String, notes: String) -> [Field] {
        var result: [Field] = []
        var untyped: [String] = []
        for piece in topLevel(body, splittingAt: [",", "\n"]) {
            let parts = topLevel(piece, splittingAt: [":"], limit: 1)
            let name = parts[0]
            guard parts.count == 2 else {
                untyped.append(name)
                continue
            }
            let type = parts[1]
            let presence: FieldPresence
            if type.contains("(default)") {
                presence = .defaulted
            } else if type.hasSuffix("?") {
                presence = .optional
            } else {
                presence = notes.contains("\(name) is required (null allowed)") ? .requiredAllowingNull : .required
            }
            result += (untyped + [name]).map { Field(name: $0, presence: presence) }
            untyped = []
        }
        return result
    }

    /// `text` split at `separators` outside brackets and braces, pieces trimmed, empty ones dropped.
    private static func topLevel(_ text: String, splittingAt separators: Set<Character>, limit: Int = .max) -> [String] {
        var pieces: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            if "[{".contains(character) { depth += 1 }
            if "]}".contains(character) { depth -= 1 }
            if depth == 0, separators.contains(character), pieces.count < limit {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        return pieces.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// Every struct value of a decoded entry, parents before children.
func structs(of entry: FallbackEntry) -> [any SourceBacked] {
    var all: [any SourceBacked] = [entry]
    func paywall(_ paywall: Paywall) {
        all.append(paywall)
        if let remoteConfig = paywall.remoteConfig { all.append(remoteConfig) }
        if let offering = paywall.offering {
            all.append(offering)
            for package in offering.packages { all += [package, package.storeIds] }
        }
    }
    func funnel(_ funnel: Funnel) {
        all.append(funnel)
        for page in funnel.pages {
            all.append(page)
            all += (page.options ?? []) as [any SourceBacked]
            for rule in page.nextRules ?? [] {
                all += [rule, rule.condition]
                all += rule.condition.clauses as [any SourceBacked]
            }
        }
        for embedded in funnel.paywalls?.values ?? [] { paywall(embedded) }
    }
    if let placement = entry.placement { all.append(placement) }
    if let direct = entry.paywall { paywall(direct) }
    if let experiment = entry.experiment {
        all.append(experiment)
        for variant in experiment.variants {
            all.append(variant)
            if let target = variant.paywall { paywall(target) }
            if let target = variant.funnel { funnel(target) }
        }
    }
    if let direct = entry.funnel { funnel(direct) }
    return all
}

/// Writes a value of a document again as JSON text, with chosen objects written as arrays of their
/// fields (in the order of their struct's `Field`) and one member of one object replaced or left off.
struct Rewriter {
    let document: JSONDocument
    /// Objects to write as arrays: their struct, and how many elements (nil: all, less trailing `null`s
    /// the struct lets an array leave off).
    var arrays: [Int: (shape: SchemaShape, count: Int?)] = [:]
    /// An object's member to write as `json` instead (appended when absent), or to leave off (`nil`).
    var edit: (object: Int, name: String, json: String?)?

    init(document: JSONDocument) {
        self.document = document
    }

    func text(_ index: Int) -> String {
        let value = document.value(at: index)
        if let array = arrays[index] {
            let members = value.uniqueMembers
            var elements = array.shape.fieldNames.map { name in members[name].map { text($0.index) } ?? "null" }
            if let count = array.count {
                elements = Array(elements.prefix(count)) + Array(repeating: "null", count: max(0, count - elements.count))
            } else {
                while elements.count > array.shape.minimumArrayCount, elements.last == "null" { elements.removeLast() }
            }
            return "[" + elements.joined(separator: ",") + "]"
        }
        switch value.kind {
        case .object:
            var members = value.members.map { (key: $0.key, json: raw($0.keyValue) + ":" + text($0.value.index)) }
            if let edit, edit.object == index {
                members.removeAll { $0.key == edit.name }
                if let json = edit.json { members.append((edit.name, quote(edit.name) + ":" + json)) }
            }
            return "{" + members.map(\.json).joined(separator: ",") + "}"
        case .array:
            return "[" + value.elements.map { text($0.index) }.joined(separator: ",") + "]"
        default:
            return raw(value)
        }
    }

    private func raw(_ value: JSONDocument.Value) -> String {
        String(decoding: document.bytes[value.byteRange], as: UTF8.self)
    }
}

/// The corpora the schema tests rewrite: the contract's two example files and a generated export.
let schemaCorpora: [String] = {
    let fixtures = ["funnel-era-fallback.json", "paywall-era-fallback.json"].map { name in
        String(decoding: (try? fixtureBytes(name)) ?? [], as: UTF8.self)
    }
    return fixtures + [SampleExport(placementCount: 40, seed: 3).jsonText()]
}()

@Suite("The schema as types")
struct SchemaFieldTests {
    /// The field types of every struct, by shape.
    static let fieldTypes: [SchemaShape: any SchemaField.Type] = [
        .entry: FallbackEntry.Field.self, .placement: Placement.Field.self, .experiment: Experiment.Field.self,
        .variant: Variant.Field.self, .paywall: Paywall.Field.self, .remoteConfig: RemoteConfig.Field.self,
        .offering: Offering.Field.self, .package: Package.Field.self, .storeIds: StoreIds.Field.self,
        .funnel: Funnel.Field.self, .page: Page.Field.self, .option: PageOption.Field.self,
        .nextRule: NextRule.Field.self, .condition: Condition.Field.self, .clause: Clause.Field.self,
    ]

    @Test func theContractBlockHasExactlyTheShapes() {
        let parsed = ContractShapes.parse(contractShapeBlock)
        #expect(Set(parsed.keys) == Set(SchemaShape.allCases.map(\.rawValue)))
        // The parser reads what the contract says in words, too.
        #expect(parsed["Paywall"]?.count == 7)
        #expect(parsed["Page"]?.count == 18)
    }

    @Test(arguments: SchemaShape.allCases)
    func fieldsAreTheContractsInOrder(shape: SchemaShape) throws {
        let contract = try #require(ContractShapes.parse(contractShapeBlock)[shape.rawValue])
        #expect(shape.fieldNames == contract.map(\.name))
        #expect(shape.presences == contract.map(\.presence))
        let type = try #require(Self.fieldTypes[shape])
        #expect(Self.names(of: type) == contract.map(\.name))
    }

    @Test(arguments: SchemaShape.allCases)
    func positionsAreDeclarationOrder(shape: SchemaShape) throws {
        func positions<Field: SchemaField>(_ type: Field.Type) -> [Int] { Field.allCases.map(\.position) }
        let type = try #require(Self.fieldTypes[shape])
        #expect(positions(type) == Array(0..<shape.fieldNames.count))
    }

    /// §4's example in words: "a `Paywall` array needs all 7 elements, because `offering` comes last".
    @Test func aPaywallArrayNeedsAllSevenElements() {
        #expect(Paywall.Field.minimumArrayCount == 7)
        #expect(SchemaShape.paywall.minimumArrayCount == 7)
        #expect(FallbackEntry.Field.minimumArrayCount == 0)
        #expect(Funnel.Field.minimumArrayCount == 8)
    }

    @Test func textFieldsAreThePagesTextAndTextListFields() {
        #expect(Page.Field.textFields.map(\.rawValue) == ["title", "subtitle", "body", "cta", "headline", "placeholder", "suffix", "agreementLabel"])
        #expect(Page.Field.textListFields.map(\.rawValue) == ["benefits", "features", "steps"])
    }

    private static func names(of type: any SchemaField.Type) -> [String] {
        func names<Field: SchemaField>(_ type: Field.Type) -> [String] { Field.allCases.map(\.rawValue) }
        return names(type)
    }

    // MARK: Array forms: every struct of the corpora rewritten as an array

    /// Every struct of every loaded entry, written as an array of its fields: the file loads the same
    /// entries, and the decoder records each array with the struct it read it as, and nothing else.
    @Test(arguments: 0..<schemaCorpora.count, [false, true])
    func everyStructAsAnArrayIsRecordedWithItsShape(corpus: Int, trimmed: Bool) throws {
        let original = FallbackFile(text: schemaCorpora[corpus])
        var rewriter = Rewriter(document: original.document)
        for (_, entry) in original.loadedEntries {
            for value in structs(of: entry) {
                rewriter.arrays[value.source.node] = (type(of: value).shape, trimmed ? nil : type(of: value).shape.fieldNames.count)
            }
        }
        #expect(rewriter.arrays.count > 20)
        let file = FallbackFile(text: rewriter.text(original.document.root.index))
        #expect(file.rejection == nil)
        #expect(file.entries.map { $0.entry != nil } == original.entries.map { $0.entry != nil })

        var expected: [SourceRef: SchemaShape] = [:]
        for (_, entry) in file.loadedEntries {
            for value in structs(of: entry) { expected[value.source] = type(of: value).shape }
        }
        let recorded = file.entries.flatMap(\.shapedArrayForms)
        let misread = recorded.filter { expected[$0.source] != $0.shape }.map { "\(file.location(of: $0.source)) as \($0.shape)" }
        #expect(misread == [])
        #expect(recorded.count == expected.count)
        #expect(Set(recorded.map(\.source)) == Set(expected.keys))
        #expect(file.entries.flatMap(\.arrayForms) == recorded.map(\.source))
        for form in recorded {
            #expect(file.arrayForm(at: form.source) == form)
            #expect(form.elementCount == file.document.value(at: form.source.node).count)
        }
        #expect(original.entries.allSatisfy { $0.shapedArrayForms.isEmpty })
    }

    /// Pointers built from `Field`: in an object, the member's name; in an array form, the field's
    /// position; `arraySlot(of:)` names the struct and field back; the transitional string lookup agrees.
    @Test(arguments: 0..<schemaCorpora.count)
    func fieldLookupsFollowTheFieldEnums(corpus: Int) throws {
        let original = FallbackFile(text: schemaCorpora[corpus])
        var rewriter = Rewriter(document: original.document)
        for (_, entry) in original.loadedEntries {
            for value in structs(of: entry) { rewriter.arrays[value.source.node] = (type(of: value).shape, nil) }
        }
        let arrays = FallbackFile(text: rewriter.text(original.document.root.index))
        var checked = 0
        for (file, isArray) in [(original, false), (arrays, true)] {
            for (_, entry) in file.loadedEntries {
                for value in structs(of: entry) { checked += Self.checkLookups(value, in: file, isArray: isArray) }
            }
        }
        #expect(checked > 200)
    }

    /// Checks every written field of `value`; returns how many it checked.
    private static func checkLookups<Value: SourceBacked>(_ value: Value, in file: FallbackFile, isArray: Bool) -> Int {
        let container = file.location(of: value.source).pointer
        var checked = 0
        for field in Value.Field.allCases {
            let ref = file.fieldRef(field, in: value)
            #expect(file.location(of: field, in: value) == file.location(of: ref ?? value.source))
            guard let ref else { continue }
            let token = isArray ? String(field.position) : JSONDocument.escapePointerToken(field.rawValue)
            #expect(file.location(of: ref).pointer == container + "/" + token)
            if isArray {
                let slot = file.arraySlot(of: ref)
                #expect(slot?.form.shape == Value.shape)
                #expect(slot?.position == field.position)
                #expect(slot?.form.fieldName(at: field.position) == field.rawValue)
                #expect(slot?.form.writtenFields(as: Value.self)?.contains(field) == true)
            } else {
                #expect(file.arraySlot(of: ref) == nil)
            }
            checked += 1
        }
        return checked
    }

    @Test func aSkippedEntryKeepsTheArrayFormsReadBeforeItFailedAndItsRawFields() throws {
        let file = FallbackFile(text: fileText(entry: #"[["k", 0.5], {"id": "p"}]"#))
        let record = try #require(file.entries.first)
        #expect(record.entry == nil)
        #expect(record.shapedArrayForms.map(\.shape) == [.entry, .placement])
        #expect(record.shapedArrayForms.map { Array($0.writtenFieldNames) } == [["placement", "paywall"], ["identifier", "revision"]])
        #expect(record.shapedArrayForms.first?.writtenFields(as: FallbackEntry.self).map(Array.init) == [.placement, .paywall])
        #expect(record.shapedArrayForms.first?.writtenFields(as: Paywall.self) == nil)
        let entry = file.document.value(at: record.value.node)
        let revision = try #require(entry.field(FallbackEntry.Field.placement)?.field(Placement.Field.revision))
        #expect(revision.pointer == "/placements/k/0/1")
        #expect(entry.field(FallbackEntry.Field.funnel) == nil)
        #expect(entry.field(FallbackEntry.Field.paywall)?.field(Paywall.Field.id)?.string == "p")
        #expect(revision.field(Placement.Field.revision) == nil)
    }

    @Test func anObjectFieldIsItsLastMember() throws {
        let file = FallbackFile(text: fileText(entry: #"{"placement": {"identifier": "k", "revision": 1, "revision": 2}}"#))
        let placement = try #require(file.loadedEntries.first?.entry.placement)
        #expect(placement.revision == 2)
        #expect(file.location(of: .revision, in: placement).pointer == "/placements/k/placement/revision")
        #expect(file.fieldRef(.revision, in: placement).map { file.document.value(at: $0.node).number?.text } == "2")
        #expect(file.arrayForm(at: placement.source) == nil)
    }

    // MARK: The decoder follows each field's presence

    /// One instance of every struct of the corpora, the first met.
    static let firstOfEachShape: [(file: FallbackFile, entry: SourceRef, value: any SourceBacked)] = {
        var found: [SchemaShape: (FallbackFile, SourceRef, any SourceBacked)] = [:]
        for text in schemaCorpora {
            let file = FallbackFile(text: text)
            for record in file.entries {
                for value in record.entry.map(structs) ?? [] where found[type(of: value).shape] == nil {
                    found[type(of: value).shape] = (file, record.value, value)
                }
            }
        }
        return SchemaShape.allCases.compactMap { found[$0] }
    }()

    @Test func theCorporaHoldEveryShape() {
        #expect(Self.firstOfEachShape.count == SchemaShape.allCases.count)
    }

    /// Each field of each struct left off, then written as `null`: the entry loads exactly when the
    /// field's presence allows it, and a required field fails with the decoder's message naming it.
    @Test(arguments: SchemaShape.allCases)
    func missingAndNullFieldsFollowPresence(shape: SchemaShape) throws {
        let (file, entry, value) = try #require(Self.firstOfEachShape.first { type(of: $0.value).shape == shape })
        for (position, name) in shape.fieldNames.enumerated() {
            let presence = shape.presences[position]
            for json in [nil, "null"] as [String?] {
                var rewriter = Rewriter(document: file.document)
                rewriter.edit = (value.source.node, name, json)
                let edited = FallbackFile(text: fileText(entry: rewriter.text(entry.node)))
                let failure = edited.entries.first?.failure
                let allowed = json == nil ? !presence.isRequired : presence != .required
                if allowed, shape == .variant, let variant = value as? Variant, ["paywall", "funnel"].contains(name) {
                    // A variant keeps a target only if it has the other one.
                    let other = name == "paywall" ? variant.funnel != nil : variant.paywall != nil
                    #expect((failure == nil) == other, "\(shape).\(name) = \(json ?? "missing")")
                    continue
                }
                #expect((failure == nil) == allowed, "\(shape).\(name) = \(json ?? "missing"): \(failure?.expectation ?? "loads")")
                if !allowed {
                    let expectation = json == nil
                        ? "missing required field `\(name)`" : "expected a value for required field `\(name)`, found null"
                    #expect(failure?.expectation == expectation)
                }
            }
        }
    }

    /// An array form one element too short fails naming the field it cannot leave off; one element
    /// too long fails listing the fields; exactly the minimum loads.
    @Test(arguments: SchemaShape.allCases)
    func arrayLengthsFollowDefaults(shape: SchemaShape) throws {
        let (file, entry, value) = try #require(Self.firstOfEachShape.first { type(of: $0.value).shape == shape })
        func outcome(count: Int) -> DecodeFailure? {
            var rewriter = Rewriter(document: file.document)
            rewriter.arrays[value.source.node] = (shape, count)
            return FallbackFile(text: fileText(entry: rewriter.text(entry.node))).entries.first?.failure
        }
        let minimum = shape.minimumArrayCount
        let fieldCount = shape.fieldNames.count
        if minimum > 0 {
            #expect(
                outcome(count: minimum - 1)?.expectation
                    == "expected an array of at least \(minimum) fields, found \(minimum - 1) elements: "
                    + "`\(shape.fieldNames[minimum - 1])` has no default, so the array cannot leave it off")
        }
        #expect(
            outcome(count: fieldCount + 1)?.expectation
                == "expected an array of at most \(fieldCount) fields (\(shape.fieldNames.joined(separator: ", "))), found \(fieldCount + 1) elements")
        let shortest = outcome(count: minimum)
        if shape == .variant {
            #expect(shortest?.expectation == "expected a variant with a funnel or a paywall, found neither")
        } else {
            #expect(shortest == nil, "\(shape) as \(minimum) elements: \(shortest?.expectation ?? "")")
        }
    }
}
