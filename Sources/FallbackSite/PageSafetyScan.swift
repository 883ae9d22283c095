import RovenueFallback

/// The checks every page of a built site passes, whatever the snapshot: the page carries the
/// Content-Security-Policy and only the site's own script, has no inline style, and every tag,
/// attribute and link in it is one the theme writes. Snapshot text only ever reaches a page
/// escaped, so a tag, attribute or URL scheme outside these lists means text became markup.
///
/// The site's tests and the `build` fuzz target hold every page to it.
public struct PageSafetyScan: Sendable {
    /// A tag as the browser's tokenizer reads it: name lowercased, attribute names lowercased,
    /// values with quotes removed (character references left as written).
    public struct Tag: Sendable, Hashable {
        public let name: String
        public let isEnd: Bool
        public let attributes: [Attribute]
        /// The byte offset of the `<` in the page.
        public let offset: Int
    }

    public struct Attribute: Sendable, Hashable {
        public let name: String
        public let value: String?
    }

    /// The elements the theme, cmark-gfm's rendering of the templates, and the drawings write.
    public static let allowedElements: Set<String> = [
        "html", "head", "meta", "title", "link", "script", "body", "header", "nav", "main", "footer", "section", "figure",
        "figcaption", "a", "img", "ul", "ol", "li", "dl", "dt", "dd", "div", "span", "p", "h1", "h2", "h3", "h4", "strong", "em",
        "code", "pre", "table", "thead", "tbody", "tr", "th", "td", "label", "input", "select", "option", "output", "time",
        "mark", "br", "hr", "caption", "form", "button", "details", "summary", "bdi", "abbr", "small", "sup", "sub",
        "svg", "g", "rect", "path", "text", "tspan", "line", "polyline", "polygon", "circle", "marker", "defs", "desc",
        // The changes page's copy diffs (partials/copy-diff.md): removed and added words.
        "del", "ins",
    ]

    /// The attributes those elements carry.
    public static let allowedAttributes: Set<String> = [
        "lang", "charset", "name", "content", "http-equiv", "rel", "href", "type", "src", "defer", "class", "id", "aria-label",
        "aria-current", "aria-hidden", "aria-describedby", "aria-labelledby", "aria-live", "aria-sort", "alt", "width", "height", "role", "title",
        "for", "placeholder", "autocomplete", "spellcheck", "value", "selected", "datetime", "colspan", "rowspan", "scope",
        "align", "open", "dir", "tabindex", "hidden", "start",
        // The phone previews' locale switch (a toggle button's state).
        "aria-pressed",
        "viewbox", "xmlns", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "d", "points", "fill", "stroke",
        "stroke-width", "stroke-dasharray", "transform", "text-anchor", "dominant-baseline", "font-size", "marker-end",
        "markerwidth", "markerheight", "markerunits", "refx", "refy", "orient", "preserveaspectratio", "focusable",
    ]

    /// URL schemes a link or source may use; a URL without a scheme is relative.
    public static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// The `content` of the page's policy meta tag, as the layout writes it (HTML-escaped).
    static var escapedPolicy: String { MarkupEscaping.html(SiteBuilder.contentSecurityPolicy) }

    /// Every reason `page` fails the scan; empty when it passes.
    public static func problems(in page: String) -> [String] {
        var problems: [String] = []
        let bytes = Array(page.utf8)
        let (tags, markupProblems) = read(bytes)
        problems += markupProblems
        var counts: [String: Int] = [:]
        for tag in tags where !tag.isEnd {
            counts[tag.name, default: 0] += 1
            if !allowedElements.contains(tag.name) { problems.append("<\(tag.name)> at byte \(tag.offset) is not an element the theme writes") }
            for attribute in tag.attributes {
                // `data-*` attributes are inert; the site's script reads some of them.
                if !allowedAttributes.contains(attribute.name) && !attribute.name.hasPrefix("data-") || attribute.name.hasPrefix("on") {
                    problems.append("<\(tag.name) \(attribute.name)=…> at byte \(tag.offset) is not an attribute the theme writes")
                }
                if attribute.name == "style" { problems.append("inline style at byte \(tag.offset)") }
                if ["href", "src", "xlink:href", "action", "formaction"].contains(attribute.name), let value = attribute.value,
                    let scheme = scheme(of: value), !allowedSchemes.contains(scheme)
                {
                    problems.append("<\(tag.name) \(attribute.name)> at byte \(tag.offset) uses the scheme \(scheme):")
                }
            }
            if tag.name == "meta", let equiv = tag.attributes.first(where: { $0.name == "http-equiv" }) {
                if equiv.value?.lowercased() != "content-security-policy" {
                    problems.append("<meta http-equiv=\(equiv.value ?? "")> at byte \(tag.offset)")
                } else if tag.attributes.first(where: { $0.name == "content" })?.value != escapedPolicy {
                    problems.append("the Content-Security-Policy at byte \(tag.offset) is not the site's")
                }
            }
            if tag.name == "script", tag.attributes.first(where: { $0.name == "src" })?.value?.hasSuffix("assets/site.js") != true {
                problems.append("a <script> at byte \(tag.offset) that is not the site's script")
            }
        }
        let policies = tags.count { tag in tag.name == "meta" && !tag.isEnd && tag.attributes.contains { $0.name == "http-equiv" } }
        if policies != 1 { problems.append("\(policies) Content-Security-Policy meta tags instead of 1") }
        for (name, expected) in [("script", 1), ("h1", 1), ("html", 1), ("head", 1), ("body", 1), ("main", 1)] where counts[name, default: 0] != expected {
            problems.append("\(counts[name, default: 0]) <\(name)> instead of \(expected)")
        }
        return problems
    }

    /// Every tag of `page`, in order.
    public static func tags(in page: String) -> [Tag] {
        read(Array(page.utf8)).tags
    }

    /// The scheme of a URL attribute's value as a browser reads it: character references decoded,
    /// tabs, newlines and leading controls or spaces ignored, lowercased; nil for a relative URL.
    static func scheme(of value: String) -> String? {
        let decoded = decodingCharacterReferences(value).unicodeScalars.filter { $0.value > 0x20 && $0 != "\u{7F}" }
        var scheme = ""
        for scalar in decoded {
            if scalar == ":" { return scheme.isEmpty ? nil : scheme.lowercased() }
            guard scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar)
            else { return nil }
            scheme.unicodeScalars.append(scalar)
        }
        return nil
    }

    /// Numeric references (`&#58;`, `&#x3a;`, with or without `;`) and the named ones that can spell a scheme.
    static func decodingCharacterReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        let named: [String: String] = ["colon": ":", "tab": "\t", "newline": "\n", "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
        var output = ""
        var scalars = Substring(text).unicodeScalars[...]
        while let first = scalars.first {
            scalars.removeFirst()
            guard first == "&" else { output.unicodeScalars.append(first); continue }
            if scalars.first == "#" {
                var rest = scalars.dropFirst()
                let hex = rest.first == "x" || rest.first == "X"
                if hex { rest = rest.dropFirst() }
                let digits = rest.prefix { hex ? $0.properties.isASCIIHexDigit : ("0"..."9").contains($0) }.prefix(8)
                if !digits.isEmpty, let value = UInt32(String(String.UnicodeScalarView(digits)), radix: hex ? 16 : 10) {
                    output.unicodeScalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                    rest = rest.dropFirst(digits.count)
                    if rest.first == ";" { rest = rest.dropFirst() }
                    scalars = rest
                    continue
                }
            } else {
                let name = String(String.UnicodeScalarView(scalars.prefix { $0.properties.isAlphabetic && $0.isASCII }.prefix(10)))
                if let replacement = named[name.lowercased()] {
                    output += replacement
                    scalars = scalars.dropFirst(name.unicodeScalars.count)
                    if scalars.first == ";" { scalars = scalars.dropFirst() }
                    continue
                }
            }
            output.unicodeScalars.append(first)
        }
        return output
    }

    /// Reads the tags of a page the way an HTML tokenizer does (enough for pages this site writes):
    /// a `<` starts a tag only before a letter or `/`; anything else is reported, because every
    /// `<` of text reaches the page as `&lt;`.
    static func read(_ bytes: [UInt8]) -> (tags: [Tag], problems: [String]) {
        var tags: [Tag] = []
        var problems: [String] = []
        var index = 0
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            let start = index
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "!") {
                let declaration = "<!doctype html>"
                if start == 0, bytes.count >= declaration.utf8.count,
                    String(decoding: bytes[0..<declaration.utf8.count], as: UTF8.self).lowercased() == declaration
                {
                    index = declaration.utf8.count
                    continue
                }
                problems.append("a comment or declaration at byte \(start)")
                index = endOfComment(startingAt: start, in: bytes)
                continue
            }
            let isEnd = next == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < bytes.count, isLetter(bytes[nameStart]) else {
                problems.append("a raw < in text at byte \(start)")
                index += 1
                continue
            }
            index = nameStart
            while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
            var attributes: [Attribute] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ">") {
                if isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1; continue }
                let attributeStart = index
                index += 1
                while index < bytes.count, !isSpace(bytes[index]), !"/>=".utf8.contains(bytes[index]) { index += 1 }
                let attributeName = String(decoding: bytes[attributeStart..<index], as: UTF8.self).lowercased()
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                var value: String?
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                        let quote = bytes[index]
                        let valueStart = index + 1
                        index = valueStart
                        while index < bytes.count, bytes[index] != quote { index += 1 }
                        value = String(decoding: bytes[valueStart..<min(index, bytes.count)], as: UTF8.self)
                        index += 1
                    } else {
                        let valueStart = index
                        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                        value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    }
                }
                attributes.append(Attribute(name: attributeName, value: value))
            }
            if index >= bytes.count { problems.append("an unterminated tag at byte \(start)") }
            index += 1
            tags.append(Tag(name: name, isEnd: isEnd, attributes: attributes, offset: start))
        }
        return (tags, problems)
    }

    /// The index after the comment or declaration whose `<!` is at `start`, as the tokenizer ends
    /// it: `<!--` at `-->` or `--!>` (`<!-->` and `<!--->` at once), any other `<!` at its first
    /// `>`; the end of the page when it never ends. Nothing inside is read as a tag.
    static func endOfComment(startingAt start: Int, in bytes: [UInt8]) -> Int {
        let dash = UInt8(ascii: "-"), greaterThan = UInt8(ascii: ">")
        func at(_ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        guard at(start + 2) == dash, at(start + 3) == dash else {
            return (bytes[(start + 2)...].firstIndex(of: greaterThan) ?? bytes.count - 1) + 1
        }
        var index = start + 4
        if at(index) == greaterThan { return index + 1 }
        if at(index) == dash, at(index + 1) == greaterThan { return index + 2 }
        while index < bytes.count {
            if bytes[index] == dash, at(index + 1) == dash {
                if at(index + 2) == greaterThan { return index + 3 }
                if at(index + 2) == UInt8(ascii: "!"), at(index + 3) == greaterThan { return index + 4 }
            }
            index += 1
        }
        return bytes.count
    }
}
