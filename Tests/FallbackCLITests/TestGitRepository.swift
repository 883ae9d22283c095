import Foundation
import Testing

/// Runs `git` in `repository` for a test, reading neither the user's nor the system's git
/// configuration (a global `commit.gpgsign` would break the commits), so git writes nothing
/// outside the folder; records an issue when git fails.
func runGit(_ arguments: [String], in repository: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "-C", repository] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = repository
    environment["XDG_CONFIG_HOME"] = repository
    environment["GIT_CONFIG_GLOBAL"] = repository + "/.gitconfig-test"
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "git \(arguments)")
}
