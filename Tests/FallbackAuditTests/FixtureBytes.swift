import Foundation
import Testing

/// The bytes of a file in this target's `Fixtures/`.
func fixtureBytes(_ name: String) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    return [UInt8](try Data(contentsOf: url))
}
