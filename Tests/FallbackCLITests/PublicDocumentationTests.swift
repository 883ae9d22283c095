import Foundation
import Testing

/// `RovenueFallback` is what an app links, so every declaration it makes public carries a doc
/// comment (`///` or `/** */` directly above it; attribute lines in between are fine). The only
/// exceptions are implementations of standard-library requirements whose meaning the protocol
/// fixes (`==`, `hash(into:)`, `description`, the literal initialisers, …), and only where the
/// enclosing type or extension names that protocol.
@Suite("RovenueFallback's public API is documented")
struct PublicDocumentationTests {
    static let libraryFolder = "Sources/RovenueFallback"

    /// Every public declaration of the library's `.swift` files, by file.
    static func libraryDeclarations() throws -> [(file: String, declarations: [PublicDeclarationScan.Declaration])] {
        let root = repositoryPath(libraryFolder)
        let files = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }.sorted()
        return try files.map { file in
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            return (libraryFolder + "/" + file, PublicDeclarationScan.declarations(in: text))
        }
    }

    @Test func everyPublicDeclarationHasADocComment() throws {
        let scanned = try Self.libraryDeclarations()
        let all = scanned.flatMap(\.declarations)
        // The scan must see the library, or an empty result would pass.
        #expect(all.count > 300, "found only \(all.count) public declarations in \(Self.libraryFolder)")
        #expect(all.contains { $0.isExempt }, "the exemptions should apply somewhere (==, description, …)")
        let missing = scanned.flatMap { file in
            file.declarations.filter { !$0.isDocumented && !$0.isExempt }.map { "\(file.file):\($0.line): \($0.text)" }
        }
        #expect(
            missing.isEmpty,
            "\(missing.count) public declarations of \(Self.libraryFolder) have no doc comment (`///` directly above):\n\(missing.joined(separator: "\n"))")
    }

    /// The scan on a made-up file: what it flags, what it lets through, and what it does not take
    /// for a declaration (strings, comments, bodies, internal types).
    @Test func theCheckCanFail() {
        let source = #"""
            /// Documented.
            public struct Sample: Hashable, CustomStringConvertible {
                public var undocumented: Int

                /// Documented, with an attribute on its own line.
                @discardableResult
                public func attributed() -> Int { 1 }
                /// Documented, with an attribute on the same line.
                @inlinable public var inline: Int { 1 }
                /** Documented in a block. */
                public init(value: Int) { undocumented = value }
                /// Documented, then a blank line.

                public func afterBlankLine() {}
                public static func == (lhs: Sample, rhs: Sample) -> Bool { true }
                public func hash(into hasher: inout Hasher) {}
                public var description: String { "public func inString() { \("}") }" }
                let text = """
                    public func inMultilineString() {
                    """
                /* public func inComment() { */
                func notPublic() {
                    public func cannotBeHere() {}
                }
                public internal(set) var setterInternal: Int
            }

            /// Documented.
            public enum Choice {
                case first, second
                /// Documented.
                case third
            }

            /// Documented.
            public protocol Requirements {
                func requirement()
                /// Documented.
                var documented: Int { get }
            }

            struct Internal {
                public func insideAnInternalType() {}
            }

            extension Sample {
                public func inAnExtension() {}
            }

            public extension Sample {
                func implicitlyPublic() {}
            }

            /// Documented.
            public struct NotDescribable {
                public var description: String { "" }
                public static func == (lhs: Self, rhs: Self) -> Bool { true }
            }
            """#
        let declarations = PublicDeclarationScan.declarations(in: source)
        let flagged = declarations.filter { !$0.isDocumented && !$0.isExempt }.map(\.text)
        #expect(
            flagged == [
                "public var undocumented: Int",
                "public func afterBlankLine() {}",
                "public internal(set) var setterInternal: Int",
                "case first, second",
                "func requirement()",
                "public func inAnExtension() {}",
                "func implicitlyPublic() {}",
                "public var description: String { \"\" }",
                "public static func == (lhs: Self, rhs: Self) -> Bool { true }",
            ])
        let exempt = declarations.filter(\.isExempt).map(\.text)
        #expect(exempt.count == 3, "==, hash(into:) and description of a Hashable, CustomStringConvertible type: \(exempt)")
        for name in ["inString", "inMultilineString", "inComment", "cannotBeHere", "insideAnInternalType", "notPublic"] {
            #expect(!declarations.contains { $0.text.hasPrefix("public func \(name)") || $0.text.hasPrefix("func \(name)") })
        }
        #expect(declarations.first { $0.text.hasPrefix("public struct Sample") }?.line == 2)
    }

    @Test(arguments: [
        ("public init(stringLiteral value: String) {}", "init(stringLiteral:)"),
        ("public init(nilLiteral: ()) {}", "init(nilLiteral:)"),
        ("public static func == (lhs: Self, rhs: Self) -> Bool {", "=="),
        ("public static func < (lhs: Self, rhs: Self) -> Bool {", "<"),
        ("public func map<R>(progress: ((Int) -> Void)? = nil, _ body: (Range<Int>) -> R) -> [R] {", "map(progress:_:)"),
        ("public func hash(into hasher: inout Hasher) {", "hash(into:)"),
        ("public func index(after i: Int) -> Int {", "index(after:)"),
        ("public subscript(position: Int) -> Int {", "subscript(position:)"),
        ("@inlinable public static var shape: SchemaShape { .entry }", "shape"),
        ("public func text(of clause: Clause, limit: Int = 3) -> String {", "text(of:limit:)"),
        ("public func jsonText(\n _ options: Options = [],\n shortenedTo limit: Int\n) -> String {", "jsonText(_:shortenedTo:)"),
    ])
    func signatures(source: String, signature: String) {
        #expect(PublicDeclarationScan.declarations(in: source).first?.signature == signature)
    }
}

/// A line-based reading of Swift source that finds public declarations and whether each has a
/// doc comment. Comments and string contents are blanked first (nested block comments, raw and
/// multi-line strings, interpolations), and braces are tracked, so only declarations that are
/// members of a type, an extension or the file count; a declaration is public when it says `public`
/// or `open` (inside types that are public themselves), or without a modifier when it is an enum
/// case of a public enum, a requirement of a public protocol or a member of a `public extension`.
enum PublicDeclarationScan {
    struct Declaration: Hashable {
        /// 1-based line of the declaration's first line.
        let line: Int
        /// The declaration's line as written, trimmed.
        let text: String
        /// `init(rawValue:)`, `hash(into:)`, `==`, `description`: the name the exemptions are keyed by.
        let signature: String
        let isDocumented: Bool
        /// A standard-library requirement whose meaning the protocol fixes, in a type or extension
        /// that names the protocol.
        let isExempt: Bool
    }

    /// Requirements exempt from a doc comment, with the protocols that fix their meaning.
    static let exemptions: [String: [String]] = {
        let equatable = ["Equatable", "Hashable", "Comparable"]
        let collection = ["Collection", "BidirectionalCollection", "RandomAccessCollection", "MutableCollection"]
        let rawRepresentable = ["RawRepresentable", "OptionSet"]
        return [
            "==": equatable, "<": ["Comparable"], "hash(into:)": ["Hashable"],
            "description": ["CustomStringConvertible"], "debugDescription": ["CustomDebugStringConvertible"],
            "init(stringLiteral:)": ["ExpressibleByStringLiteral"], "init(integerLiteral:)": ["ExpressibleByIntegerLiteral"],
            "init(floatLiteral:)": ["ExpressibleByFloatLiteral"], "init(booleanLiteral:)": ["ExpressibleByBooleanLiteral"],
            "init(arrayLiteral:)": ["ExpressibleByArrayLiteral"], "init(dictionaryLiteral:)": ["ExpressibleByDictionaryLiteral"],
            "init(nilLiteral:)": ["ExpressibleByNilLiteral"], "makeIterator()": ["Sequence"] + collection,
            "rawValue": rawRepresentable, "init(rawValue:)": rawRepresentable,
            "startIndex": collection, "endIndex": collection, "index(after:)": collection, "subscript(position:)": collection,
        ]
    }()

    static let declarationKeywords: Set<String> = [
        "func", "init", "var", "let", "subscript", "struct", "enum", "class", "protocol", "typealias", "actor", "case",
        "associatedtype", "extension", "macro",
    ]
    static let containerKeywords: Set<String> = ["struct", "enum", "class", "protocol", "actor", "extension"]
    static let accessModifiers: Set<String> = ["public", "open", "package", "internal", "fileprivate", "private"]
    static let otherModifiers: Set<String> = [
        "static", "class", "final", "override", "mutating", "nonmutating", "nonisolated", "indirect", "convenience", "required",
        "lazy", "weak", "unowned", "dynamic", "prefix", "postfix", "infix", "consuming", "borrowing", "distributed",
    ]

    /// A type or extension whose body is open at a line, or any other open brace.
    private enum Scope {
        case container(keyword: String, isPublic: Bool, header: String)
        case body
    }

    static func declarations(in source: String) -> [Declaration] {
        let raw = source.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        let code = codeLines(of: source)
        var scopes: [Scope] = []
        /// A type or extension declared, waiting for its `{`.
        var pending: (keyword: String, isPublic: Bool, header: String)?
        var found: [Declaration] = []
        for (index, line) in code.enumerated() {
            let isMemberLevel: Bool
            if case .body = scopes.last { isMemberLevel = false } else { isMemberLevel = true }
            if isMemberLevel, pending == nil, let parsed = parse(line) {
                let containers = scopes.compactMap { scope -> (keyword: String, isPublic: Bool, header: String)? in
                    if case .container(let keyword, let isPublic, let header) = scope { return (keyword, isPublic, header) }
                    return nil
                }
                let enclosing = containers.last
                let enclosingTypesArePublic = containers.allSatisfy { $0.keyword == "extension" || $0.isPublic }
                let isPublic: Bool
                switch parsed.access {
                case "public", "open": isPublic = enclosingTypesArePublic
                case nil:
                    isPublic = enclosingTypesArePublic && enclosing.map { container in
                        container.isPublic
                            && (container.keyword == "protocol" || container.keyword == "extension"
                                || (container.keyword == "enum" && parsed.keyword == "case"))
                    } ?? false
                default: isPublic = false
                }
                if containerKeywords.contains(parsed.keyword) {
                    pending = (parsed.keyword, parsed.access == "public" || parsed.access == "open", "")
                }
                if isPublic, parsed.keyword != "extension" {
                    let signature = signature(of: parsed, startingAt: index, in: code)
                    let protocols = exemptions[signature] ?? []
                    let header = enclosing?.header ?? ""
                    found.append(
                        Declaration(
                            line: index + 1, text: raw[index].trimmingCharacters(in: .whitespaces), signature: signature,
                            isDocumented: hasDocComment(above: index, in: raw),
                            isExempt: protocols.contains { names(in: header).contains($0) }))
                }
            }
            for character in line {
                switch character {
                case "{":
                    if let container = pending {
                        scopes.append(.container(keyword: container.keyword, isPublic: container.isPublic, header: container.header))
                        pending = nil
                    } else {
                        scopes.append(.body)
                    }
                case "}":
                    _ = scopes.popLast()
                default:
                    if pending != nil { pending!.header.append(character) }
                }
            }
            if pending != nil { pending!.header.append(" ") }
        }
        return found
    }

    /// A declaration's first line, read up to its keyword.
    struct Parsed {
        let access: String?
        let keyword: String
        /// The code after the keyword.
        let rest: Substring
    }

    /// The line as a declaration: attributes, then modifiers, then a declaration keyword; nil for
    /// any other line.
    static func parse(_ line: String) -> Parsed? {
        var rest = line.drop { $0 == " " || $0 == "\t" }
        func skipParentheses() {
            guard rest.first == "(" else { return }
            var depth = 0
            while let character = rest.first {
                rest.removeFirst()
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1; if depth == 0 { break } }
            }
        }
        func word() -> Substring {
            let word = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            rest = rest.dropFirst(word.count)
            return word
        }
        func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" } }
        while rest.first == "@" {
            rest.removeFirst()
            _ = word()
            skipParentheses()
            skipSpaces()
        }
        var access: String?
        while true {
            let next = String(word())
            if accessModifiers.contains(next) {
                // `private(set)` limits only the setter.
                if !rest.hasPrefix("(set)") { access = next }
                skipParentheses()
                skipSpaces()
                continue
            }
            skipSpaces()
            // `class` is a modifier before another keyword (`class func`), else it declares a class.
            if otherModifiers.contains(next), !(next == "class" && !declarationKeywords.contains(peekWord(rest))) {
                continue
            }
            return declarationKeywords.contains(next) ? Parsed(access: access, keyword: next, rest: rest) : nil
        }
    }

    private static func peekWord(_ text: Substring) -> String {
        String(text.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    /// `name` for a property or type, `name(label:…)` for a function, `init(label:)`,
    /// `subscript(first parameter:)`, the bare operator for an operator function.
    static func signature(of parsed: Parsed, startingAt index: Int, in code: [String]) -> String {
        let rest = parsed.rest.drop { $0 == " " }
        let name: String
        switch parsed.keyword {
        case "init", "subscript":
            name = parsed.keyword
        case "func":
            let operatorName = rest.prefix { "/=-+!*%<>&|^~?.".contains($0) }
            if !operatorName.isEmpty { return String(operatorName) }
            name = peekWord(rest)
        default:
            return peekWord(rest)
        }
        // The parameter list may run over several lines.
        var text = String(rest)
        var next = index + 1
        while text.filter({ $0 == "(" }).count > text.filter({ $0 == ")" }).count, next < code.count, next < index + 20 {
            text += " " + code[next]
            next += 1
        }
        guard let open = text.firstIndex(of: "(") else { return name }
        var depth = 0
        var parameters: [String] = []
        var current = ""
        var previous: Character = " "
        for character in text[open...] {
            switch character {
            case "(", "[", "<": depth += 1
            case ">" where previous == "-": break
            case ")", "]", ">": depth -= 1
            default: break
            }
            previous = character
            if depth == 0 { break }
            if depth == 1, character == "," {
                parameters.append(current)
                current = ""
            } else if !(depth == 1 && character == "(") {
                current.append(character)
            }
        }
        parameters.append(current)
        let labels = parameters.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { parameter in String(parameter.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) + ":" }
        return name + "(" + labels.joined() + ")"
    }

    /// The identifiers of a type's or extension's header: its name and the protocols it names.
    static func names(in header: String) -> Set<String> {
        Set(header.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    /// True when the lines above `index`, past attribute lines, end a `///` or `/** */` comment.
    static func hasDocComment(above index: Int, in lines: [String]) -> Bool {
        var line = index - 1
        while line >= 0, lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("@") { line -= 1 }
        guard line >= 0 else { return false }
        let text = lines[line].trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("///") { return true }
        guard text.hasSuffix("*/") else { return false }
        while line >= 0, !lines[line].contains("/*") { line -= 1 }
        return line >= 0 && lines[line].trimmingCharacters(in: .whitespaces).hasPrefix("/**")
    }

    /// `source` line for line, with comments removed and the contents of string literals blanked
    /// (their quotes kept): what is left is code, so its braces and keywords are real.
    static func codeLines(of source: String) -> [String] {
        let bytes = Array(source.utf8)
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
        let backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n")
        enum Context {
            /// Code; in an interpolation, the parentheses open in it (it ends at the one that closes it).
            case code(parentheses: Int?)
            case string(hashes: Int, multiline: Bool)
        }
        var stack: [Context] = [.code(parentheses: nil)]
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        func hashes(from index: Int) -> Int {
            var count = 0
            while at(index + count) == hash { count += 1 }
            return count
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch stack[stack.count - 1] {
            case .string(let hashCount, let multiline):
                if byte == newline {
                    output.append(newline)
                    index += 1
                } else if byte == backslash, hashes(from: index + 1) >= hashCount {
                    let escaped = index + 1 + hashCount
                    if at(escaped) == UInt8(ascii: "(") {
                        output.append(UInt8(ascii: "("))
                        stack.append(.code(parentheses: 1))
                    } else if at(escaped) == newline {
                        output.append(newline)
                    }
                    index = escaped + 1
                } else if byte == quote, (0..<(multiline ? 3 : 1)).allSatisfy({ at(index + $0) == quote }),
                    hashes(from: index + (multiline ? 3 : 1)) >= hashCount
                {
                    output.append(quote)
                    stack.removeLast()
                    index += (multiline ? 3 : 1) + hashCount
                } else {
                    index += 1
                }
            case .code(let parentheses):
                let opening = hashes(from: index)
                if byte == slash, at(index + 1) == slash {
                    while index < bytes.count, bytes[index] != newline { index += 1 }
                } else if byte == slash, at(index + 1) == star {
                    var depth = 0
                    repeat {
                        if at(index) == slash, at(index + 1) == star {
                            depth += 1
                            index += 2
                        } else if at(index) == star, at(index + 1) == slash {
                            depth -= 1
                            index += 2
                        } else {
                            if bytes[index] == newline { output.append(newline) }
                            index += 1
                        }
                    } while depth > 0 && index < bytes.count
                    output.append(UInt8(ascii: " "))
                } else if at(index + opening) == quote {
                    let multiline = at(index + opening + 1) == quote && at(index + opening + 2) == quote
                    output.append(quote)
                    stack.append(.string(hashes: opening, multiline: multiline))
                    index += opening + (multiline ? 3 : 1)
                } else {
                    if var depth = parentheses {
                        if byte == UInt8(ascii: "(") { depth += 1 }
                        if byte == UInt8(ascii: ")") { depth -= 1 }
                        stack[stack.count - 1] = .code(parentheses: depth)
                        if depth == 0 { stack.removeLast() }
                    }
                    output.append(byte)
                    index += 1
                }
            }
        }
        return String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
    }
}
