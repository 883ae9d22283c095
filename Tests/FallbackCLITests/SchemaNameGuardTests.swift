import Foundation
import RovenueFallback
import Testing

/// The schema lives in types (`Schema.swift`, `Model.swift`, read by `EntryDecoder.swift`): no other
/// source names a snapshot field by a string or reaches it by a hard-coded position. A renamed or
/// reordered field is then one edit in the schema, and a wrong name is a compile error.
///
/// The scan looks at the places where code reads the snapshot by a field's name or position, not at
/// every string: a report's JSON key `"rule"` or a Mustache key `context["funnel"] = …` is not a
/// field lookup, whatever its spelling.
@Suite("Snapshot field names and positions live only in the schema types")
struct SchemaNameGuardTests {
    /// The files that define the schema: they spell every field name and position once.
    static let schemaFiles: Set<String> = [
        "Sources/RovenueFallback/Schema.swift", "Sources/RovenueFallback/Model.swift", "Sources/RovenueFallback/EntryDecoder.swift",
    ]

    /// Every field name of the contract, from the schema itself: §4's structs and §2's top level.
    static let fieldNames: Set<String> = Set(SchemaShape.allCases.flatMap(\.fieldNames) + TopLevelField.allCases.map(\.rawValue))

    /// One use of a field name or position outside the schema.
    struct Violation: CustomStringConvertible, Equatable {
        let file: String
        let line: Int
        let what: String
        let text: String

        var description: String { "\(file):\(line): \(what): \(text)" }
    }

    /// A pattern that names a field by a string, with `NAME` standing for any field name.
    static let namedPatterns: [(what: String, pattern: String)] = [
        ("a field looked up by name", #"\bfieldRef\(\s*"NAME""#),
        ("a field looked up by name", #"\bnode\(\s*of:\s*"NAME""#),
        ("a field looked up by name", #"\blocation\(\s*of:\s*"NAME""#),
        ("a field looked up by name", #"\.field\(\s*"NAME""#),
        ("a field left out by name", #"\bexcludingKey:\s*"NAME""#),
        // A read, not an assignment: `context["funnel"] = …` builds a template context.
        ("a JSON value's member read by name", #"[\w)\]?!]\[\s*"NAME"\s*\](?!\s*=[^=])"#),
        ("a field path step spelled by hand", #"\.member\(\s*"NAME""#),
        ("a field path step spelled by hand", #"\bmatched\(\s*field:\s*"NAME""#),
    ]

    /// Patterns that reach a field by a hard-coded position.
    static let positionalPatterns: [(what: String, pattern: String)] = [
        ("a field reached by position", #"\bfields\[\s*\d"#),
        ("a field reached by position", #"\belements\[\s*\d"#),
        ("a field name reached by position", #"\bfieldNames\["#),
        ("a field name reached by position", #"\bfieldName\(\s*at:\s*\d"#),
        ("a field position spelled by hand", #"\bposition:\s*\d"#),
    ]

    /// A string literal (one line, interpolations included as written).
    static let stringLiteral = try! NSRegularExpression(pattern: #""(?:[^"\\]|\\.)*""#)

    static func expressions(names: Set<String>) -> [(what: String, regex: NSRegularExpression)] {
        let alternation = names.sorted { $0.count > $1.count }.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        let named = namedPatterns.map { ($0.what, $0.pattern.replacingOccurrences(of: "NAME", with: "(?:\(alternation))")) }
        return (named + positionalPatterns).map { ($0.0, try! NSRegularExpression(pattern: $0.1)) }
    }

    /// The uses in `text` (the source of `file`), one per line at most.
    static func violations(in text: String, file: String, names: Set<String> = fieldNames) -> [Violation] {
        let expressions = expressions(names: names)
        var found: [Violation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(line)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // Comments may show a lookup as an example.
            if trimmed.hasPrefix("//") { continue }
            let range = NSRange(line.startIndex..., in: line)
            var what = expressions.first { $0.regex.firstMatch(in: line, range: range) != nil }?.what
            if what == nil, hasPointerLiteral(line, range: range, names: names) {
                what = "a JSON Pointer spelled by hand"
            }
            if let what { found.append(Violation(file: file, line: index + 1, what: what, text: trimmed)) }
        }
        return found
    }

    /// True when a string literal on the line is a JSON Pointer (it starts with `/`) with a field
    /// name as one of its tokens: `"/placements/\(key)/funnel/pages"`. URLs are not pointers.
    static func hasPointerLiteral(_ line: String, range: NSRange, names: Set<String>) -> Bool {
        stringLiteral.matches(in: line, range: range).contains { match in
            guard let literalRange = Range(match.range, in: line) else { return false }
            let content = line[literalRange].dropFirst().dropLast()
            guard content.hasPrefix("/"), !content.contains("://") else { return false }
            return content.split(separator: "/").contains { token in
                // A token ends where an interpolation or escape starts: `/pages\(suffix)`.
                names.contains(String(token.prefix { $0 != "\\" }))
            }
        }
    }

    /// Every `.swift` file under `Sources/` but the schema's, relative to the repository.
    static func sourceFiles() throws -> [String] {
        let root = repositoryPath("Sources")
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = "Sources/" + relative
            if relative.hasSuffix(".swift"), !schemaFiles.contains(path) { files.append(path) }
        }
        return files.sorted()
    }

    @Test func noSourceOutsideTheSchemaNamesAFieldByStringOrPosition() throws {
        let files = try Self.sourceFiles()
        #expect(files.count > 50, "the scan should see the package's sources")
        var violations: [Violation] = []
        for file in files {
            let text = try String(contentsOfFile: repositoryPath(file), encoding: .utf8)
            violations += Self.violations(in: text, file: file)
        }
        let listed = violations.map(\.description).joined(separator: "\n")
        #expect(
            violations.count == 0, "use the schema's Field enums (Paywall.Field.offering, its rawValue or position) instead:\n\(listed)")
    }

    @Test func theSchemaFilesExist() {
        // A moved schema file would silently widen the scan's exemptions to nothing and fail it; a
        // renamed one would leave an exemption that exempts nothing.
        for file in Self.schemaFiles {
            #expect(FileManager.default.fileExists(atPath: repositoryPath(file)), "\(file) is not where the guard expects it")
        }
    }

    @Test func theNamesComeFromTheSchema() {
        for name in ["offering", "default_next", "question_id", "variantId", "revision", "formatVersion", "placements"] {
            #expect(Self.fieldNames.contains(name), "\(name) should be a field name of the schema")
        }
        #expect(!Self.fieldNames.contains("rule"))
    }

    @Test(arguments: [
        #"let node = file.fieldRef("offering", in: paywall)"#,
        #"at: node(of: "default_next", in: pages[index]))"#,
        #"let location = file.location(of: "revision", in: placement)"#,
        #"let value = entry.field("placement")"#,
        #"ContentFingerprint.digest(of: value, excludingKey: "placement")"#,
        #"if let condition = rules.first?["condition"] {"#,
        #"let id = value["id"]?.string"#,
        #"let path = [.member("options"), .matched(field: "value", value: value)]"#,
        #"let pointer = "/placements/\(key)/funnel/pages""#,
        #"let pointer = base + "/pages""#,
        #"let version = document.root.elements[0]"#,
        #"let name = fields[3]"#,
        #"let name = T.fieldNames[position]"#,
        #"let name = form.fieldName(at: 2)"#,
        #"let slot = Slot(shape: .paywall, position: 6)"#,
    ])
    func theGuardCanFail(line: String) {
        let found = Self.violations(in: "import RovenueFallback\n\n" + line + "\n", file: "Sources/Example.swift")
        #expect(found.map(\.line) == [3], "\(line) should be reported")
    }

    @Test func theGuardLeavesOtherStringsAlone() {
        let source = """
            // file.fieldRef("offering", in: paywall) in a comment is an example
            let node = file.fieldRef(Paywall.Field.offering, in: paywall)
            context["funnel"] = funnelLink(funnel.id, root: root)
            item["revision"] = .string(String(placement.revision))
            let report = JSONValue.object([.init("rule", .string(rule.id.rawValue))])
            let hero = "https://cdn.example.app/paywalls/hero"
            let content = root.appendingPathComponent("content/pages")
            let same = a["id"] == b["id"] ? 1 : 0
            """
        let found = Self.violations(in: source, file: "Sources/Example.swift")
        // Only the last line reads members by field name; the rest are not field lookups.
        #expect(found.map(\.line) == [8], "\(found)")
    }
}
