import FallbackAudit
import Foundation

/// The templates and assets built into the binary from `Templates/` and `Site/assets/`.
public enum DefaultTheme {
    /// Every default file by its theme path (`templates/layout.html`, `assets/site.css`, …).
    public static let files: [String: [UInt8]] = {
        var files: [String: [UInt8]] = [:]
        for (name, base64) in encodedFiles {
            files[name] = Data(base64Encoded: base64).map { [UInt8]($0) } ?? []
        }
        return files
    }()
}

/// The templates and assets a build renders with: the defaults, overridden file by file.
public struct Theme: Sendable {
    /// Template sources by file name (`layout.html`, `overview.md`, `partials/…`).
    public private(set) var templates: [String: String]
    /// Asset bytes by path below `assets/`.
    public private(set) var assets: [String: [UInt8]]
    /// The file each template read from a templates folder came from, by its name, as the user
    /// named the folder (`th/templates/overview.md`); a template without one is built in.
    public private(set) var templateFiles: [String: String] = [:]

    /// The built-in theme.
    public static var builtIn: Theme {
        var templates: [String: String] = [:]
        var assets: [String: [UInt8]] = [:]
        for (path, bytes) in DefaultTheme.files {
            if path.hasPrefix("templates/") {
                templates[String(path.dropFirst("templates/".count))] = String(decoding: bytes, as: UTF8.self)
            } else if path.hasPrefix("assets/") {
                assets[String(path.dropFirst("assets/".count))] = bytes
            }
        }
        return Theme(templates: templates, assets: assets)
    }

    public init(templates: [String: String], assets: [String: [UInt8]]) {
        self.templates = templates
        self.assets = assets
    }

    /// The built-in theme with every file found under `templatesFolder` and `assetsFolder` in
    /// place of the default of the same relative path.
    public static func builtIn(overridingTemplatesWith templatesFolder: String?, assetsWith assetsFolder: String?) throws -> Theme {
        var theme = Theme.builtIn
        if let templatesFolder {
            let base = templatesFolder.hasSuffix("/") ? templatesFolder : templatesFolder + "/"
            for (path, bytes) in try files(under: templatesFolder) {
                theme.templates[path] = String(decoding: bytes, as: UTF8.self)
                theme.templateFiles[path] = base + path
            }
        }
        if let assetsFolder {
            for (path, bytes) in try files(under: assetsFolder) {
                theme.assets[path] = bytes
            }
        }
        return theme
    }

    /// How an error names the template `name`: the file it was read from, for an editor to open,
    /// or `built-in template NAME`.
    public func templateLocation(_ name: String) -> String {
        templateFiles[name] ?? "built-in template \(name)"
    }

    /// Every non-hidden file below `folder` by its relative path, each read through
    /// `RegularFile.read(_:)`: a link is read as the file it points to, under its own name; a FIFO,
    /// a device, a socket or a link to a folder is refused (`FileReadError`, naming it), never
    /// skipped. Hidden names (`.…`) are left out, folders included.
    static func files(under folder: String) throws -> [String: [UInt8]] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { throw ThemeError.missing(folder) }
        guard isDirectory.boolValue else { throw ThemeError.notAFolder(folder) }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        var files: [String: [UInt8]] = [:]
        var pending = [""]
        while let relative = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: base + relative) else {
                throw ThemeError.cannotList(base + relative)
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = relative + name
                if FileKind.at(base + path) == .directory {
                    pending.append(path + "/")
                } else {
                    files[path] = try RegularFile.read(base + path)
                }
            }
        }
        return files
    }

    /// Writes the theme's files below `folder` (`templates/…`, `assets/…`), for customising.
    /// `folder` is missing or an empty folder, or with `force` any folder (files of the same path
    /// are overwritten, others kept); a symbolic link counts as what it points to.
    public func export(to folder: String, io: FileIO = .disk, force: Bool = false) throws {
        if let target = io.resolvedPath(folder), let kind = io.itemKind(target) {
            guard kind == .directory else { throw ThemeError.notAFolder(folder) }
            guard let names = io.listDirectory(target) else { throw ThemeError.cannotList(folder) }
            if !names.isEmpty, !force { throw ThemeError.notEmpty(folder) }
        } else if io.itemKind(folder) != nil {
            throw ThemeError.notAFolder(folder)  // a link to nothing
        } else if let ancestor = Self.nearestExisting(above: folder, io: io) {
            switch io.itemKind(io.resolvedPath(ancestor) ?? ancestor) {
            case .directory?, .unexaminable?, nil: break
            default: throw ThemeError.notAFolder(ancestor)  // `FILE/sub`: nothing can be made below a file
            }
        }
        let all = templates.map { ("templates/" + $0.key, Array($0.value.utf8)) } + assets.map { ("assets/" + $0.key, $0.value) }
        for (path, bytes) in all.sorted(by: { $0.0 < $1.0 }) {
            let target = folder + "/" + path
            try io.createDirectory((target as NSString).deletingLastPathComponent)
            try io.writeFile(target, bytes)
        }
    }
}

extension Theme {
    /// The nearest path above `path` (by its text) that exists, if any.
    static func nearestExisting(above path: String, io: FileIO) -> String? {
        var ancestor = (path as NSString).deletingLastPathComponent
        while !ancestor.isEmpty, ancestor != "/" {
            if io.itemKind(ancestor) != nil { return ancestor }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        return nil
    }
}

public enum ThemeError: Error, Equatable, CustomStringConvertible {
    case notAFolder(String)
    /// A templates or assets folder to read that does not exist (or is a broken link).
    case missing(String)
    /// `theme export` into a folder that already has files, without `--force`.
    case notEmpty(String)
    case cannotList(String)

    public var description: String {
        switch self {
        case .notAFolder(let path): "\(path) is not a folder"
        case .missing(let path): "\(path) does not exist"
        case .notEmpty(let path):
            "\(path) is not empty and exporting would overwrite its templates; choose a new or empty folder, "
                + "or pass --force to overwrite the files of the same name"
        case .cannotList(let path): "\(path) is a folder that cannot be listed; choose another folder"
        }
    }
}
