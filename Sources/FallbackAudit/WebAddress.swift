import Foundation

/// Which `http(s)` addresses the tools put into links: the one place that decides it.
///
/// There are two questions, for two kinds of text. An address the user configures (`rulesUrl`,
/// `--rules-url`) is theirs to choose, so it only has to be written as a web URL
/// (`isWebURL(_:)`). A URL found in a snapshot is untrusted and becomes the `href` of a page, so
/// it must also name a host and stay short (`isLinkable(_:)`).
public enum WebAddress {
    /// The longest snapshot URL a page links to, in UTF-8 bytes: a longer one is shown as text only.
    public static let longestLink = 2_000

    /// True when `text` starts with `http://` or `https://` (any case), has something after it,
    /// and has no whitespace or control characters anywhere.
    public static func isWebURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        let scheme = lowered.hasPrefix("https://") ? 8 : lowered.hasPrefix("http://") ? 7 : nil
        guard let scheme, text.utf8.count > scheme else { return false }
        return !text.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F || $0.properties.isWhitespace }
    }

    /// True when a page may link to `text`, a URL found in a snapshot: a web URL (`isWebURL(_:)`)
    /// of at most `longestLink` bytes that `URLComponents` reads with a non-empty host.
    public static func isLinkable(_ text: String) -> Bool {
        guard text.utf8.count <= longestLink, isWebURL(text), let components = URLComponents(string: text) else { return false }
        return components.host?.isEmpty == false
    }
}
