@testable import FallbackReports
import RovenueFallback
import Testing

/// `PrettyJSONWriter.key(_:)` spells a name written in the source with its separator, line and
/// indentation in one buffer (issue 10: seven keys for each of thousands of findings); a name with
/// a byte to escape still goes through `JSONValue.appendQuoted`. Either way the text is the one
/// `jsonText([.prettyPrinted])` writes for the same members.
@Suite("Written keys")
struct WrittenKeyTests {
    /// An object of `depth` nested objects, each with the same members: names plain, empty and to
    /// be escaped, first and later in their object.
    static func written(depth: Int) -> String {
        var writer = PrettyJSONWriter()
        func members(_ level: Int) {
            writer.beginObject()
            writer.pair("", "empty name")
            writer.pair("quote \" and backslash \\", 1)
            writer.key("tab\tand\u{1}control")
            writer.null()
            writer.pair("plain", "value")
            if level < depth {
                writer.key("nested")
                members(level + 1)
            }
            writer.key("é 日本")
            writer.beginArray()
            writer.end()
            writer.end()
        }
        members(0)
        return writer.finishText()
    }

    static func value(depth: Int) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("", "empty name"), .init("quote \" and backslash \\", 1), .init("tab\tand\u{1}control", nil),
            .init("plain", "value"),
        ]
        if depth > 0 { members.append(.init("nested", value(depth: depth - 1))) }
        members.append(.init("é 日本", []))
        return .object(members)
    }

    @Test(arguments: [0, 1, 5, 40])
    func keysAreWrittenAsJSONTextWritesThem(depth: Int) {
        #expect(Self.written(depth: depth) == Self.value(depth: depth).jsonText([.prettyPrinted]) + "\n")
    }

    /// The same inside elements written in parallel batches, where a batch's writer stands for the
    /// open containers it is written into.
    @Test func keysInElementsAreWrittenAsJSONTextWritesThem() {
        let items = (0..<300).map { "item \($0)" }
        var writer = PrettyJSONWriter()
        writer.beginObject()
        writer.key("items")
        writer.beginArray()
        writer.elements(items, estimatedBytes: { $0.utf8.count }) { writer, item in
            writer.beginObject()
            writer.pair("name \"quoted\"", item)
            writer.pair("", item)
            writer.end()
        }
        writer.end()
        writer.end()
        let elements = items.map { JSONValue.object([.init("name \"quoted\"", .string($0)), .init("", .string($0))]) }
        let expected = JSONValue.object([.init("items", .array(elements))]).jsonText([.prettyPrinted]) + "\n"
        #expect(writer.finishText() == expected)
    }
}
