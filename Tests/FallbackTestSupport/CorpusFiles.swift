import Foundation

/// The package's folder (the tests read its files).
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Every snapshot-like input of the repository: the Examples, the test fixtures, the fuzz corpus and
/// regressions (every file under `Fuzz`, JSON files elsewhere), by path, sorted.
public let corpusFiles: [String] = {
    var found: [String] = []
    for folder in ["Examples", "Tests/RovenueFallbackTests/Fixtures", "Fuzz/Corpus", "Fuzz/Regressions"] {
        let root = packageRoot.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
        for case let url as URL in walker where url.pathExtension == "json" || folder.hasPrefix("Fuzz") {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            found.append(url.path)
        }
    }
    return found.sorted()
}()
