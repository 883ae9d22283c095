import Foundation
import FallbackAudit
import RovenueFallback

/// 2025-11-29T07:06:40Z: the tests' "now", and the `generatedAt` of every snapshot built here.
public let testNow = Date(timeIntervalSince1970: 1_764_400_000)

/// The findings of a snapshot text, audited at `testNow`.
public func findings(_ text: String, configuration: AuditConfiguration = AuditConfiguration()) -> [Finding] {
    FallbackFile(text: text).audit(now: testNow, configuration: configuration)
}

/// Builders for compact snapshots; each builds valid JSON that draws no finding unless told to.
public enum Snap {
    public static func file(_ placements: String, generatedAt: String = "1764400000000", projectId: String = #""proj_1""#) -> String {
        #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":\#(projectId),"placements":{\#(placements)}}"#
    }

    public static func placement(_ identifier: String, revision: String = "1") -> String {
        #"{"identifier":"\#(identifier)","revision":\#(revision)}"#
    }

    public static func paywall(_ id: String = "pw") -> String {
        #"{"id":"\#(id)","identifier":"\#(id)","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}"#
    }

    /// `"key":{"placement":…,<body>}`.
    public static func entry(_ key: String, _ body: String) -> String {
        #""\#(key)":{"placement":\#(placement(key)),\#(body)}"#
    }

    /// A file with one entry `a` serving a paywall.
    public static let paywallFile = file(entry("a", #""paywall":\#(paywall())"#))

    public static func variant(_ id: String, _ weight: String) -> String {
        #"{"variantId":"\#(id)","weight":\#(weight),"paywall":\#(paywall(id))}"#
    }

    /// A file with one entry `a` serving an experiment over the variants.
    public static func experimentFile(_ variants: String...) -> String {
        file(entry("a", #""experiment":{"id":"exp","key":"k","variants":[\#(variants.joined(separator: ","))]}"#))
    }

    public static func page(_ id: String, _ type: String = "statement", _ extra: String = "") -> String {
        #"{"id":"\#(id)","type":"\#(type)"\#(extra.isEmpty ? "" : "," + extra)}"#
    }

    public static func rule(_ id: String, goto: String, clauses: String = "") -> String {
        #"{"id":"\#(id)","condition":{"op":"all","clauses":[\#(clauses)]},"goto":"\#(goto)"}"#
    }

    public static func clause(_ question: String, _ op: String, _ value: String? = nil) -> String {
        #"{"question_id":"\#(question)","op":"\#(op)"\#(value.map { #","value":\#($0)"# } ?? "")}"#
    }

    public static let options = #""options":[{"label":"A","value":"a"},{"label":"B","value":"b"}]"#

    /// A file with one entry `onb` serving a funnel; `extra` adds funnel fields before `pages`.
    public static func funnelFile(extra: String = #""paywalls":{"pw":\#(paywall())},"#, _ pages: [String]) -> String {
        file(entry("onb", #""funnel":{"id":"f","slug":"f",\#(extra)"pages":[\#(pages.joined(separator: ","))]}"#))
    }

    /// Welcome, a question, a paywall page: clean.
    public static func funnelFile(
        welcome: String = "", question: String = "", paywallPage: String = "",
        extra: String = #""paywalls":{"pw":\#(paywall())},"#
    ) -> String {
        funnelFile(extra: extra, [
            page("p1", "welcome", welcome),
            page("p2", "single_choice", #""question_id":"goal",\#(options)\#(question.isEmpty ? "" : "," + question)"#),
            page("p3", "paywall", paywallPage.isEmpty ? #""paywallId":"pw""# : paywallPage),
        ])
    }
}

/// Where a finding is expected: at the first occurrence of some text, or just after it.
public enum Marker: Sendable {
    case at(String)
    case after(String)

    /// The line and column in `text`.
    public func position(in text: String) -> (line: Int, column: Int)? {
        let marker: String
        let after: Bool
        switch self {
        case .at(let string): (marker, after) = (string, false)
        case .after(let string): (marker, after) = (string, true)
        }
        guard let range = text.range(of: marker) else { return nil }
        let prefix = text[..<(after ? range.upperBound : range.lowerBound)]
        let line = prefix.count { $0 == "\n" } + 1
        let lineStart = prefix.lastIndex(of: "\n").map { prefix.index(after: $0) } ?? prefix.startIndex
        return (line, prefix[lineStart...].unicodeScalars.count + 1)
    }
}
