import RovenueFallback
import Testing

/// Messages name a struct of §4 by `SchemaShape.displayName`: the field that usually holds it.
@Suite("A schema shape's display name")
struct SchemaShapeDisplayNameTests {
    @Test func everyShapeHasItsOwnName() {
        let names = SchemaShape.allCases.map(\.displayName)
        #expect(Set(names).count == SchemaShape.allCases.count)
        #expect(!names.contains(""))
    }

    @Test(arguments: [(SchemaShape.entry, "entry"), (.remoteConfig, "remoteConfig"), (.nextRule, "next rule"), (.storeIds, "storeIds")])
    func namesReadAsTheField(_ shape: SchemaShape, _ name: String) {
        #expect(shape.displayName == name)
    }
}
