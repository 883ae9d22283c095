import Foundation
import FallbackMustache
import Testing

/// Every case of the official spec's required files, each run as its own test case.
struct SpecTests {
    @Test(arguments: try SpecCase.all(in: "comments"))
    func comments(_ spec: SpecCase) throws {
        try spec.check()
    }

    @Test(arguments: try SpecCase.all(in: "delimiters"))
    func delimiters(_ spec: SpecCase) throws {
        try spec.check()
    }

    @Test(arguments: try SpecCase.all(in: "interpolation"))
    func interpolation(_ spec: SpecCase) throws {
        try spec.check()
    }

    @Test(arguments: try SpecCase.all(in: "inverted"))
    func inverted(_ spec: SpecCase) throws {
        try spec.check()
    }

    @Test(arguments: try SpecCase.all(in: "partials"))
    func partials(_ spec: SpecCase) throws {
        try spec.check()
    }

    @Test(arguments: try SpecCase.all(in: "sections"))
    func sections(_ spec: SpecCase) throws {
        try spec.check()
    }
}

struct SpecCase: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let data: JSONContext
    let template: String
    let expected: String
    let partials: [String: String]?
    private(set) var file = ""

    var testDescription: String { "\(file): \(name)" }

    private enum CodingKeys: String, CodingKey {
        case name, data, template, expected, partials
    }

    private struct SpecFile: Decodable {
        let tests: [SpecCase]
    }

    static func all(in file: String) throws -> [SpecCase] {
        guard let url = Bundle.module.url(forResource: file, withExtension: "json", subdirectory: "Spec") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Spec/\(file).json"])
        }
        let cases = try JSONDecoder().decode(SpecFile.self, from: Data(contentsOf: url)).tests
        return cases.map { spec in
            var spec = spec
            spec.file = file
            return spec
        }
    }

    func check() throws {
        var partialTemplates: [String: MustacheTemplate] = [:]
        for (name, source) in partials ?? [:] {
            partialTemplates[name] = try MustacheTemplate(parsing: source, name: name)
        }
        let template = try MustacheTemplate(parsing: template, name: name)
        #expect(try template.render(data.value, partials: partialTemplates) == expected)
    }
}

/// A spec file's JSON data as a context value: integers stay integers, decimals become doubles.
struct JSONContext: Decodable, Sendable {
    let value: MustacheValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let int = try? container.decode(Int.self) {
            value = .int(int)
        } else if let double = try? container.decode(Double.self) {
            value = .double(double)
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let list = try? container.decode([JSONContext].self) {
            value = .list(list.map(\.value))
        } else {
            value = .dictionary(try container.decode([String: JSONContext].self).mapValues(\.value))
        }
    }
}
