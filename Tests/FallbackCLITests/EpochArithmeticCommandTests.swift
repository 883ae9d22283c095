import FallbackCLI
import Foundation
import Testing

/// `generatedAt` and `SOURCE_DATE_EPOCH` at and past the 64-bit extremes: every command reports
/// instead of trapping.
@Suite("generatedAt and SOURCE_DATE_EPOCH at the extremes")
struct EpochArithmeticCommandTests {
    /// Extreme `generatedAt` values with their dates (`java.time.Instant.ofEpochMilli`, seconds).
    static let extremes: [(token: String, date: String?)] = [
        ("-9223372036854775808", "-292275055-05-16T16:47:04Z"),
        ("-9223372036854774810", "-292275055-05-16T16:47:05Z"),
        ("-9223372036854774809", "-292275055-05-16T16:47:05Z"),
        ("-1", "1969-12-31T23:59:59Z"),
        ("0", "1970-01-01T00:00:00Z"),
        ("9223372036854775807", "292278994-08-17T07:12:55Z"),
        ("1e300", nil), ("-1e300", nil), ("-0", nil), ("9223372036854775808", nil), (#""1764400000000""#, nil), ("null", nil),
    ]

    static func snapshot(generatedAt: String) -> String {
        #"{"formatVersion":1,"generatedAt":\#(generatedAt),"projectId":"p","placements":{"a":{"placement":{"identifier":"a","revision":1},"#
            + #""paywall":{"id":"pw","identifier":"pw","name":"P","configFormatVersion":1,"remoteConfig":null,"offering":null}}}}"#
    }

    @Test(arguments: extremes)
    func diffReportsAnyGeneratedAt(_ extreme: (token: String, date: String?)) throws {
        let files = ["old.json": Self.snapshot(generatedAt: "1764400000000"), "new.json": Self.snapshot(generatedAt: extreme.token)]
        for (old, new) in [("old.json", "new.json"), ("new.json", "old.json")] {
            let result = run(["diff", old, new, "--fail-on", "never"], files: files)
            #expect(result.status == 0, "\(result.error)")
            if let date = extreme.date {
                #expect(result.output.contains("(generated \(date))"))
            }
            let json = run(["diff", old, new, "--format", "json", "--fail-on", "never"], files: files)
            #expect(json.status == 0)
            #expect(try jsonObject(json.output).isEmpty == false)
        }
    }

    @Test(arguments: extremes)
    func historyAndASeriesBuildReportAnyGeneratedAt(_ extreme: (token: String, date: String?)) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshots = folder + "/snapshots"
        try FileManager.default.createDirectory(atPath: snapshots, withIntermediateDirectories: true)
        for (name, token) in [("1.json", extreme.token), ("2.json", extreme.token), ("3.json", "1764400000000")] {
            try Data(Self.snapshot(generatedAt: token).utf8).write(to: URL(fileURLWithPath: "\(snapshots)/\(name)"))
        }
        let history = run(["history", snapshots, "--fail-on", "never"])
        #expect(history.status == 0, "\(history.error)")
        if let date = extreme.date {
            #expect(history.output.contains("1.json (\(date))"))
        }
        for epoch in ["1790000000", "9223372036854775", "-9223372036854775"] {
            let out = "\(folder)/site-\(epoch)"
            let build = run(["build", snapshots, "--out", out, "--quiet"], variables: ["SOURCE_DATE_EPOCH": epoch])
            #expect(build.status == 0, "\(build.error)")
            let page = try #require(text(at: out + "/history.html"))
            if let date = extreme.date {
                #expect(page.contains(#"<time datetime="\#(date)">"#))
            }
        }
    }

    /// The newest snapshot's overview states its age at SOURCE_DATE_EPOCH, even when the two lie
    /// 584 million years apart.
    @Test(arguments: [("9223372036854775", "-9223372036854775808"), ("-9223372036854775", "9223372036854775807")])
    func theAgeSpansTheWholeRange(epoch: String, generatedAt: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(Self.snapshot(generatedAt: generatedAt).utf8).write(to: URL(fileURLWithPath: folder + "/s.json"))
        let build = run(["build", folder + "/s.json", "--out", folder + "/site", "--quiet"], variables: ["SOURCE_DATE_EPOCH": epoch])
        #expect(build.status == 0, "\(build.error)")
        let page = try #require(text(at: folder + "/site/index.html"))
        #expect(page.contains(epoch.hasPrefix("-") ? "years in the future" : "years old"))
    }

    static let epochs: [(text: String, seconds: Int64?, valid: Bool)] = [
        ("1790000000", 1_790_000_000, true), ("0", 0, true), ("-1", -1, true),
        ("9223372036854775", 9_223_372_036_854_775, true), ("-9223372036854775", -9_223_372_036_854_775, true),
        ("", nil, true),
        ("9223372036854775807", nil, false), ("-9223372036854775808", nil, false), ("9223372036854776", nil, false),
        ("99999999999999999999999", nil, false), ("garbage", nil, false), ("17.5", nil, false), ("+5", nil, false),
        (" 5", nil, false), ("5\n", nil, false), ("-", nil, false), ("0x10", nil, false),
    ]

    @Test(arguments: epochs)
    func sourceDateEpochIsWholeSecondsWithinRange(_ epoch: (text: String, seconds: Int64?, valid: Bool)) throws {
        let variables = ["SOURCE_DATE_EPOCH": epoch.text]
        if epoch.valid {
            #expect(try SourceDateEpoch(variables: variables)?.seconds == epoch.seconds)
        } else {
            #expect(throws: SourceDateEpoch.InvalidValue.self) { try SourceDateEpoch(variables: variables) }
        }
        #expect(try SourceDateEpoch(variables: [:]) == nil)
    }

    @Test(arguments: epochs.filter { !$0.valid })
    func buildAndContextRefuseAnInvalidSourceDateEpoch(_ epoch: (text: String, seconds: Int64?, valid: Bool)) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let snapshot = folder + "/s.json"
        try Data(Self.snapshot(generatedAt: "1764400000000").utf8).write(to: URL(fileURLWithPath: snapshot))
        let variables = ["SOURCE_DATE_EPOCH": epoch.text]
        let build = run(["build", snapshot, "--out", folder + "/site"], variables: variables)
        #expect(build.status == 2)
        #expect(build.error.hasPrefix("error: SOURCE_DATE_EPOCH must be whole seconds"))
        #expect(build.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/site"))
        let context = run(["context", snapshot, "--page", "overview"], variables: variables)
        #expect(context.status == 2)
        #expect(context.error.contains("SOURCE_DATE_EPOCH"))
    }
}
