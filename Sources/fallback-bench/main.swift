// fallback-bench: throughput of the validator beside Foundation's decoders, on the same bytes.
// Run with `swift run -c release fallback-bench [--placements N] [--runs R]`.
import FallbackAudit
import FallbackSample
import Foundation
import RovenueFallback

/// The shape a team would reach for with `JSONDecoder`: enough to list placements and what they serve.
struct MinimalFile: Decodable {
    struct Entry: Decodable {
        struct Placement: Decodable {
            let identifier: String
            let revision: Int
        }
        struct Funnel: Decodable {
            struct Page: Decodable {
                let id: String
                let type: String
            }
            let id: String
            let slug: String
            let pages: [Page]
        }
        struct Paywall: Decodable {
            let id: String
            let identifier: String
        }
        struct Experiment: Decodable {
            struct Variant: Decodable {
                let variantId: String
                let weight: Double
                let funnel: Funnel?
                let paywall: Paywall?
            }
            let id: String
            let key: String
            let variants: [Variant]
        }
        let placement: Placement?
        let funnel: Funnel?
        let paywall: Paywall?
        let experiment: Experiment?
    }
    /// Skips an entry that fails to decode, as the SDK does, instead of failing the whole file.
    struct Skippable: Decodable {
        let entry: Entry?
        init(from decoder: any Decoder) throws {
            entry = try? Entry(from: decoder)
        }
    }
    let formatVersion: Int
    let placements: [String: Skippable]
}

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: "--\(name)"), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]) else {
        return value
    }
    return parsed
}

/// The best of `runs` timings, in seconds, and the last result (kept so the work is not optimised away).
func measure<T>(runs: Int, _ body: () throws -> T) rethrows -> (seconds: Double, result: T) {
    var best = Double.infinity
    var last: T?
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        last = try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return (best, last!)
}

let placementCount = option("placements", default: 10_000)
let runs = option("runs", default: 5)

print("fallback-bench: generating a sample of \(placementCount) placements (seed 1)…")
let bytes = Array(SampleExport(placementCount: placementCount, seed: 1).jsonText().utf8)
let data = Data(bytes)
let megabytes = Double(bytes.count) / 1_000_000
print(String(format: "sample: %.1f MB, best of %d runs each\n", megabytes, runs))

let parse = measure(runs: runs) { JSONDocument(bytes: bytes).syntaxError == nil }
let load = measure(runs: runs) { FallbackFile(bytes: bytes).loadedCount }
let validate = measure(runs: runs) { () -> Int in
    let file = FallbackFile(bytes: bytes)
    return Audit().findings(in: file).count
}
let decoder = try measure(runs: runs) {
    try JSONDecoder().decode(MinimalFile.self, from: data).placements.values.count { $0.entry != nil }
}
let serialization = try measure(runs: runs) { try (JSONSerialization.jsonObject(with: data) as? [String: Any])?.count ?? 0 }

precondition(load.result == decoder.result, "the loader and JSONDecoder disagree on the number of placements")

func row(_ name: String, _ seconds: Double, _ note: String) {
    let throughput = megabytes / seconds
    let name = name.padding(toLength: 46, withPad: " ", startingAt: 0)
    print(String(format: "%@ %8.1f ms %8.1f MB/s  %@", name, seconds * 1000, throughput, note))
}

row("JSONDocument (strict parse, positions)", parse.seconds, "")
row("FallbackFile (parse + §2 + typed §4 decode)", load.seconds, "\(load.result) entries loaded")
row("FallbackFile + audit (full validation)", validate.seconds, "\(validate.result) findings")
row("JSONDecoder (minimal typed shape)", decoder.seconds, "\(decoder.result) placements")
row("JSONSerialization (untyped)", serialization.seconds, "")
print("")
print(String(format: "full validation vs JSONDecoder:      %.2f× its throughput (goal ≥ 3×)", decoder.seconds / validate.seconds))
print(String(format: "full validation vs JSONSerialization: %.2f× its throughput", serialization.seconds / validate.seconds))
