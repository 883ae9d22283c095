import FallbackAudit
import FallbackHistory
import Foundation
import Testing
@testable import FallbackSite
import RovenueFallback

/// Every internal link of a built site: the file it names exists inside the site, and its
/// `#fragment`, when it has one, is the `id` of an element of that file.
struct LinkChecker {
    struct Broken: CustomStringConvertible {
        let page: String
        let link: String
        let reason: String
        var description: String { "\(page): \(link) (\(reason))" }
    }

    let files: [String: String]

    /// The `id`s of each HTML page, parsed once.
    private var ids: [String: Set<String>] = [:]

    init(files: [String: String]) {
        self.files = files
        for (path, html) in files where path.hasSuffix(".html") || path.hasSuffix(".svg") {
            ids[path] = Set(Self.attributeValues(named: "id", in: html))
        }
    }

    /// The values of every `name="…"` attribute in `html`, entities decoded.
    static func attributeValues(named name: String, in html: String) -> [String] {
        var values: [String] = []
        let pattern = try! NSRegularExpression(pattern: "[\\s<]\(name)=\"([^\"]*)\"")
        let text = html as NSString
        for match in pattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            values.append(decodeEntities(text.substring(with: match.range(at: 1))))
        }
        return values
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            result += rest[..<ampersand]
            let tail = rest[ampersand...]
            guard let semicolon = tail.firstIndex(of: ";") else { break }
            let entity = tail[tail.index(after: ampersand)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let character = named[String(entity)] {
                result += character
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let value = UInt32(entity.dropFirst(2), radix: 16),
                let scalar = Unicode.Scalar(value)
            {
                result.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(value) {
                result.unicodeScalars.append(scalar)
            } else {
                result += tail[...semicolon]
            }
            rest = tail[tail.index(after: semicolon)...]
        }
        return result + rest
    }

    /// `base`'s folder joined with `relative`, with `.` and `..` resolved; nil when it leaves the site.
    static func resolve(_ relative: String, from page: String) -> String? {
        var parts = page.split(separator: "/", omittingEmptySubsequences: false).map(String.init).dropLast()
        for part in relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init) {
            switch part {
            case ".": continue
            case "..":
                if parts.isEmpty { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Every broken internal `href` or `src` of every page.
    func brokenLinks() -> [Broken] {
        var broken: [Broken] = []
        for (page, html) in files.sorted(by: { $0.key < $1.key }) where page.hasSuffix(".html") {
            let links = Self.attributeValues(named: "href", in: html) + Self.attributeValues(named: "src", in: html)
            for link in links {
                let lowered = link.lowercased()
                if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("mailto:") || lowered.hasPrefix("data:") {
                    continue
                }
                if link.contains(":") {
                    broken.append(Broken(page: page, link: link, reason: "a scheme the site does not link to"))
                    continue
                }
                let withoutQuery = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
                let parts = withoutQuery.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let pathPart = parts[0].removingPercentEncoding ?? parts[0]
                let target: String
                if pathPart.isEmpty {
                    target = page
                } else {
                    guard let resolved = Self.resolve(pathPart, from: page) else {
                        broken.append(Broken(page: page, link: link, reason: "leaves the site"))
                        continue
                    }
                    target = resolved
                }
                guard files[target] != nil else {
                    broken.append(Broken(page: page, link: link, reason: "no file \(target)"))
                    continue
                }
                if parts.count == 2 {
                    let fragment = parts[1].removingPercentEncoding ?? parts[1]
                    if ids[target]?.contains(fragment) != true {
                        broken.append(Broken(page: page, link: link, reason: "no element with id \"\(fragment)\" in \(target)"))
                    }
                }
            }
        }
        return broken
    }
}

/// Builds the site of the newest snapshot of `folder`, with its history and the previous snapshot as baseline.
func seriesSite(folder: String) throws -> [String: String] {
    let series = try SnapshotSeries(SnapshotFolder(path: folder))
    let timeline = try series.timeline(HistoryOptions())
    func snapshot(_ member: SnapshotSeries.Member) throws -> SiteModel.Snapshot {
        let bytes = try series.source.bytes(of: member.reference)
        let file = FallbackFile(bytes: bytes)
        return SiteModel.Snapshot(name: member.reference.name, bytes: bytes, file: file, findings: Audit().findings(in: file))
    }
    let members = series.members
    let model = SiteModel(
        snapshot: try snapshot(members[members.count - 1]), baseline: members.count > 1 ? try snapshot(members[members.count - 2]) : nil,
        timeline: timeline, title: nil, referenceDate: nil)
    return try SiteBuilder(model: model, theme: .builtIn).files().compactMapValues { String(bytes: $0, encoding: .utf8) }
}

@Suite("Links between the pages")
struct SiteLinkTests {
    static let fixtures = [
        "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json", "Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json",
        "Tests/FallbackAuditTests/Fixtures/funnel-era-fallback.json", "Tests/FallbackAuditTests/Fixtures/paywall-era-fallback.json",
        "Examples/2026-03-03-release-3.0.json", "Examples/2026-04-14-release-3.1.json", "Examples/2026-05-19-release-3.2.json",
        "Examples/2026-06-23-release-3.3.json", "Examples/2026-07-21-release-3.4.json",
    ]

    @Test(arguments: fixtures)
    func everyInternalLinkOfAFixtureSiteResolves(fixture: String) throws {
        let files = try site(for: try example(fixture))
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test(arguments: [
        ("Examples/2026-04-14-release-3.1.json", "Examples/2026-05-19-release-3.2.json"),
        ("Examples/2026-06-23-release-3.3.json", "Examples/2026-07-21-release-3.4.json"),
        ("Tests/RovenueFallbackTests/Fixtures/paywall-era-fallback.json", "Tests/RovenueFallbackTests/Fixtures/funnel-era-fallback.json"),
    ])
    func everyLinkOfAChangesPageResolves(baseline: String, current: String) throws {
        let files = try site(for: try example(current), baseline: try example(baseline))
        #expect(files["changes.html"] != nil)
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test func everyLinkOfTheExamplesSeriesResolves() throws {
        let files = try seriesSite(folder: repositoryRoot.appendingPathComponent("Examples").path)
        #expect(files["history.html"] != nil)
        #expect(files["changes.html"] != nil)
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test func everyLinkOfAHostileSiteResolves() throws {
        let snapshot = HostileSnapshotTests.hostileSnapshot()
        let baseline = snapshot.replacingOccurrences(of: "single_choice", with: "multi_choice")
        let files = try site(for: Array(snapshot.utf8), baseline: Array(baseline.utf8))
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test func aSiteWithFewFindingsLinksOnlyToSectionsItHas() throws {
        // A file with one kind of finding at most: the Checks page has no section for the other severities.
        let files = try site(for: Array(#"{"formatVersion":1,"placements":{"a":{"placement":{"identifier":"a","revision":1},"funnel":{"id":"f","slug":"f","pages":[]}}}}"#.utf8))
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.isEmpty, "\(broken.prefix(10))")
    }

    @Test func theCheckerFindsABrokenLink() {
        let files = [
            "index.html": ##"<a href="checks.html#errors">x</a><a href="missing.html">y</a><img src="assets/a.svg"><a href="#here">z</a><p id="here"></p>"##,
            "checks.html": #"<h2 id="warnings">W</h2>"#, "assets/a.svg": "<svg/>",
        ]
        let broken = LinkChecker(files: files).brokenLinks()
        #expect(broken.map(\.link).sorted() == ["checks.html#errors", "missing.html"])
    }
}
