// Hugo beside the site build: the same number of pages, built by Hugo as a whole process.
import Foundation

/// The pages Hugo is given.
enum HugoPages: Sendable {
    /// Plain Markdown prose paragraphs of about `textBytes` each under a minimal layout: the issue's
    /// "same amount of text as plain Markdown" (the goal's anchor).
    case prose(textBytes: Int)
    /// A heading, a facts list and a findings table, to about `htmlBytes` of HTML each: heavier pages,
    /// closer to ours in shape.
    case tables(htmlBytes: Int)

    /// The Markdown of page `index`.
    func markdown(index: Int) -> String {
        switch self {
        case .prose(let textBytes):
            var body = "# Placement p\(index)\n\n"
            var sentence = 0
            while body.utf8.count < textBytes {
                var paragraph = ""
                for _ in 0..<4 {
                    paragraph += "Placement p\(index) serves funnel number \(sentence) offline in two locales, and its paywall page offers a monthly and a yearly package. "
                    sentence += 1
                }
                body += paragraph + "\n\n"
            }
            return "---\ntitle: \"Page \(index)\"\n---\n\n" + body
        case .tables(let htmlBytes):
            var body = "## Findings\n\n| Severity | Rule | Where | Finding |\n| --- | --- | --- | --- |\n"
            var row = 0
            while body.utf8.count < htmlBytes / 3 {
                body += "| warning | `rule-\(row)` | line \(row), column 4 | Page *p\(row)* of funnel **f** loads a remote URL. |\n"
                row += 1
            }
            return "---\ntitle: \"Page \(index)\"\n---\n\n# Placement p\(index)\n\n- Key: `p\(index)`\n- Revision: 3\n\n" + body
        }
    }
}

/// Hugo on the `PATH` (or where Debian and Homebrew put it), or nil.
func hugoExecutable() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    return folders.map { ($0 as NSString).appendingPathComponent("hugo") }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// A Hugo site of `pages` pages of one kind (`hugo --quiet`, no minification, no RSS, sitemap or
/// taxonomies), written once; each timed run builds it into a fresh folder, as ours do
/// (`FileSystemSettling`).
struct HugoSite {
    let kind: HugoPages
    private let hugo: String
    private let root: BenchFolder

    /// Writes the site's content and layout; nil when Hugo is not installed.
    init?(pages: Int, kind: HugoPages) throws {
        guard let hugo = hugoExecutable() else { return nil }
        self.hugo = hugo
        self.kind = kind
        root = try BenchFolder("hugo")
        let content = root.file("content/pages")
        try FileManager.default.createDirectory(atPath: content, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root.file("layouts/_default"), withIntermediateDirectories: true)
        try root.write("baseURL = '/'\ntitle = 'bench'\ndisableKinds = ['taxonomy', 'term', 'RSS', 'sitemap']\n", to: "config.toml")
        let layout = "<!doctype html><html><head><title>{{ .Title }}</title></head><body><main>{{ .Content }}</main></body></html>"
        try root.write(layout, to: "layouts/_default/single.html")
        try root.write(layout, to: "layouts/_default/list.html")
        for index in 0..<pages {
            try Data(kind.markdown(index: index).utf8).write(to: URL(fileURLWithPath: (content as NSString).appendingPathComponent("p\(index).md")))
        }
    }

    /// The build of run `run`, into a folder of its own.
    func build(run: Int) -> ChildCommand {
        var command = ChildCommand(hugo, ["--quiet", "-s", root.path, "-d", root.file("public-\(run)")])
        command.standardError = nil
        return command
    }

    /// The two sites our build is compared with, for `output`'s pages: (a) plain prose of our
    /// pages' text size and (b) table pages of their HTML size. Empty when Hugo is not installed.
    static func comparisons(for output: SiteOutput) throws -> [HugoSite] {
        try [HugoPages.prose(textBytes: output.averageTextBytes), .tables(htmlBytes: output.averageHTMLBytes)].compactMap {
            try HugoSite(pages: output.pages, kind: $0)
        }
    }
}

/// Hugo's two comparisons with our whole-process build of the `placements`-placement sample:
/// `hugo` holds the runs of each of `sites`, made in the same rounds as `ours`.
func measureHugo(ours: ChildRuns, output: SiteOutput, placements: Int, sites: [HugoSite], hugo: [ChildRuns]) -> [Goal] {
    let name = "build of \(decimal(Double(placements), places: 0)) placements vs Hugo, plain Markdown"
    guard !sites.isEmpty else {
        print("hugo is not installed: no comparison (make bench-deps installs it; or see https://gohugo.io/installation/)")
        return [Goal(name: name, bound: .atLeast(2), unit: .times, figure: nil, note: "hugo is not installed: make bench-deps")]
    }
    let pages = output.pages
    let oursPerSecond = Double(pages) / ours.best.seconds
    print("hugo, \(decimal(Double(pages), places: 0)) pages each, in the same rounds, each into a fresh folder; fallback-site build: "
        + "\(decimal(oursPerSecond, places: 0)) pages/s (best wall time)")
    var goals: [Goal] = []
    for (site, hugo) in zip(sites, hugo) {
        let hugoPerSecond = Double(pages) / hugo.best.seconds
        // Pages per second over Hugo's is Hugo's time over ours: the speed-up.
        let speedUp = RunComparison(ours, hugo, speed: true, alternated: true)
        switch site.kind {
        case .prose(let textBytes):
            print("  (a) plain prose, \(decimal(Double(textBytes) / 1024, places: 1)) KB of text a page (our pages' text), "
                + "\(decimal(hugoPerSecond, places: 0)) pages/s: \(hugo.summary)")
            print("      fallback-site vs Hugo, pages per second: \(speedUp.summary) (goal ≥ 2×)")
            goals.append(Goal(
                name: name, bound: .atLeast(2), unit: .times, figure: speedUp.wall, cpuFigure: speedUp.cpu, userFigure: speedUp.user,
                anchor: "\(decimal(Double(pages), places: 0)) pages in \(secondsText(ours.best.seconds)) vs Hugo \(secondsText(hugo.best.seconds))"))
        case .tables(let htmlBytes):
            print("  (b) table pages, \(decimal(Double(htmlBytes) / 1024, places: 1)) KB of HTML a page (our pages' size), "
                + "\(decimal(hugoPerSecond, places: 0)) pages/s: \(hugo.summary)")
            print("      fallback-site vs Hugo, pages per second: \(speedUp.summary) (no goal)")
        }
    }
    return goals
}
