/// A path read as the file system reads it: its components are the bytes between `/` bytes.
///
/// Swift's `String.split(separator: "/")` splits at `Character`s instead, and a `/` can be part of
/// a larger `Character`: before a combining mark (`"/\u{338}"`) or after a prepended character
/// (`"\u{600}/"`). Split that way, `"../\u{338}x"` has no `..` component, but the file system
/// goes up a folder. Every check of a path the site writes or reads splits it here.
public enum FileSystemPath {
    /// The components of `path`, in order; with `omittingEmpty`, the empty ones (a leading,
    /// trailing or repeated `/`) are left out.
    public static func components(of path: String, omittingEmpty: Bool = true) -> [String] {
        path.utf8.split(separator: slash, omittingEmptySubsequences: omittingEmpty).map { String(decoding: $0, as: UTF8.self) }
    }

    /// True when `component` is `.` or `..`, byte for byte.
    public static func isDotOrDotDot(_ component: String) -> Bool {
        var dots = 0
        for byte in component.utf8 {
            guard byte == dot, dots < 2 else { return false }
            dots += 1
        }
        return dots > 0
    }

    /// True when `component` starts with a `.` byte: hidden, `.` or `..`.
    public static func isHidden(_ component: String) -> Bool {
        component.utf8.first == dot
    }

    static let slash = UInt8(ascii: "/")
    static let dot = UInt8(ascii: ".")
}
