import Foundation
import RovenueFallback
import Testing

@testable import FallbackAudit
@testable import FallbackHistory
import FallbackHistoryTestSupport
import FallbackTestSupport

/// A git repository in a temporary folder, with git isolated from the machine's configuration:
/// `HOME` and the global configuration point inside the folder, and the system's is not read.
private struct GitSandbox {
    let folder: String
    let repository: String

    /// The environment every `git` the sandbox runs gets.
    var environment: [String: String] {
        [
            "HOME": folder, "XDG_CONFIG_HOME": folder, "GIT_CONFIG_GLOBAL": (folder as NSString).appendingPathComponent("gitconfig"),
            "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Hostile Test", "GIT_AUTHOR_EMAIL": "hostile@example.com",
            "GIT_COMMITTER_NAME": "Hostile Test", "GIT_COMMITTER_EMAIL": "hostile@example.com",
        ]
    }

    init(_ folder: String, objectFormat: String = "sha1") throws {
        self.folder = folder
        repository = (folder as NSString).appendingPathComponent("repo")
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("gitconfig")))
        try git("-c", "init.defaultBranch=main", "init", "-q", "--object-format=\(objectFormat)")
        try git("config", "commit.gpgsign", "false")
    }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        try runGit(arguments, in: repository, environment: environment)
    }

    func path(_ relative: String) -> String { (repository as NSString).appendingPathComponent(relative) }

    func write(_ relative: String, _ text: String) throws {
        let full = path(relative)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: full, contents: Data(text.utf8)) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// Writes `text` to `relative`, stages it and commits with `message`.
    func commit(_ relative: String, _ text: String, message: String) throws {
        try write(relative, text)
        try git("add", "--", relative)
        try git("commit", "-q", "-m", message)
    }
}

/// The snapshot text of version `n`: one paywall entry at revision `n`.
private func version(_ n: Int) -> String {
    Snap.file(paywallEntry("a", revision: String(n)), generatedAt: String(1_764_000_000_000 + n * 1000))
}

/// Every snapshot of `source` with its subject and text, in source order.
private func versions(_ source: GitFileHistory) throws -> [(subject: String?, location: String, text: String)] {
    try source.references().map { reference in
        (reference.commit?.subject, reference.location, String(decoding: try source.bytes(of: reference), as: UTF8.self))
    }
}

@Suite("History: a hostile git history")
struct GitHistoryHostileTests {
    /// A subject holding the old record and field separators and a `--output=` option once
    /// made a fake record whose "hash" was that option, so `git show` wrote a file there, and the
    /// real commit dropped out of the history.
    @Test func aSubjectCannotInjectARecordOrAnOption() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            let target = (folder as NSString).appendingPathComponent("pwned")
            let hostile = "bump\u{1E}--output=\(target)\u{1F}2026-01-01T00:00:00+00:00\u{1F}pwned"
            try sandbox.commit("rovenue-fallback.json", version(1), message: "first")
            try sandbox.commit("rovenue-fallback.json", version(2), message: hostile)
            try sandbox.commit("rovenue-fallback.json", version(3), message: "third")

            let source = GitFileHistory(repository: sandbox.repository, path: "rovenue-fallback.json")
            let read = try versions(source)
            #expect(read.map(\.subject) == ["first", hostile, "third"])
            #expect(read.map(\.text) == [version(1), version(2), version(3)])
            #expect(try source.references().allSatisfy { GitObjectID.isValid($0.commit?.hash ?? "") })
            let timeline = try SnapshotSeries(source).timeline()
            #expect(timeline.snapshots.count == 3)
            #expect(timeline.findings.isEmpty)
            let stray = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("pwned") }
            #expect(stray.isEmpty, "git wrote \(stray)")
        }
    }

    /// Names git would read as a glob, as pathspec magic, or as an option are the file's own name.
    @Test(arguments: ["*.json", "[ab].json", ":!x.json", ":(top)y.json", ":(exclude)z.json", "-n1.json", "--output=o.json"])
    func aNameIsLiteral(name: String) throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            // Files the name would match as a glob or a pathspec, committed after it.
            try sandbox.commit("dir/\(name)", version(1), message: "literal 1")
            for decoy in ["dir/a.json", "dir/x.json", "dir/y.json", "dir/z.json", "y.json", "z.json"] {
                try sandbox.commit(decoy, version(9), message: "decoy \(decoy)")
            }
            try sandbox.commit("dir/\(name)", version(2), message: "literal 2")

            let source = GitFileHistory(repository: sandbox.path("dir"), path: name)
            let read = try versions(source)
            #expect(read.map(\.subject) == ["literal 1", "literal 2"])
            #expect(read.map(\.location) == ["dir/\(name)", "dir/\(name)"])
            #expect(read.map(\.text) == [version(1), version(2)])
            #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.repository).sorted() == [".git", "dir", "y.json", "z.json"])
        }
    }

    /// Names with a line break and a tab are read whole, and a rename is still followed.
    @Test func aNameWithLineBreaksAndTabsIsFollowedThroughARename() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            let old = "old\nname\twith \"quotes\".json"
            let new = "new\nname\u{1E}é.json"
            try sandbox.commit(old, version(1), message: "first")
            try sandbox.git("mv", "--", old, new)
            try sandbox.git("commit", "-q", "-m", "rename")
            try sandbox.commit(new, version(2), message: "second")

            let source = GitFileHistory(file: sandbox.path(new))
            let read = try versions(source)
            #expect(read.map(\.subject) == ["first", "rename", "second"])
            #expect(read.map(\.location) == [old, new, new])
            #expect(read.map(\.text) == [version(1), version(1), version(2)])
        }
    }

    /// A commit that deletes the file has no version; the versions before and after it are read.
    @Test func aFileDeletedThenRestoredKeepsBothLives() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("rovenue-fallback.json", version(1), message: "first")
            try sandbox.git("rm", "-q", "--", "rovenue-fallback.json")
            try sandbox.git("commit", "-q", "-m", "delete")
            try sandbox.commit("rovenue-fallback.json", version(2), message: "restore")

            let read = try versions(GitFileHistory(repository: sandbox.repository, path: "rovenue-fallback.json"))
            #expect(read.map(\.subject) == ["first", "restore"])
            #expect(read.map(\.text) == [version(1), version(2)])
        }
    }

    /// A multi-line first paragraph reads as one line, as `git log` shows it; a NUL byte in a
    /// commit message (git refuses to make one, but a hand-made object can hold it) ends the
    /// subject and changes nothing else.
    @Test func subjectsWithLineBreaksAndNULs() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("rovenue-fallback.json", version(1), message: "first line\nsecond line\u{1E}\n\nbody\u{1F}?")
            try sandbox.write("rovenue-fallback.json", version(2))
            try sandbox.git("add", "rovenue-fallback.json")
            let tree = try sandbox.git("write-tree").trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = try sandbox.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
            let object = "tree \(tree)\nparent \(parent)\nauthor A <a@example.com> 1764000000 +0000\n"
                + "committer A <a@example.com> 1764000000 +0000\n\nnul\u{0}\n:100644 100644 \(parent) \(parent) M\u{0}x\u{0}\n"
            let objectFile = (folder as NSString).appendingPathComponent("commit-object")
            try Data(object.utf8).write(to: URL(fileURLWithPath: objectFile))
            let commit = try sandbox.git("hash-object", "-t", "commit", "-w", "--literally", objectFile)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            try sandbox.git("update-ref", "HEAD", commit)
            try sandbox.commit("rovenue-fallback.json", version(3), message: "third")

            let read = try versions(GitFileHistory(repository: sandbox.repository, path: "rovenue-fallback.json"))
            #expect(read.map(\.subject) == ["first line second line\u{1E}", "nul", "third"])
            #expect(read.map(\.text) == [version(1), version(2), version(3)])
        }
    }

    /// A SHA-256 repository has 64-digit hashes; they are read as such.
    @Test func aSHA256RepositoryIsRead() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder, objectFormat: "sha256")
            try sandbox.commit("rovenue-fallback.json", version(1), message: "first")
            try sandbox.commit("rovenue-fallback.json", version(2), message: "second")
            let source = GitFileHistory(repository: sandbox.repository, path: "rovenue-fallback.json")
            let read = try versions(source)
            #expect(read.map(\.text) == [version(1), version(2)])
            #expect(try source.references().map { $0.commit?.hash.count } == [64, 64])
        }
    }

    /// Every version is read through one `git cat-file --batch`, however many commits there are:
    /// the processes started do not grow with the history.
    @Test func manyCommitsReadThroughOneProcess() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            let count = 40
            for n in 1...count {
                try sandbox.commit("rovenue-fallback.json", version(n), message: "v\(n)")
            }
            let source = GitFileHistory(repository: sandbox.repository, path: "rovenue-fallback.json")
            let series = try SnapshotSeries(source)
            let timeline = try series.timeline()
            #expect(timeline.snapshots.map(\.stamp.commit?.subject) == (1...count).map { "v\($0)" })
            let texts = try series.members.map { String(decoding: try source.bytes(of: $0.reference), as: UTF8.self) }
            #expect(texts == (1...count).map(version))
            // rev-parse twice, log, cat-file: the 3 × 40 reads above start no other.
            #expect(source.processesStarted == 4)
        }
    }
}

@Suite("History: reading git's output")
struct GitOutputTests {
    @Test(arguments: [
        (String(repeating: "a", count: 40), true), (String(repeating: "0", count: 64), true),
        ("0123456789abcdef0123456789abcdef01234567", true), (String(repeating: "A", count: 40), false),
        (String(repeating: "a", count: 39), false), (String(repeating: "a", count: 41), false),
        (String(repeating: "a", count: 63), false), (String(repeating: "g", count: 40), false), ("--output=/x", false), ("", false),
        ("HEAD", false), (String(repeating: "a", count: 39) + "\n", false),
    ])
    func objectIDs(text: String, valid: Bool) {
        #expect(GitObjectID.isValid(text) == valid)
    }

    /// A record whose hash is not one fails the whole read: nothing is silently dropped.
    @Test func aRecordWithoutAHashIsAnError() throws {
        let hash = String(repeating: "a", count: 40)
        let blob = String(repeating: "b", count: 40)
        let good = "\(hash) 2026-01-01T00:00:00+00:00 subject\0\n:100644 100644 \(blob) \(blob) M\0f.json\0"
        #expect(try GitFileHistory.parseLog(Array(good.utf8), following: Array("f.json".utf8)).map(\.location) == ["f.json"])
        let records = [
            "--output=/x 2026-01-01T00:00:00+00:00 s\0\n:100644 100644 \(blob) \(blob) M\0f.json\0",
            good + "\(hash) 2026-01-01T00:00:00+00:00 s\0\n:100644 100644 \(blob) \(blob) R100\0f.json\0",
            good + "\(hash) 2026-01-01T00:00:00+00:00 s\0\n:100644 100644 \(blob) --output=x M\0f.json\0",
            good + "\(hash)\0",
        ]
        for record in records {
            #expect(throws: HistoryError.self, "\(record.debugDescription)") {
                try GitFileHistory.parseLog(Array(record.utf8), following: Array("f.json".utf8))
            }
        }
    }

    /// The batch reader reads blobs bigger than a pipe's buffer, says which object is missing,
    /// and refuses a request that is not an object id.
    @Test func theBatchReader() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            let big = String(repeating: "0123456789abcdef", count: 1 << 16) + "\n"
            try sandbox.commit("big.txt", big, message: "big")
            try sandbox.commit("small.txt", "small", message: "small")
            let bigID = try sandbox.git("rev-parse", "HEAD:big.txt").trimmingCharacters(in: .whitespacesAndNewlines)
            let smallID = try sandbox.git("rev-parse", "HEAD:small.txt").trimmingCharacters(in: .whitespacesAndNewlines)
            let reader = try GitObjectReader(repository: sandbox.repository)
            for _ in 0..<3 {
                #expect(try reader.blob(bigID) == Array(big.utf8))
                #expect(try reader.blob(smallID) == Array("small".utf8))
            }
            let missing = String(repeating: "e", count: 40)
            #expect(throws: HistoryError.gitFailed(command: "git cat-file --batch", message: "no object \(missing) in the repository")) {
                try reader.blob(missing)
            }
            #expect(try reader.blob(smallID) == Array("small".utf8))
            let commit = try sandbox.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(throws: HistoryError.gitFailed(command: "git cat-file --batch", message: "\(commit) is a commit, not a file")) {
                try reader.blob(commit)
            }
            #expect(throws: HistoryError.self) { try reader.blob("HEAD:big.txt") }
            #expect(throws: HistoryError.self) { try reader.blob("\(smallID)\n\(bigID)") }
            #expect(try reader.blob(bigID) == Array(big.utf8))
        }
    }

    /// A `git cat-file` that stopped is an error on the next read, not a crash (writing to its
    /// closed pipe raises no SIGPIPE here).
    @Test func aBatchReaderWhoseProcessEndedFailsCleanly() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("small.txt", "small", message: "small")
            let smallID = try sandbox.git("rev-parse", "HEAD:small.txt").trimmingCharacters(in: .whitespacesAndNewlines)
            let reader = try GitObjectReader(repository: sandbox.repository)
            #expect(try reader.blob(smallID) == Array("small".utf8))
            let process = try #require(reader.processIdentifier)
            kill(process, SIGKILL)
            while reader.processIdentifier != nil { usleep(1000) }
            for _ in 0..<2 {
                #expect(throws: HistoryError.self) { try reader.blob(smallID) }
            }
        }
    }
}

@Suite("History: only the followed file is read")
struct GitHistoryFollowedPathTests {
    /// git accepts a folder as the path and lists every file under it; the first one changed in
    /// each commit was once read as "the" file, and the run passed.
    @Test(arguments: ["d", "d/", "d/."])
    func aFolderIsRefused(name: String) throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("d/a.json", version(1), message: "a")
            try sandbox.commit("d/b.json", version(2), message: "b")
            let source = GitFileHistory(file: sandbox.path(name))
            #expect(throws: HistoryError.folderNotFile(path: sandbox.path(name))) { try source.references() }
            #expect(HistoryError.folderNotFile(path: "d").description == "--git-history takes a file; d is a folder")
        }
    }

    /// A folder git knows but that is not on disk (removed, not committed) gets past the folder
    /// check: git's output names files under it, which are not the followed path, so it is an error.
    @Test func aFolderMissingOnDiskIsStillNotRead() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("d/a.json", version(1), message: "a")
            try sandbox.commit("d/b.json", version(2), message: "b")
            try FileManager.default.removeItem(atPath: sandbox.path("d"))
            let source = GitFileHistory(repository: sandbox.repository, path: "d")
            let error = try #require(throws: HistoryError.self) { try source.references() }
            #expect("\(error)".contains("d/b.json"), "\(error)")
        }
    }

    /// Each rename sends the history to the old name; every version is read under the name it had.
    @Test func aFileRenamedTwiceIsFollowed() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("one.json", version(1), message: "first")
            try FileManager.default.createDirectory(atPath: sandbox.path("sub"), withIntermediateDirectories: true)
            try sandbox.git("mv", "--", "one.json", "sub/two.json")
            try sandbox.git("commit", "-q", "-m", "rename to two")
            try sandbox.commit("sub/two.json", version(2), message: "second")
            try sandbox.git("mv", "--", "sub/two.json", "three.json")
            try sandbox.git("commit", "-q", "-m", "rename to three")
            try sandbox.commit("three.json", version(3), message: "third")
            // A later file under an old name is another file.
            try sandbox.commit("one.json", version(9), message: "decoy")

            for source in [
                GitFileHistory(file: sandbox.path("three.json")),
                GitFileHistory(repository: sandbox.path("sub"), path: "../three.json"),
            ] {
                let read = try versions(source)
                #expect(read.map(\.subject) == ["first", "rename to two", "second", "rename to three", "third"])
                #expect(read.map(\.location) == ["one.json", "sub/two.json", "sub/two.json", "three.json", "three.json"])
                #expect(read.map(\.text) == [version(1), version(1), version(2), version(2), version(3)])
            }
        }
    }

    /// A path that was a file, then became a folder: only the file's versions are read, never a
    /// file under the folder.
    @Test func aFileThatBecameAFolder() throws {
        try withTemporaryFolder { folder in
            let sandbox = try GitSandbox(folder)
            try sandbox.commit("x", version(1), message: "file")
            try sandbox.git("rm", "-q", "--", "x")
            try sandbox.commit("x/a.json", version(9), message: "folder")

            #expect(throws: HistoryError.folderNotFile(path: sandbox.path("x"))) {
                try GitFileHistory(file: sandbox.path("x")).references()
            }
            // Past the folder check (not on disk), the commit that made the folder deletes the file.
            try FileManager.default.removeItem(atPath: sandbox.path("x"))
            let source = GitFileHistory(repository: sandbox.repository, path: "x")
            let read = try versions(source)
            #expect(read.map(\.subject) == ["file"])
            #expect(read.map(\.text) == [version(1)])

            // A later commit that changes only a file under the folder does not fit.
            try sandbox.commit("x/a.json", version(10), message: "folder again")
            try FileManager.default.removeItem(atPath: sandbox.path("x"))
            let error = try #require(throws: HistoryError.self) { try source.references() }
            #expect("\(error)".contains("x/a.json"), "\(error)")
        }
    }

    /// git's output is held to the followed path, whatever it says.
    @Test func theLogMustNameTheFollowedPath() throws {
        let blob = String(repeating: "b", count: 40)
        func commit(_ n: Int, _ change: String) -> String {
            "\(String(repeating: String(n), count: 40)) 2026-01-01T00:00:00+00:00 c\(n)\0\n:100644 100644 \(blob) \(blob) \(change)\0"
        }
        let renamed = commit(3, "M\0c.json") + commit(2, "R100\0b.json\0c.json") + commit(1, "M\0b.json")
        #expect(try GitFileHistory.parseLog(Array(renamed.utf8), following: Array("c.json".utf8)).map(\.location) == [
            "b.json", "c.json", "c.json",
        ])
        let wrong = [
            commit(1, "M\0other.json"),
            commit(2, "M\0c.json") + commit(1, "M\0b.json"),
            commit(2, "R100\0c.json\0b.json") + commit(1, "M\0c.json"),
            commit(1, "M\0c.json/a.json"),
            commit(1, "M\0C.json"),
        ]
        for log in wrong {
            #expect(throws: HistoryError.self, "\(log.debugDescription)") {
                try GitFileHistory.parseLog(Array(log.utf8), following: Array("c.json".utf8))
            }
        }
    }
}
