import Foundation
import PackagePlugin

/// Builds the default templates (`Templates/`) and theme assets (`Site/assets/`) into the
/// `FallbackSite` module as generated source, so a copied `fallback-site` binary works alone, with
/// `docs/rules.md`, which the site's rule pages quote.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var arguments: [String] = []
        var inputs: [URL] = []
        for (folder, prefix) in [("Templates", "templates/"), ("Site/assets", "assets/")] {
            let base = root.appending(path: folder)
            for file in Self.files(under: base) {
                let relative = String(file.path.dropFirst(base.path.count + 1))
                arguments += [prefix + relative, file.path]
                inputs.append(file)
            }
        }
        // The rules' documentation, for the site's rule pages: one source, docs/rules.md.
        let rules = root.appending(path: "docs/rules.md")
        arguments += ["docs/rules.md", rules.path]
        inputs.append(rules)
        let output = context.pluginWorkDirectoryURL.appending(path: "DefaultTheme.swift")
        return [
            .buildCommand(
                displayName: "Embedding the default theme (\(inputs.count) files)",
                executable: try context.tool(named: "embed-theme").url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }

    /// Every regular file below `folder`, sorted, skipping hidden files.
    static func files(under folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var found: [URL] = []
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            found.append(url.standardizedFileURL)
        }
        return found.sorted { $0.path < $1.path }
    }
}
