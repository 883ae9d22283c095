import Foundation

extension SnapshotSeries {
    /// The snapshots a command names, as a series: the committed versions of `gitHistory` when
    /// given, else the exports in a folder when `paths` is one folder, else several files; nil
    /// for a single file (or none), which is no series.
    public static func source(paths: [String], gitHistory: String?) -> (any SnapshotSource)? {
        if let gitHistory { return GitFileHistory(file: gitHistory) }
        var isFolder: ObjCBool = false
        if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder), isFolder.boolValue {
            return SnapshotFolder(path: paths[0])
        }
        return paths.count > 1 ? SnapshotFiles(paths: paths) : nil
    }
}
