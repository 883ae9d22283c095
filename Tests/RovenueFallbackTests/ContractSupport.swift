import Foundation
import Testing
@testable import RovenueFallback

// Shared building blocks for the contract tests (fallback-format.md §2–§5).

/// `string` as a JSON string literal (only `"` and `\` need escaping in the tests' keys).
func quote(_ string: String) -> String {
    "\"" + string.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
}

/// A format-1 file whose `placements` member is exactly `placements` (JSON text).
func fileText(placements: String) -> String {
    #"{"formatVersion":1,"placements":"# + placements + "}"
}

/// A format-1 file with a single placement `"k"` whose entry is `entry` (JSON text).
func fileText(entry: String, key: String = "k") -> String {
    fileText(placements: "{" + quote(key) + ":" + entry + "}")
}

/// The rule of §2 that rejects `text`, nil when it loads.
func rejectionRule(_ text: String) -> FallbackRejection.Rule? {
    FallbackFile(text: text).rejection?.rule
}

/// The rule of §2 that rejects `bytes`, nil when it loads.
func rejectionRule(bytes: [UInt8]) -> FallbackRejection.Rule? {
    FallbackFile(bytes: bytes).rejection?.rule
}

/// `levels` nested containers (the outermost counts as one level): `[[[]]]` or `{"a":{"a":{}}}`.
func nested(_ levels: Int, objects: Bool = false) -> String {
    precondition(levels >= 1)
    if objects {
        return String(repeating: #"{"a":"#, count: levels - 1) + "{}" + String(repeating: "}", count: levels - 1)
    }
    return String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
}

/// An object's fields in order, to build valid and broken variants of one struct of §4.
struct JSONObject: Sendable, CustomStringConvertible {
    var fields: [(name: String, json: String)]

    init(_ fields: KeyValuePairs<String, String>) {
        self.fields = fields.map { (name: $0.key, json: $0.value) }
    }

    /// This object with `name` set to `json` (replaced in place, or appended).
    func with(_ name: String, _ json: String) -> JSONObject {
        var copy = self
        if let index = copy.fields.firstIndex(where: { $0.name == name }) {
            copy.fields[index].json = json
        } else {
            copy.fields.append((name, json))
        }
        return copy
    }

    /// This object without `name`.
    func without(_ name: String) -> JSONObject {
        var copy = self
        copy.fields.removeAll { $0.name == name }
        return copy
    }

    /// The object as JSON text.
    var json: String {
        "{" + fields.map { quote($0.name) + ":" + $0.json }.joined(separator: ",") + "}"
    }

    /// The array quirk: the field values in order.
    var array: String {
        "[" + fields.map(\.json).joined(separator: ",") + "]"
    }

    var description: String { json }
}

/// Valid instances of every struct of §4, written in the field order §4 lists.
enum Valid {
    static let placement = JSONObject(["identifier": #""k""#, "revision": "1"])
    static let storeIds = JSONObject(["apple": #""com.app.monthly""#, "google": #""monthly""#])
    static let package = JSONObject([
        "packageIdentifier": #""$rc_monthly""#, "identifier": #""monthly""#, "type": #""MONTHLY""#,
        "displayName": #""Monthly""#, "storeIds": storeIds.json,
    ])
    static let offering = JSONObject(["identifier": #""default""#, "isDefault": "true", "packages": "[" + package.json + "]"])
    static let remoteConfig = JSONObject(["locale": #""en""#, "data": #"{"title":"Go Pro"}"#])
    static let paywall = JSONObject([
        "id": #""pw_1""#, "identifier": #""main""#, "name": #""Main""#, "configFormatVersion": "1",
        "remoteConfig": remoteConfig.json, "builderConfig": "null", "offering": offering.json,
    ])
    static let clause = JSONObject(["question_id": #""goal""#, "op": #""eq""#, "value": #""lose""#])
    static let condition = JSONObject(["op": #""all""#, "clauses": "[" + clause.json + "]"])
    static let nextRule = JSONObject(["id": #""r1""#, "condition": condition.json, "goto": #""end""#])
    static let option = JSONObject(["label": #""Lose weight""#, "value": #""lose""#])
    static let page = JSONObject(["id": #""p1""#, "type": #""welcome""#])
    static let funnel = JSONObject(["id": #""fnl_1""#, "slug": #""quiz""#, "pages": "[" + page.json + "]"])
    static let variant = JSONObject(["variantId": #""a""#, "weight": "0.5", "paywall": paywall.json])
    static let experiment = JSONObject(["id": #""exp_1""#, "key": #""exp_key""#, "variants": "[" + variant.json + "]"])
}
