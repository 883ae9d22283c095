import FallbackAudit
import Foundation

/// Where a build writes its site (`--out`), resolved without following a final symbolic link, and
/// the rules it must pass before anything is replaced:
///
/// - the path is normalised first: relative to the working folder, `.`, `..` and repeated or
///   trailing slashes resolved, and every folder on the way resolved through its links; a final
///   `.` or trailing slash names the same thing as the path without it;
/// - it is never the working folder or a folder above it (`.`, `..`, `/`);
/// - it never is, contains or lies inside an input of the build;
/// - what exists there is a folder (or nothing): a file, a FIFO, a device or a socket is never
///   replaced, `--force` or not, and neither is a folder whose names cannot be listed;
/// - a non-empty folder without the marker of a previous build, and a symbolic link, are replaced
///   only with `--force`; a link is then replaced by the site, its target left as it is.
///
/// Resolving and checking only read the file system, through `FileIO`.
public struct OutputFolder: Sendable, Equatable {
    /// The path as given, for messages.
    public let argument: String
    /// The folder the output is made in: absolute, every link resolved.
    public let parent: String
    /// The output's own name in `parent`: never empty, `.` or `..`, and without a slash.
    public let name: String

    /// The absolute path of the output.
    public var path: String { Self.join(parent, name) }

    /// Resolves `argument` against `io`'s working folder.
    public init(_ argument: String, io: FileIO) throws(SiteWriterError) {
        guard !argument.isEmpty else { throw .emptyOutputPath }
        self.argument = argument
        let absolute = argument.hasPrefix("/") ? argument : io.currentDirectory() + "/" + argument
        var components = FileSystemPath.components(of: absolute)
        // A final `.` names the folder itself: `site/.` is `site`, and a link there is not followed.
        while components.last == "." { components.removeLast() }
        var existing = "/"
        var missing: [String] = []
        var finalName: String?
        for (index, component) in components.enumerated() {
            switch component {
            case ".": continue
            case "..":
                if missing.isEmpty { existing = Self.parent(of: existing) } else { missing.removeLast() }
            default:
                if index == components.count - 1 {
                    finalName = component
                } else if missing.isEmpty, let resolved = io.resolvedPath(Self.join(existing, component)) {
                    existing = resolved
                } else {
                    missing.append(component)
                }
            }
        }
        if finalName == nil, let last = missing.popLast() { finalName = last }
        if finalName == nil, existing != "/" {
            finalName = (existing as NSString).lastPathComponent
            existing = Self.parent(of: existing)
        }
        guard let finalName else { throw .containsWorkingDirectory(argument) }
        self.parent = missing.reduce(existing, Self.join)
        self.name = finalName
    }

    /// The rules about where the output is: not the working folder or above it, apart from every
    /// input, and made in a folder (or in a path still to be created).
    public func checkPlace(inputs: [String], io: FileIO) throws(SiteWriterError) {
        let workingFolder = io.currentDirectory()
        for folder in [workingFolder, io.resolvedPath(workingFolder) ?? workingFolder] where Self.contains(path, folder) {
            throw .containsWorkingDirectory(described)
        }
        if let input = inputs.first(where: { Self.overlaps(path, anyOf: [$0], io: io) }) {
            throw .overlapsInput(described, input: input)
        }
        var ancestor = parent
        while io.itemKind(ancestor) == nil, ancestor != "/" { ancestor = Self.parent(of: ancestor) }
        if let kind = io.itemKind(ancestor), kind != .directory { throw .notAFolder(ancestor, kind) }
    }

    /// The rules about what is already there: nothing, or a folder that can be listed and is a
    /// previous output (any folder, or a symbolic link, with `force`).
    public func checkExisting(force: Bool, io: FileIO) throws(SiteWriterError) {
        switch io.itemKind(path) {
        case nil: return
        case .directory:
            guard let names = io.listDirectory(path) else { throw .cannotList(described) }
            if !names.isEmpty, !names.contains(SiteWriter.markerName), !force { throw .notAPreviousOutput(described) }
        case .symbolicLink:
            if !force { throw .symbolicLink(described) }
        case let kind?:
            throw .notAFolder(described, kind)
        }
    }

    /// The argument, with the path it resolved to when that differs.
    var described: String { argument == path ? argument : "\(argument) (\(path))" }

    /// The temporary folders a build keeps beside the output.
    enum Sibling: String { case building, previous }

    /// `.NAME.building-PID` or `.NAME.previous-PID` beside the output.
    func sibling(_ sibling: Sibling, process: Int32) -> String {
        Self.join(parent, ".\(name).\(sibling.rawValue)-\(process)")
    }

    /// Which temporary folder of this output `fileName` is, if it is named exactly as `sibling(_:process:)` names one.
    func sibling(named fileName: String) -> Sibling? {
        let prefix = ".\(name)."
        guard fileName.hasPrefix(prefix) else { return nil }
        let rest = fileName.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let sibling = Sibling(rawValue: String(rest[..<dash])) else { return nil }
        let number = rest[rest.index(after: dash)...]
        return !number.isEmpty && number.allSatisfy { $0.isASCII && $0.isNumber } ? sibling : nil
    }

    /// True when `path` is, contains or lies inside one of `inputs`, each compared as written
    /// (made absolute, `.` and `..` removed) and with its links resolved.
    static func overlaps(_ path: String, anyOf inputs: [String], io: FileIO) -> Bool {
        inputs.contains { input in
            let absolute = lexicallyNormalised(input.hasPrefix("/") ? input : io.currentDirectory() + "/" + input)
            return [absolute, io.resolvedPath(absolute)].compactMap { $0 }.contains { contains(path, $0) || contains($0, path) }
        }
    }

    /// True when `inner` is `outer` or lies below it.
    static func contains(_ outer: String, _ inner: String) -> Bool {
        outer == inner || outer == "/" || inner.hasPrefix(outer + "/")
    }

    /// An absolute path without `.`, `..` or empty components, by text alone.
    static func lexicallyNormalised(_ absolute: String) -> String {
        var components: [String] = []
        for component in FileSystemPath.components(of: absolute) where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        return "/" + components.joined(separator: "/")
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder == "/" ? "/" + name : folder + "/" + name
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
