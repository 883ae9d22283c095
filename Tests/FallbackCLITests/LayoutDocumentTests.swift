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

    /// The backticked names in the first cell of each row of the table under `heading`: `| `A`, `B` | … |`.
    static func tableModules(in document: String, under heading: String) -> Set<String> {
        guard let start = document.range(of: "\n" + heading + "\n") else { return [] }
        var names: Set<String> = []
        for line in document[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| "), let cell = line.dropFirst(2).split(separator: "|").first else { continue }
            let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() where index % 2 == 1 {
                names.insert(String(part).trimmingCharacters(in: CharacterSet(charactersIn: "/")))
            }
        }
        return names
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
        let names = Self.tableModules(in: "x\n## Layout\n| `A`, `B` | text `C` |\n## Next\n| `D` |\n", under: "## Layout")
        #expect(names == ["A", "B"])
    }
}
