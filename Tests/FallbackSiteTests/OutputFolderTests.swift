import FallbackAudit
import Foundation
import Testing
@testable import FallbackSite

/// The `--out` rules on a file system made of a table: resolving and checking only read, so
/// nothing here touches the disk, not even for `/`.
@Suite("The rules for a build's output folder")
struct OutputFolderTests {
    /// A pretend file system: kinds by absolute path, links by path, folder listings; writing fails.
    static func table(
        _ kinds: [String: FileKind], links: [String: String] = [:], unlistable: Set<String> = [], workingFolder: String = "/w"
    ) -> FileIO {
        @Sendable func resolve(_ path: String) -> String? {
            var resolved = "/"
            for component in path.split(separator: "/") {
                switch component {
                case ".": continue
                case "..": resolved = OutputFolder.parent(of: resolved)
                default:
                    let next = OutputFolder.join(resolved, String(component))
                    guard kinds[next] != nil else { return nil }
                    resolved = links[next].flatMap(resolve) ?? next
                }
            }
            return resolved
        }
        let refuse: @Sendable (String) throws -> Void = { throw SiteWriterError.cannotWrite($0) }
        return FileIO(
            createDirectory: refuse, writeFile: { path, _ in try refuse(path) },
            listDirectory: { path in
                guard kinds[path] == .directory, !unlistable.contains(path) else { return nil }
                return kinds.keys.filter { $0.hasPrefix(path + "/") && !$0.dropFirst(path.count + 1).contains("/") }
                    .map { String($0.dropFirst(path.count + 1)) }
            },
            fileExists: { kinds[$0] != nil }, move: { from, _ in try refuse(from) }, remove: refuse,
            itemKind: { path in path == "/" ? .directory : kinds[path] }, resolvedPath: { resolve($0) }, currentDirectory: { workingFolder })
    }

    static let disk = table([
        "/w": .directory, "/w/a": .directory, "/w/a/b": .directory, "/w/site": .directory, "/w/site/.fallback-site": .regularFile,
        "/w/notes": .regularFile, "/w/null": .characterDevice, "/w/pipe": .fifo, "/w/socket": .socket,
        "/r": .directory, "/r/t": .directory, "/w/l": .symbolicLink, "/w/mine": .directory, "/w/mine/thesis.tex": .regularFile,
        "/w/locked": .directory,
    ], links: ["/w/l": "/r/t"], unlistable: ["/w/locked"])

    @Test(arguments: [
        ("site", "/w/site"), ("site/", "/w/site"), ("site/.", "/w/site"), ("./site//", "/w/site"), ("a/b/..", "/w/a"),
        ("a/../site", "/w/site"), ("new/deeper/site", "/w/new/deeper/site"), ("new/../site", "/w/site"), ("e3/.", "/w/e3"),
        ("/w//a/./b/", "/w/a/b"), ("../up", "/up"), ("l", "/w/l"), ("l/.", "/w/l"), ("l/site", "/r/t/site"), ("l/..", "/r"),
        (".", "/w"), ("./", "/w"), ("a/b/../..", "/w"),
        // A `/` inside a larger `Character` still separates components, as the file system reads it.
        ("a\u{600}/..", "/w"), ("a/b/..\u{338}", "/w/a/b/..\u{338}"), ("a/b/\u{338}/..", "/w/a/b"), ("new\u{600}/../site", "/w/site"),
    ])
    func pathsAreNormalisedBeforeAnyRule(argument: String, path: String) throws {
        #expect(try OutputFolder(argument, io: Self.disk).path == path)
    }

    @Test(arguments: [".", "./", "..", "../..", "a/..", "/w", "/"])
    func theWorkingFolderAndAboveAreAlwaysRefused(argument: String) throws {
        let error = #expect(throws: SiteWriterError.self) { try SiteWriter(outputPath: argument, io: Self.disk, force: true).checkedOutput() }
        guard case .containsWorkingDirectory(let named)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(named.hasPrefix(argument))
    }

    @Test func anEmptyPathIsRefused() {
        #expect(throws: SiteWriterError.emptyOutputPath) { try SiteWriter(outputPath: "", io: Self.disk, force: true).checkedOutput() }
    }

    static let nonFolders: [(String, FileKind)] = [("notes", .regularFile), ("null", .characterDevice), ("pipe", .fifo), ("socket", .socket)]

    @Test(arguments: nonFolders, [false, true])
    func whatIsNotAFolderIsNeverReplaced(item: (name: String, kind: FileKind), force: Bool) {
        let (name, kind) = item
        #expect(throws: SiteWriterError.notAFolder("/w/" + name, kind)) {
            try SiteWriter(outputPath: "/w/" + name, io: Self.disk, force: force).checkedOutput()
        }
        #expect(throws: SiteWriterError.notAFolder("/w/" + name, kind)) {
            try SiteWriter(outputPath: "/w/" + name + "/site", io: Self.disk, force: force).checkedOutput()
        }
    }

    @Test(arguments: [false, true])
    func aFolderThatCannotBeListedIsRefused(force: Bool) {
        #expect(throws: SiteWriterError.cannotList("/w/locked")) {
            try SiteWriter(outputPath: "/w/locked", io: Self.disk, force: force).checkedOutput()
        }
    }

    @Test func aSymbolicLinkNeedsForceAndIsNotFollowed() throws {
        #expect(throws: SiteWriterError.symbolicLink("/w/l")) { try SiteWriter(outputPath: "/w/l", io: Self.disk).checkedOutput() }
        #expect(try SiteWriter(outputPath: "/w/l/.", io: Self.disk, force: true).checkedOutput().path == "/w/l")
    }

    @Test func aFolderItDidNotWriteNeedsForce() throws {
        #expect(throws: SiteWriterError.notAPreviousOutput("/w/mine")) { try SiteWriter(outputPath: "/w/mine", io: Self.disk).checkedOutput() }
        #expect(try SiteWriter(outputPath: "/w/mine", io: Self.disk, force: true).checkedOutput().path == "/w/mine")
        #expect(try SiteWriter(outputPath: "site", io: Self.disk).checkedOutput().path == "/w/site")
        #expect(try SiteWriter(outputPath: "/w/a/b", io: Self.disk).checkedOutput().path == "/w/a/b")
    }

    @Test(arguments: [
        ("/w/mine", "/w/mine/thesis.tex"), ("/w/mine/thesis.tex", "/w/mine/thesis.tex"), ("/w/mine/x", "/w/mine"),
        ("/w/a/b/..", "a/b"), ("/r/t/site", "l"), ("/w/l/site", "/r/t"), ("/w/x", "x/../x/in.json"),
        ("/w/x", "y\u{600}/../x/in.json"),
    ])
    func theOutputNeverOverlapsAnInput(output: String, input: String) {
        let error = #expect(throws: SiteWriterError.self) {
            try SiteWriter(outputPath: output, io: Self.disk, force: true, inputs: ["/w/site", input]).checkedOutput()
        }
        guard case .overlapsInput(_, let named)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(named == input)
    }

    @Test func aSiblingInputIsNoOverlap() throws {
        #expect(try SiteWriter(outputPath: "/w/site", io: Self.disk, inputs: ["/w/sitemap.json", "/w/a", "site.json"]).checkedOutput().path == "/w/site")
    }

    @Test func onlyItsOwnTemporaryFoldersAreLeftovers() throws {
        let output = try OutputFolder("/w/site", io: Self.disk)
        #expect(output.sibling(named: ".site.building-12") == .building)
        #expect(output.sibling(named: ".site.previous-3") == .previous)
        for name in [".site.building-", ".site.building-x", ".site.previous-1.txt", ".site.building-1.building-2", ".sitex.previous-1", "site", ".site.other-1"] {
            #expect(output.sibling(named: name) == nil, "\(name)")
        }
        #expect(output.sibling(named: (output.sibling(.building, process: 77) as NSString).lastPathComponent) == .building)
    }

    @Test func messagesAreOneLineAndNameThePath() {
        let errors: [SiteWriterError] = [
            .emptyOutputPath, .notAFolder("p", .fifo), .cannotList("p"), .symbolicLink("p"), .overlapsInput("p", input: "i"),
            .containsWorkingDirectory("p"), .notAPreviousOutput("p"),
        ]
        for error in errors {
            #expect(!error.description.contains("\n"))
            #expect(error.refusesTheOutput)
            if error != .emptyOutputPath { #expect(error.description.contains("p ")) }
        }
    }
}

@Suite("theme export's folder")
struct ThemeExportFolderTests {
    let disk = OutputFolderTests.disk

    @Test func aFolderWithFilesNeedsForce() {
        #expect(throws: ThemeError.notEmpty("/w/mine")) { try Theme.builtIn.export(to: "/w/mine", io: disk) }
        // With --force it writes (here into a table that refuses every write).
        #expect(throws: SiteWriterError.self) { try Theme.builtIn.export(to: "/w/mine", io: disk, force: true) }
    }

    @Test(arguments: ["/w/notes", "/w/null", "/w/pipe"], [false, true])
    func whatIsNotAFolderIsRefused(path: String, force: Bool) {
        #expect(throws: ThemeError.notAFolder(path)) { try Theme.builtIn.export(to: path, io: disk, force: force) }
    }

    @Test func aFolderThatCannotBeListedIsRefused() {
        #expect(throws: ThemeError.cannotList("/w/locked")) { try Theme.builtIn.export(to: "/w/locked", io: disk, force: true) }
    }

    @Test(arguments: ["/w/l", "/w/new", "/r/t"])
    func anEmptyOrMissingFolderIsWritten(path: String) {
        // The link points to an empty folder: like that folder, it is written (the table refuses the write).
        #expect(throws: SiteWriterError.self) { try Theme.builtIn.export(to: path, io: disk) }
    }
}
