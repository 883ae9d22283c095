import Foundation
import Testing

/// `ARCHITECTURE.md` names types in backticks; each must be declared somewhere in `Sources/` (or
/// `Fuzz/Sources/`), so the document cannot drift from the code without a failing test.
@Suite("ARCHITECTURE.md names only what exists")
struct ArchitectureDocumentTests {
    /// Backticked words that start with a capital letter: type and module names (`Audit`), not
    /// commands (`check`), files (`Model.swift`) or paths.
    static func namedTypes(in document: String) -> Set<String> {
        var names: Set<String> = []
        for part in document.split(separator: "`", omittingEmptySubsequences: false).enumerated() where part.offset % 2 == 1 {
            let word = part.element
            guard let first = word.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first),
                word.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) })
            else { continue }
            names.insert(String(word))
        }
        return names
    }

    /// Every `struct`, `enum`, `class`, `protocol`, `actor` and `typealias` name declared in the
    /// Swift files below `folder`, and every module (a folder of `Sources/`).
    static func declaredNames(under folders: [String]) throws -> Set<String> {
        var names: Set<String> = []
        let declaration = try NSRegularExpression(pattern: #"\b(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        for folder in folders {
            let root = repositoryPath(folder)
            guard let enumerator = FileManager.default.enumerator(atPath: root) else { continue }
            while let relative = enumerator.nextObject() as? String {
                let components = relative.split(separator: "/")
                if components.count == 1, !relative.hasSuffix(".swift") { names.insert(relative) }
                guard relative.hasSuffix(".swift"), let data = FileManager.default.contents(atPath: root + "/" + relative) else { continue }
                let text = String(decoding: data, as: UTF8.self)
                for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
                }
            }
        }
        return names
    }

    @Test func everyNamedTypeExists() throws {
        let document = try String(contentsOfFile: repositoryPath("ARCHITECTURE.md"), encoding: .utf8)
        let named = Self.namedTypes(in: document)
        #expect(named.count > 30, "the document should name the types it describes")
        let declared = try Self.declaredNames(under: ["Sources", "Fuzz/Sources", "Plugins"])
        let missing = named.subtracting(declared).sorted()
        #expect(missing.isEmpty, "ARCHITECTURE.md names types that no source declares: \(missing)")
    }

    @Test func theCheckCanFail() {
        // The extraction itself: a made-up name is found, a command and a file name are not.
        let names = Self.namedTypes(in: "the `NoSuchTypeAnywhere` type, the `check` command, `Model.swift`")
        #expect(names == ["NoSuchTypeAnywhere"])
    }
}
