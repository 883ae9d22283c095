@testable import RovenueFallback
import Testing

/// Containers a syntax error leaves open keep what was parsed in them: each one's count is its
/// elements or members so far, read against the text itself, at every depth.
@Suite struct OpenContainerTests {
    @Test func countsOfContainersLeftOpen() throws {
        // Outer array: 1 and the inner array. Inner array: 2, 3 and the object. Object: "a" and
        // "b". Innermost array: 4 and 5.
        let document = JSONDocument(bytes: Array(#"[1,[2,3,{"a":true,"b":[4,5"#.utf8))
        #expect(document.syntaxError?.message == "EOF while parsing a list")
        let open = document.nodes.indices.filter { document.nodes[$0].flags & JSONDocument.incomplete != 0 }
        #expect(open.map { document.nodes[$0].kind } == [.array, .array, .object, .array])
        #expect(open.map { Int(document.nodes[$0].count) } == [2, 3, 2, 2])
        #expect(open.allSatisfy { Int(document.nodes[$0].next) == document.nodes.count })
    }

    /// The same after closed containers at each depth: what closed is counted once in its parent.
    @Test func countsAfterClosedContainers() throws {
        let document = JSONDocument(bytes: Array(#"{"x":[[],{}],"y":{"z":[1,[2]],"w":"#.utf8))
        let open = document.nodes.indices.filter { document.nodes[$0].flags & JSONDocument.incomplete != 0 }
        #expect(open.map { document.nodes[$0].kind } == [.object, .object])
        #expect(open.map { Int(document.nodes[$0].count) } == [2, 2])
        let closedArray = try #require(document.nodes.indices.first { document.nodes[$0].kind == .array })
        #expect(document.nodes[closedArray].count == 2)
    }
}
