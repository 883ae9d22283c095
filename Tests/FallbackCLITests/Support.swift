import FallbackCLI
import Foundation

/// The repository's root, found from this file, so tests read `Examples/` and the fixtures in place.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func repositoryPath(_ relative: String) -> String {
    repositoryRoot.appendingPathComponent(relative).path
}

let funnelEraPath = repositoryPath("Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json")
let paywallEraPath = repositoryPath("Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json")

/// One run of the tool with captured streams, in-memory files and a fixed clock.
struct Run {
    let status: Int32
    let output: String
    let error: String
    let written: [String: [UInt8]]
}

final class Capture: @unchecked Sendable {
    private let lock = NSLock()
    private var output = ""
    private var error = ""
    private var files: [String: [UInt8]] = [:]

    func appendOutput(_ text: String) { lock.withLock { output += text } }
    func appendError(_ text: String) { lock.withLock { error += text } }
    func write(_ path: String, _ bytes: [UInt8]) { lock.withLock { files[path] = bytes } }
    func file(_ path: String) -> [UInt8]? { lock.withLock { files[path] } }
    var snapshot: (String, String, [String: [UInt8]]) { lock.withLock { (output, error, files) } }
}

/// Runs `fallback-site` with `arguments`; paths in `files` are served from memory, others from disk.
/// `adjust` changes the environment first (its variables, whether its streams are terminals).
func run(
    _ arguments: [String], files: [String: String] = [:], now: Date = Date(timeIntervalSince1970: 1_790_000_000),
    adjust: (inout CommandEnvironment) -> Void = { _ in }
) -> Run {
    let capture = Capture()
    var environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) },
        writeError: { capture.appendError($0) },
        readFile: { path in
            if let text = files[path] { return Array(text.utf8) }
            if let written = capture.file(path) { return written }
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        },
        writeFile: { path, bytes in
            if path == "-" { capture.appendOutput(String(decoding: bytes, as: UTF8.self)) } else { capture.write(path, bytes) }
        },
        now: { now },
        variables: [:])
    adjust(&environment)
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, written) = capture.snapshot
    return Run(status: status, output: output, error: error, written: written)
}

/// Parses a command's JSON output with Foundation, independently of the project's reader.
func jsonObject(_ text: String) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
}
