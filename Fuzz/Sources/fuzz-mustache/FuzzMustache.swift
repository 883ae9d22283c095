import FallbackCLI
import Foundation
import FuzzSupport
import FallbackMustache

/// The Mustache parser and renderer, through `fallback-site template render` run in memory.
///
/// The input is NUL-separated parts: the template first, then partials and options, each a first
/// line naming it and the rest its text: `name` (a partial `{{> name}}` finds), `@context` (the
/// JSON context; default: the site's contexts for the funnel-era fixture, merged) or `@escape`
/// (`html`, `markdown` or `none`).
///
/// Properties, besides "no crash, no hang": a template that does not parse reports a line and
/// column inside it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = Fuzzer.parts(of: Fuzzer.bytes(data, size))
    let template = parts[0]
    var files: [String: [UInt8]] = ["/fuzz/template.md": template, "/fuzz/context.json": MustacheContext.site]
    var escape = "html"
    for part in parts.dropFirst() {
        let newline = part.firstIndex(of: UInt8(ascii: "\n")) ?? part.endIndex
        let name = String(decoding: part[..<newline], as: UTF8.self)
        let text = Array(part[min(newline + 1, part.endIndex)...])
        switch name {
        case "@context": files["/fuzz/context.json"] = text
        case "@escape": escape = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        default: files["/fuzz/partials/\(name).md"] = text
        }
    }
    if !["html", "markdown", "none"].contains(escape) { escape = "html" }

    let source = String(decoding: template, as: UTF8.self)
    do {
        _ = try MustacheTemplate(parsing: source, name: "template")
    } catch {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count
        Fuzzer.require(error.line >= 1 && error.line <= lines && error.column >= 1, "\(error) is not a place in the template (\(lines) lines)")
    }
    let memory = MemoryFiles(files)
    _ = CommandLineTool.run(
        ["template", "render", "/fuzz/template.md", "--context", "/fuzz/context.json", "--partials", "/fuzz/partials", "--escape", escape],
        in: memory.environment())
    return 0
}

enum MustacheContext {
    /// The contexts of the funnel-era fixture's pages (from `fallback-site context`), merged into one
    /// object so each page template finds its names.
    static let site: [UInt8] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let fixture = root.appendingPathComponent("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json").path
        guard let bytes = try? [UInt8](Data(contentsOf: URL(fileURLWithPath: fixture))) else {
            fatalError("fuzz-mustache: cannot read \(fixture)")
        }
        var merged = "{"
        for page in ["overview", "checks", "placement:onboarding", "funnel:fnl_short", "experiment:onboarding"] {
            let output = Captured()
            var environment = MemoryFiles(["/fuzz/snapshot.json": bytes]).environment()
            environment.writeOutput = { output.append($0) }
            _ = CommandLineTool.run(["context", "/fuzz/snapshot.json", "--page", page], in: environment)
            let object = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard object.count > 2, object.hasPrefix("{"), object.hasSuffix("}") else { continue }
            // Later members win in our reader, so concatenating the members merges the objects.
            merged += (merged.count > 1 ? "," : "") + object.dropFirst().dropLast()
        }
        return Array((merged + "}").utf8)
    }()

    final class Captured: @unchecked Sendable {
        private let lock = NSLock()
        private var parts: [String] = []
        func append(_ text: String) { lock.withLock { parts.append(text) } }
        var text: String { lock.withLock { parts.joined() } }
    }
}

@main
enum FuzzMustache {
    static func main() { Fuzzer.run(fuzzMustache) }
}
