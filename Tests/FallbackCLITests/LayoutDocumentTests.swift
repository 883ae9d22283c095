import Foundation
import Testing

/// The README's layout section and `ARCHITECTURE.md` name every module folder, and only those, so
/// moving or adding a module without saying so fails a test.
@Suite("The documented layout matches the folders")
struct LayoutDocumentTests {
    /// The folders of `Sources/` and `Plugins/`: one per module, plugin or executable.
    static func moduleFolders() throws -> Set<String> {
        var folders: Set<String> = []
        for parent in ["Sources", "Plugins"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: repositoryPath(parent)) {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: repositoryPath(parent + "/" + name), isDirectory: &isFolder),
                    isFolder.boolValue
                {
                    folders.insert(name)
                }
            }
        }
        return folders
    }

    /// The backticked names in the first cell of each row of the table under `heading` whose
    /// header's first cell is `column`: `| `A`, `B` | … |`.
    static func tableModules(in document: String, under heading: String, column: String = "Module") -> Set<String> {
        guard let start = document.range(of: "\n" + heading + "\n") else { return [] }
        var names: Set<String> = []
        var header: Substring?
        for line in document[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| "), let cell = line.dropFirst(2).split(separator: "|").first else {
                header = nil
                continue
            }
            guard let current = header else {
                header = cell  // the first row of a table is its header
                continue
            }
            guard current.trimmingCharacters(in: .whitespaces) == column else { continue }
            let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() where index % 2 == 1 {
                names.insert(String(part).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            }
        }
        return names
    }

    /// The folders at the top of the repository that a user sees: not hidden, and not build output
    /// that `.gitignore` names (`_site/`).
    static func topFolders() throws -> Set<String> {
        let ignore = (try? String(contentsOfFile: repositoryPath(".gitignore"), encoding: .utf8)) ?? ""
        let ignored = Set(ignore.split(separator: "\n").filter { $0.hasSuffix("/") }.map { String($0.dropLast()) })
        var folders: Set<String> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: repositoryPath("")) where !name.hasPrefix(".") && !ignored.contains(name) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: repositoryPath(name), isDirectory: &isFolder), isFolder.boolValue {
                folders.insert(name)
            }
        }
        return folders
    }

    @Test func everyTopFolderIsNamed() throws {
        let document = try String(contentsOfFile: repositoryPath("README.md"), encoding: .utf8)
        let named = Self.tableModules(in: document, under: "## Layout", column: "Folder")
        let folders = try Self.topFolders()
        #expect(folders.subtracting(named).sorted() == [], "README.md's layout does not name these folders")
    }

    @Test(arguments: [("README.md", "## Layout"), ("ARCHITECTURE.md", "## Modules")])
    func everyModuleFolderIsNamed(document path: String, heading: String) throws {
        let document = try String(contentsOfFile: repositoryPath(path), encoding: .utf8)
        let named = Self.tableModules(in: document, under: heading)
        let folders = try Self.moduleFolders()
        // ARCHITECTURE.md's table is about Swift modules; the C module map and the plugin's tool
        // are README matters.
        let expected = path == "README.md" ? folders : folders.subtracting(["CCmarkGFM", "embed-theme", "EmbedTheme"])
        #expect(expected.subtracting(named).sorted() == [], "\(path) does not name these folders")
        #expect(named.subtracting(folders).subtracting(["Fuzz"]).sorted() == [], "\(path) names folders that do not exist")
    }

    @Test func theTableReaderCanFail() {
        let document = "x\n## Layout\n| Folder | x |\n| --- | --- |\n| `F/` | y |\n\n| Module | x |\n| --- | --- |\n| `A`, `B` | text `C` |\n## Next\n| `D` |\n"
        #expect(Self.tableModules(in: document, under: "## Layout") == ["A", "B"])
        #expect(Self.tableModules(in: document, under: "## Layout", column: "Folder") == ["F"])
    }
}
