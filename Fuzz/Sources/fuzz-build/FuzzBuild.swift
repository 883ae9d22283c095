import FallbackCLI
import FallbackSite
import Foundation
import FuzzSupport

/// The whole `fallback-site build` on a mutated snapshot, run in memory.
///
/// The input is the snapshot; a NUL byte in it splits it into the snapshot and the baseline the
/// Changes page compares against (`--baseline`). The site is written through an in-memory `FileIO`
/// into `<temporary folder>/site`, where the temporary folder is made once per process and stays
/// empty on disk.
///
/// Properties, besides "no crash, no hang":
/// - every path the build creates, writes or moves to lies inside the temporary folder, and once
///   the build is done every file lies inside the output folder;
/// - nothing appears on disk (in the temporary folder);
/// - a build that succeeds writes `index.html`, and every page passes `PageSafetyScan`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBuild(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let parts = Fuzzer.parts(of: Fuzzer.bytes(data, size))
    let folder = BuildFolder.path
    let snapshot = folder + "/input/snapshot.json"
    let baseline = folder + "/input/baseline.json"
    let output = folder + "/site"
    var inputs = [snapshot: parts[0]]
    var arguments = ["build", snapshot, "--out", output, "--quiet"]
    if parts.count > 1 {
        inputs[baseline] = Array(parts[1...].joined(separator: [0]))
        arguments += ["--baseline", baseline]
    }
    let memory = BuildFolder.memory
    memory.reset(inputs)
    let status = CommandLineTool.run(arguments, in: memory.environment())

    for path in memory.written {
        Fuzzer.require(path.hasPrefix(folder + "/"), "the build wrote \(path), outside \(folder)")
    }
    let site = memory.contents.filter { !inputs.keys.contains($0.key) }
    for path in site.keys {
        Fuzzer.require(path.hasPrefix(output + "/"), "after the build, \(path) lies outside the output folder \(output)")
    }
    let onDisk = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    Fuzzer.require(onDisk.isEmpty, "the build wrote \(onDisk) to disk in \(folder)")
    if status == 0 {
        Fuzzer.require(site[output + "/index.html"] != nil, "the build succeeded without writing index.html")
    }
    for (path, bytes) in site where path.hasSuffix(".html") {
        let problems = PageSafetyScan.problems(in: String(decoding: bytes, as: UTF8.self))
        Fuzzer.require(problems.isEmpty, "\(path) fails the page safety scan: \(problems.prefix(5).joined(separator: "; "))")
    }
    return 0
}

enum BuildFolder {
    /// An empty temporary folder, made once per process and removed when it exits. libFuzzer ends
    /// a run with `_exit`, which skips `atexit`: the empty folders of processes gone are removed first.
    static let path: String = {
        let temporary = FileManager.default.temporaryDirectory
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? [] where name.hasPrefix("fuzz-build-") {
            if let pid = pid_t(name.dropFirst("fuzz-build-".count)), kill(pid, 0) != 0, errno == ESRCH {
                rmdir(temporary.appendingPathComponent(name).path)
            }
        }
        let path = temporary.appendingPathComponent("fuzz-build-\(ProcessInfo.processInfo.processIdentifier)").path
        try? FileManager.default.removeItem(atPath: path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        } catch {
            fatalError("fuzz-build: cannot make \(path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(atPath: BuildFolder.path) }
        return path
    }()

    static let memory = MemoryFiles()
}

@main
enum FuzzBuild {
    static func main() { Fuzzer.run(fuzzBuild) }
}
