// `history --git-history` over a long git history, beside the same snapshots read from a folder.
import Foundation

/// `git` on the `PATH`, or nil.
func gitExecutable() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { ($0 as NSString).appendingPathComponent("git") }
        .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// One commit of a `git fast-import` stream that sets `path` to `text` on `refs/heads/main`.
/// The committer time is `1767225600` (2026-01-01) plus `index` days, so the history is the same every run.
func fastImportCommit(index: Int, path: String, text: String) -> Data {
    let message = "release \(index)\n"
    var stream = "commit refs/heads/main\n"
    stream += "committer Bench <bench@example.com> \(1_767_225_600 + index * 86_400) +0000\n"
    stream += "data \(message.utf8.count)\n\(message)"
    stream += "M 100644 inline \(path)\n"
    stream += "data \(text.utf8.count)\n"
    return Data((stream + text + "\n\n").utf8)
}

/// `commits` releases of a `placements`-placement sample, committed one a commit to a temporary
/// repository and written to a folder; then `history --git-history` beside `history FOLDER` (the
/// like-for-like anchor: the same fold and checks, reading files) and `check FOLDER/*` (each file checked).
func measureGitHistory(commits: Int, placements: Int, changes: Int, runs: Int, site: SiteCommands) throws -> [Goal] {
    let name = "history --git-history vs history FOLDER (\(decimal(Double(commits), places: 0)) commits)"
    guard let git = gitExecutable() else {
        print("git is not installed: no git history row")
        return [Goal(name: name, bound: .atMost(1.2), unit: .times, figure: nil, note: "git is not installed")]
    }
    let folder = try BenchFolder("git")
    let repository = folder.file("repository")
    let releases = folder.file("releases")
    try FileManager.default.createDirectory(atPath: releases, withIntermediateDirectories: true)
    print("")
    print("git history: committing \(decimal(Double(commits), places: 0)) releases of a \(decimal(Double(placements), places: 0))-placement sample "
        + "(\(changes) placements republished per release) with git fast-import, and writing them to a folder…")
    var initialize = ChildCommand(git, ["init", "-q", "-b", "main", repository])
    initialize.standardError = nil
    _ = try initialize.run()

    let importer = Process()
    importer.executableURL = URL(fileURLWithPath: git)
    importer.arguments = ["-C", repository, "fast-import", "--quiet"]
    let input = Pipe()
    importer.standardInput = input
    importer.standardOutput = FileHandle.nullDevice
    try importer.run()
    var paths: [String] = []
    var totalBytes = 0
    try ScalingInputs.forEachRelease(commits, placements: placements, changes: changes) { index, text in
        let path = (releases as NSString).appendingPathComponent(String(format: "release-%05d.json", index))
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        paths.append(path)
        totalBytes += text.utf8.count
        try input.fileHandleForWriting.write(contentsOf: fastImportCommit(index: index, path: "rovenue-fallback.json", text: text))
    }
    try input.fileHandleForWriting.close()
    importer.waitUntilExit()
    guard importer.terminationStatus == 0 else {
        throw ChildProcessError(command: [git, "fast-import"], reason: "exited with status \(importer.terminationStatus)")
    }
    var checkout = ChildCommand(git, ["-C", repository, "reset", "-q", "--hard", "main"])
    checkout.standardError = nil
    _ = try checkout.run()
    print("git history: \(decimal(megabytes(totalBytes), places: 0)) MB in all; \(runs) round(s) of the three commands, alternated")

    let measured = try measureAlternated(
        [site.history(gitHistory: (repository as NSString).appendingPathComponent("rovenue-fallback.json")), site.history([releases]), site.check(paths)],
        runs: runs)
    let (fromGit, fromFolder, checked) = (measured[0], measured[1], measured[2])
    let slowdown = RunComparison(fromGit, fromFolder, alternated: true)
    print("history --git-history (\(decimal(Double(commits), places: 0)) commits)   \(fromGit.summary)")
    print("history FOLDER (the same \(decimal(Double(commits), places: 0)) files)    \(fromFolder.summary)")
    print("check FOLDER/*.json (each file alone)  \(checked.summary)")
    print("git history vs folder, time: \(slowdown.summary) (goal ≤ 1.2×)")
    print("git history vs check of the files, time: \(RunComparison(fromGit, checked, alternated: true).summary)")
    return [Goal(
        name: name, bound: .atMost(1.2), unit: .times, figure: slowdown.wall, cpuFigure: slowdown.cpu, userFigure: slowdown.user,
        anchor: "\(secondsText(fromGit.best.seconds)) vs folder \(secondsText(fromFolder.best.seconds))")]
}
