import Foundation
import Testing

/// The YAML subset the action and pre-commit tests read (`WorkflowYAML`).
@Suite("The YAML subset of action.yml")
struct WorkflowYAMLTests {
    @Test func readsMappingsSequencesQuotesAndLiteralBlocks() throws {
        let text = """
            # a comment
            name: fallback-site   # trailing comment
            quoted: 'it''s: "x"'
            double: "a \\"b\\" \\\\ c"
            empty:
            list:
              - plain
              - id: one
                run: |
                  echo "$A" # kept

                  exit 0

                with:
                  path: x
              -
                nested: value
            after: ${{ inputs.x }}

            """
        let value = try WorkflowYAML.parse(text)
        let expected = WorkflowYAML.mapping([
            .init(key: "name", value: .scalar("fallback-site")),
            .init(key: "quoted", value: .scalar("it's: \"x\"")),
            .init(key: "double", value: .scalar("a \"b\" \\ c")),
            .init(key: "empty", value: .scalar("")),
            .init(
                key: "list",
                value: .sequence([
                    .scalar("plain"),
                    .mapping([
                        .init(key: "id", value: .scalar("one")),
                        .init(key: "run", value: .scalar("echo \"$A\" # kept\n\nexit 0\n")),
                        .init(key: "with", value: .mapping([.init(key: "path", value: .scalar("x"))])),
                    ]),
                    .mapping([.init(key: "nested", value: .scalar("value"))]),
                ])),
            .init(key: "after", value: .scalar("${{ inputs.x }}")),
        ])
        #expect(value == expected)
    }

    @Test(arguments: [
        ("a: [1, 2]", 1), ("a: {b: c}", 1), ("a: &x y", 1), ("a: *x", 1), ("a: !tag y", 1), ("a: >\n  folded", 1),
        ("a: |-\n  x", 1), ("---\na: b", 1), ("a: b\n\tc: d", 2), ("a: b: c", 1), ("a: b\na: c", 2), ("a: 'open", 1),
        ("a: \"\\n\"", 1), ("a:\n  b: c\n d: e", 3), ("- a\nb: c", 2), ("\"key\": v", 1), ("a: b\r\n", 1),
        ("a: '**/x'tail", 1), ("  a: b", 1),
    ])
    func refusesWhatIsOutsideTheSubset(text: String, line: Int) {
        #expect {
            try WorkflowYAML.parse(text)
        } throws: { error in
            (error as? WorkflowYAML.Error)?.line == line
        }
    }

    /// Both files the tests read stay inside the subset.
    @Test(arguments: ["action.yml", ".pre-commit-hooks.yaml"])
    func repositoryFilesParse(file: String) throws {
        let text = try String(contentsOfFile: repositoryPath(file), encoding: .utf8)
        _ = try WorkflowYAML.parse(text)
    }
}
