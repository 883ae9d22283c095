import FallbackAudit
@testable import FallbackCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh temporary folder, removed when `body` ends.
func withInputTestFolder<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    return try body(folder)
}

/// Runs the tool as the real process reads files, with captured streams and a fixed clock.
func runWithDiskReads(_ arguments: [String]) -> Run {
    let capture = Capture()
    let environment = CommandEnvironment(
        writeOutput: { capture.appendOutput($0) }, writeError: { capture.appendError($0) },
        readFile: CommandEnvironment.live.readFile, writeFile: { path, bytes in capture.write(path, bytes) },
        now: { Date(timeIntervalSince1970: 1_790_000_000) }, variables: [:])
    let status = CommandLineTool.run(arguments, in: environment)
    let (output, error, written) = capture.snapshot
    return Run(status: status, output: output, error: error, written: written)
}

/// Runs `body` while another thread keeps offering the FIFO at `path` a writer that closes at
/// once: a reader stuck opening it gets an empty file instead of waiting forever, so a test of
/// code that opens a FIFO fails instead of hanging.
private func unblockingReaders<T>(of path: String, _ body: () throws -> T) rethrows -> T {
    let done = ManagedFlag()
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        while !done.isSet {
            let descriptor = open(path, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
            usleep(2000)
        }
        finished.signal()
    }
    defer {
        done.set()
        finished.wait()
    }
    return try body()
}

private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

private func makeFIFO(_ path: String) throws {
    try #require(mkfifo(path, 0o600) == 0, "mkfifo: \(String(cString: strerror(errno)))")
}

/// A listening Unix socket at `path`; returns its descriptor.
private func makeSocket(_ path: String) throws -> Int32 {
    #if canImport(Glibc)
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
    #endif
    try #require(descriptor >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    try #require(bytes.count < MemoryLayout.size(ofValue: address.sun_path))
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
        buffer.copyBytes(from: bytes)
    }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0, "bind: \(String(cString: strerror(errno)))")
    return descriptor
}

let loadableSnapshotText = #"{"formatVersion":1,"generatedAt":1764000000000,"projectId":"p","placements":{}}"#

@Suite("Input files: only regular files are read")
struct RegularFileInputTests {
    /// What each command is run with: `SPECIAL` stands for the path that is not a regular file,
    /// `GOOD` for a valid snapshot beside it.
    static let commands: [[String]] = [
        ["check", "SPECIAL"],
        ["check", "GOOD", "SPECIAL", "--format", "json"],
        ["diff", "GOOD", "SPECIAL"],
        ["diff", "SPECIAL", "GOOD"],
        ["history", "GOOD", "SPECIAL"],
        ["history", "FOLDER"],
        ["build", "SPECIAL", "--out", "OUT"],
        ["build", "GOOD", "--baseline", "SPECIAL", "--out", "OUT"],
        ["build", "GOOD", "SPECIAL", "--out", "OUT"],
        ["resolve", "SPECIAL", "home"],
        ["context", "SPECIAL", "--page", "overview"],
        ["check", "GOOD", "--config", "SPECIAL"],
        ["template", "render", "SPECIAL", "--context", "GOOD"],
    ]

    enum Kind: String, CaseIterable {
        case fifo, socket, directory
    }

    /// A FIFO, a socket or a folder where a snapshot is expected: "not a regular file", exit 2,
    /// without waiting for a writer and without writing anything.
    @Test(arguments: commands, Kind.allCases)
    func aPathThatIsNotARegularFileIsRefused(command: [String], kind: Kind) throws {
        try withInputTestFolder { folder in
            let special = (folder as NSString).appendingPathComponent("special.json")
            var socketDescriptor: Int32?
            switch kind {
            case .fifo: try makeFIFO(special)
            case .socket: socketDescriptor = try makeSocket(special)
            case .directory: try FileManager.default.createDirectory(atPath: special, withIntermediateDirectories: false)
            }
            defer { socketDescriptor.map { _ = close($0) } }
            let good = (folder as NSString).appendingPathComponent("good.json")
            try Data(loadableSnapshotText.utf8).write(to: URL(fileURLWithPath: good))
            let out = (folder as NSString).appendingPathComponent("site")
            let arguments = command.map { argument in
                switch argument {
                case "SPECIAL": special
                case "GOOD": good
                case "FOLDER": folder
                case "OUT": out
                default: argument
                }
            }
            let result = unblockingReaders(of: special) { runWithDiskReads(arguments) }
            if kind == .directory, command == ["history", "FOLDER"] {
                // A folder of snapshots leaves out folders named *.json.
                #expect(result.status != ExitStatus.usage, "\(result.error)")
                return
            }
            if kind == .directory, command == ["build", "SPECIAL", "--out", "OUT"] || command == ["context", "SPECIAL", "--page", "overview"] {
                // One folder given to build (and to context, which reads what build reads) is a
                // folder of snapshots, here an empty one.
                #expect(result.status == ExitStatus.usage)
                #expect(result.error == "error: \(special) holds no *.json file\n")
                return
            }
            #expect(result.status == ExitStatus.usage, "\(arguments): \(result.error)")
            #expect((result.output + result.error).contains("\(special): it is a"), "\(arguments): \(result.error)")
            #expect((result.output + result.error).contains(", not a regular file"), "\(arguments): \(result.error)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }

    @Test func theSharedReaderSaysWhatThePathIs() throws {
        try withInputTestFolder { folder in
            let fifo = (folder as NSString).appendingPathComponent("fifo")
            try makeFIFO(fifo)
            let missing = (folder as NSString).appendingPathComponent("missing")
            let file = (folder as NSString).appendingPathComponent("file")
            try Data("text".utf8).write(to: URL(fileURLWithPath: file))
            let link = (folder as NSString).appendingPathComponent("link")
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
            #expect(throws: FileReadError(path: fifo, reason: .notRegularFile(.fifo))) { try RegularFile.read(fifo) }
            #expect(throws: FileReadError(path: folder, reason: .notRegularFile(.directory))) { try RegularFile.read(folder) }
            #expect(throws: FileReadError(path: missing, reason: .noSuchFile)) { try RegularFile.read(missing) }
            #expect(try RegularFile.read(file) == Array("text".utf8))
            #expect(try RegularFile.read(link) == Array("text".utf8))
            #expect(FileReadError(path: fifo, reason: .notRegularFile(.fifo)).description == "cannot read \(fifo): it is a FIFO, not a regular file")
            #expect(CommandEnvironment.isMissingFile(FileReadError(path: missing, reason: .noSuchFile)))
            #expect(!CommandEnvironment.isMissingFile(FileReadError(path: fifo, reason: .notRegularFile(.fifo))))
        }
    }
}
