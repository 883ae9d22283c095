import Foundation
import FallbackMustache
import Testing

/// Templates and contexts that would expand exponentially or nest without end stop with an error
/// that names the template, line and column, in this process (no crash, no hang).
@Suite("Rendering budgets and nesting limits")
struct BudgetTests {
    /// The issue's case: each expansion of `boom` includes it twice, 2^64 expansions before the
    /// depth limit; the expansion budget stops it at the first expansion past the limit.
    @Test func aPartialThatIncludesItselfTwiceStopsWithAnError() throws {
        let boom = try MustacheTemplate(parsing: "x{{> boom}}{{> boom}}", name: "boom")
        let page = try MustacheTemplate(parsing: "page\n  {{> boom}}\n", name: "page.md")
        let error = try #require(throws: MustacheError.self) { try page.render([:], partials: ["boom": boom]) }
        #expect(error.templateName == "boom")
        #expect(error.line == 1)
        #expect(error.column == 2 || error.column == 12)
        #expect(
            error.description.contains(#"partial "boom" would be expanded more than \#(MustacheTemplate.maximumPartialExpansions) times"#),
            "\(error)")
        #expect(!error.description.contains("\n"))
    }

    /// Fan-out without recursion: 24 partials, each including the next twice (2^24 expansions).
    @Test func aChainOfDoublingPartialsStopsWithAnError() throws {
        var partials: [String: MustacheTemplate] = [:]
        for level in 0..<24 {
            partials["p\(level)"] = try MustacheTemplate(parsing: "{{> p\(level + 1)}}{{> p\(level + 1)}}", name: "p\(level).md")
        }
        partials["p24"] = try MustacheTemplate(parsing: "x", name: "p24.md")
        let error = try #require(throws: MustacheError.self) {
            try MustacheTemplate(parsing: "{{> p0}}", name: "page").render([:], partials: partials)
        }
        #expect(error.description.contains("would be expanded more than"))
    }

    /// The budget counts expansions, not partials: a partial per item of a long list is fine.
    @Test func aPartialPerItemOfALongListRenders() throws {
        let items = MustacheValue.list((0..<100_000).map { .int($0) })
        let rendered = try MustacheTemplate(parsing: "{{#items}}{{> item}}{{/items}}").render(
            ["items": items], partials: ["item": try MustacheTemplate(parsing: "{{.}},")])
        #expect(rendered.hasSuffix("99998,99999,"))
    }

    @Test func sectionsNestedBeyondTheLimitAreAParseError() throws {
        let depth = 5_000
        let source = "line one\n" + String(repeating: "{{#a}}", count: depth) + "x" + String(repeating: "{{/a}}", count: depth)
        let error = try #require(throws: MustacheError.self) { try MustacheTemplate(parsing: source, name: "deep.md") }
        let limit = MustacheTemplate.maximumSectionDepth
        #expect(error.description == "deep.md:2:\(limit * 6 + 1): sections nested deeper than \(limit)")
    }

    /// Inverted sections count too, and the limit itself parses and renders.
    @Test func sectionsNestedToTheLimitRender() throws {
        let limit = MustacheTemplate.maximumSectionDepth
        let source = String(repeating: "{{#a}}{{^b}}", count: limit / 2) + "x" + String(repeating: "{{/b}}{{/a}}", count: limit / 2)
        #expect(try MustacheTemplate(parsing: source).render(["a": true]) == "x")
        let tooDeep = "{{^z}}" + source + "{{/z}}"
        #expect(throws: MustacheError.self) { try MustacheTemplate(parsing: tooDeep) }
    }

    /// Sections inside partials inside sections, 64 partials deep (the partial depth limit) with 16
    /// sections each, and a template with sections nested to the limit, parsed, rendered and freed
    /// in a 512 KiB stack, the size of a secondary thread on macOS: rendering does not recurse, so
    /// a stack overflow here (which would end the test process) cannot happen.
    @Test func deepNestingRendersInASmallStack() async throws {
        let depth = MustacheTemplate.maximumPartialDepth
        var partials: [String: MustacheTemplate] = [:]
        for level in 0..<(depth + 1) {
            let body = String(repeating: "{{#a}}", count: 16) + "\(level),{{> p\(level + 1)}}" + String(repeating: "{{/a}}", count: 16)
            partials["p\(level)"] = try MustacheTemplate(parsing: body, name: "p\(level)")
        }
        let templates = partials
        let limit = MustacheTemplate.maximumSectionDepth
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            let thread = Thread {
                var texts: [String] = []
                do {
                    texts.append(try MustacheTemplate(parsing: "{{> p0}}end").render(["a": [true]], partials: templates))
                    let deepest = String(repeating: "{{#a}}", count: limit) + "x" + String(repeating: "{{/a}}", count: limit)
                    texts.append(try MustacheTemplate(parsing: deepest).render(["a": ["b": 1]]))
                } catch {
                    texts.append("\(error)")
                }
                continuation.resume(returning: texts)
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(outcome == [(0..<depth).map { "\($0)," }.joined() + "end", "x"])
    }
}

/// Sections nested over lists repeat their bodies for every combination of items: with no partial
/// at all, 8 levels over a 10-item list is 10^8 passes. The render budget stops it, naming the
/// innermost section, whether the body writes anything or not.
@Suite("Rendering budget on work and output")
struct RenderWorkBudgetTests {
    static let list = MustacheValue.list((0..<10).map { .int($0) })

    @Test(arguments: ["", "x"])
    func sectionsNestedOverListsStopWithAnError(body: String) throws {
        let depth = 8
        let source = "title\n" + (0..<depth).map { "{{#l\($0)}}" }.joined() + body + (0..<depth).reversed().map { "{{/l\($0)}}" }.joined()
        var context: [String: MustacheValue] = [:]
        for level in 0..<depth { context["l\(level)"] = Self.list }
        let template = try MustacheTemplate(parsing: source, name: "grid.md")
        let error = try #require(throws: MustacheError.self) { try template.render(.dictionary(context)) }
        #expect(error.templateName == "grid.md")
        #expect(error.line == 2)
        #expect(error.description.contains("rendering would go past"), "\(error)")
        #expect(error.description.contains(#"in section "l"#), "\(error)")
        #expect(!error.description.contains("\n"))
    }

    /// Output alone: a few nested lists whose body is a long value pass the output limit first.
    @Test func outputPastTheLimitStopsWithAnError() throws {
        let big = String(repeating: "y", count: 1 << 20)
        let items = MustacheValue.list((0..<200).map { .int($0) })
        let template = try MustacheTemplate(parsing: "{{#a}}{{#a}}{{{big}}}{{/a}}{{/a}}", name: "wide.md")
        let error = try #require(throws: MustacheError.self) { try template.render(["a": items, "big": .string(big)]) }
        #expect(error.description.contains("\(MustacheBudget.standard.outputBytes) bytes of output"), "\(error)")
        #expect(error.description.hasPrefix("wide.md:1:7: "), "\(error)")
    }

    /// A large but legitimate render (a 100,000-row table) stays well inside both budgets.
    @Test func aLargeTableRenders() throws {
        let rows = MustacheValue.list((0..<100_000).map { .dictionary(["key": .string("placement_\($0)"), "n": .int($0)]) })
        let rendered = try MustacheTemplate(parsing: "{{#rows}}| {{key}} | {{n}} |\n{{/rows}}").render(["rows": rows])
        #expect(rendered.hasSuffix("| placement_99999 | 99999 |\n"))
    }
}

/// A 10-minute fuzz run timed out on an experiment page whose breadcrumb included a partial that
/// includes itself twice around a long value: under the expansion budget, but each expansion
/// writes a kilobyte, so the output grew to the old 128 MiB limit in over 10 seconds. The
/// standard budget (16 MiB) stops it within about a second; a site's pages get a budget that
/// grows with their snapshot instead (`MustacheBudget.scaled(toInputBytes:)`).
@Suite("Render budgets that grow with the input")
struct ScaledBudgetTests {
    @Test func aSelfIncludingPartialWithOutputStopsAtTheStandardBudget() throws {
        let boom = try MustacheTemplate(parsing: "<p>{{big}}{{> boom}}{{> boom}}</p>", name: "boom")
        let page = try MustacheTemplate(parsing: "<nav>{{placement}}{{> boom}}</nav>", name: "experiment.md")
        let error = try #require(throws: MustacheError.self) {
            try page.render(["placement": "onboarding", "big": .string(String(repeating: "é", count: 512))], partials: ["boom": boom])
        }
        #expect(error.description.contains("\(MustacheBudget.standard.outputBytes) bytes of output"), "\(error)")
    }

    @Test(arguments: [0, 1_000, 1_000_000, 10_000_000, 100_000_000, Int.max / 2, Int.max])
    func aScaledBudgetNeverFallsBelowTheStandardOneAndGrowsLinearly(inputBytes: Int) {
        let budget = MustacheBudget.scaled(toInputBytes: inputBytes)
        #expect(budget.steps >= MustacheBudget.standard.steps)
        #expect(budget.outputBytes >= MustacheBudget.standard.outputBytes)
        if inputBytes <= 100_000_000 {
            #expect(budget.steps == max(MustacheBudget.standard.steps, 2 * inputBytes))
            #expect(budget.outputBytes == max(MustacheBudget.standard.outputBytes, 8 * inputBytes))
        }
    }

    @Test(arguments: [
        (MustacheBudget(steps: 10, outputBytes: 100), MustacheBudget(steps: 2, outputBytes: 7), 3, MustacheBudget(steps: 16, outputBytes: 121)),
        (MustacheBudget(steps: 10, outputBytes: 100), MustacheBudget(steps: 2, outputBytes: 7), 0, MustacheBudget(steps: 10, outputBytes: 100)),
        (MustacheBudget(steps: 10, outputBytes: 100), MustacheBudget(steps: 2, outputBytes: 7), -5, MustacheBudget(steps: 10, outputBytes: 100)),
        (MustacheBudget(steps: 10, outputBytes: 100), MustacheBudget(steps: .max / 2, outputBytes: 1), 3, MustacheBudget(steps: .max, outputBytes: 103)),
        (MustacheBudget(steps: .max - 1, outputBytes: 100), MustacheBudget(steps: 1, outputBytes: 1), 2, MustacheBudget(steps: .max, outputBytes: 102)),
        (MustacheBudget(steps: 10, outputBytes: 100), MustacheBudget(steps: 1, outputBytes: 1 << 20), .max, MustacheBudget(steps: .max, outputBytes: .max)),
    ])
    func anAllowancePerItemAddsUpAndSaturates(base: MustacheBudget, allowance: MustacheBudget, count: Int, expected: MustacheBudget) {
        #expect(base.adding(allowance, times: count) == expected)
    }

    /// A render the standard budget refuses goes through with a budget scaled to a large input.
    @Test func aLargeInputGetsALargerBudget() throws {
        let rows = MustacheValue.list((0..<3_000_000).map { _ in .null })
        let template = try MustacheTemplate(parsing: "{{#rows}}{{^.}}-{{/.}}{{/rows}}", name: "rows.md")
        #expect(throws: MustacheError.self) { try template.render(["rows": rows]) }
        let rendered = try template.render(["rows": rows], budget: .scaled(toInputBytes: 10_000_000))
        #expect(rendered.utf8.count == 3_000_000)
    }
}

/// A name that misses is looked up in every open context, and sections nested inside partials
/// nested 64 deep open about 16,000: a 3 KB template over a 100 KB context rendered for over five
/// minutes within its 2,000,000 steps. A lookup now costs a step more for each further 16 contexts
/// it looks in (`MustacheBudget.contextsPerStep`), so work stays within a constant of the budget.
@Suite("Rendering budget on lookups through nested sections")
struct LookupBudgetTests {
    /// `depth` sections over `a`, then `{{name}}`; each section pushes `a`'s value.
    static func nested(_ depth: Int, _ name: String) throws -> MustacheTemplate {
        try MustacheTemplate(
            parsing: String(repeating: "{{#a}}", count: depth) + "{{\(name)}}" + String(repeating: "{{/a}}", count: depth), name: "deep.md")
    }

    /// `a` nested `depth` times with `x` at the bottom: every lookup finds its name in the
    /// innermost context.
    static func chain(_ depth: Int) -> MustacheValue {
        var value: MustacheValue = ["x": "found"]
        for _ in 0..<depth { value = .dictionary(["a": value, "x": "found"]) }
        return value
    }

    /// The fewest steps `template` renders in over `context` (both renderers agree at every budget tried).
    static func stepsNeeded(_ template: MustacheTemplate, _ context: MustacheValue) throws -> Int {
        var (low, high) = (0, 1 << 20)
        while low + 1 < high {
            let middle = (low + high) / 2
            let budget = MustacheBudget(steps: middle, outputBytes: 1 << 20)
            FlatRendererTests.expectSame(template, context, budget: budget)
            if (try? template.renderUTF8(context, budget: budget)) == nil { low = middle } else { high = middle }
        }
        return high
    }

    /// The same template costs its lookups' extra steps and nothing else: over a chain every
    /// lookup finds its name at once; over `{"a": {}}` each `{{#a}}` at level k looks in all k
    /// open contexts (the innermost value has no `a`), and `{{missing}}` in all depth + 1.
    @Test(arguments: [1, 15, 16, 17, 40, 100, 250])
    func aLookupCostsAStepForEachFurtherSixteenContexts(depth: Int) throws {
        let found = try Self.stepsNeeded(Self.nested(depth, "x"), Self.chain(depth))
        let missed = try Self.stepsNeeded(Self.nested(depth, "missing"), ["a": [:]])
        var extra = (depth + 1 - 1) / 16
        for level in 1...depth { extra += (level - 1) / 16 }
        #expect(missed - found == extra)
        if depth < 16 { #expect(missed == found) }
    }

    /// A long name counts each context once per 64 bytes: a 200-byte name that misses at depth
    /// `depth` looks in depth + 1 contexts four times over.
    @Test(arguments: [3, 16, 40])
    func aLongNameCountsEachContextOncePerSixtyFourBytes(depth: Int) throws {
        let name = String(repeating: "m", count: 200)
        let short = try Self.stepsNeeded(Self.nested(depth, "missing"), ["a": [:]])
        let long = try Self.stepsNeeded(Self.nested(depth, name), ["a": [:]])
        #expect(long - short == (4 * (depth + 1) - 1) / 16 - depth / 16)
    }

    /// The attack's shape: a partial of 250 sections that includes itself inside them (64 deep),
    /// then a loop whose body misses. Stopped by the budget, naming the section; the tree renderer
    /// stops at the same step.
    @Test func missesDeepInNestedPartialsStopWithinTheBudget() throws {
        let body = String(repeating: "{{#a}}", count: 250) + "{{> p}}{{#items}}{{missing}}{{/items}}" + String(repeating: "{{/a}}", count: 250)
        let partials = ["p": try MustacheTemplate(parsing: body, name: "p.md")]
        let page = try MustacheTemplate(parsing: "{{> p}}", name: "page.md")
        let context: MustacheValue = ["a": ["x": 1], "items": .list((0..<2_000).map { .int($0) })]
        let budget = MustacheBudget(steps: 100_000, outputBytes: 1 << 20)
        let error = try #require(throws: MustacheError.self) { try page.render(context, partials: partials, budget: budget) }
        #expect(error.templateName == "p.md")
        #expect(error.description.contains("rendering would go past 100000 steps"), "\(error)")
        FlatRendererTests.expectSame(page, context, partials: partials, budget: budget)
    }

    /// A partial indented `width` spaces, expanded once per item with nothing written: each
    /// expansion costs a step more for each 64 bytes of indentation.
    @Test(arguments: [0, 63, 64, 1_000, 100_000])
    func anIndentedPartialCostsAStepPerSixtyFourBytes(width: Int) throws {
        let partials = ["e": try MustacheTemplate(parsing: "", name: "e.md")]
        let page = try MustacheTemplate(parsing: "{{#l}}\n" + String(repeating: " ", count: width) + "{{> e}}\n{{/l}}\n", name: "page.md")
        let items: MustacheValue = ["l": .list((0..<10).map { .int($0) })]
        let plain = try MustacheTemplate(parsing: "{{#l}}\n{{> e}}\n{{/l}}\n", name: "page.md")
        func needed(_ template: MustacheTemplate) -> Int {
            var (low, high) = (0, 1 << 24)
            while low + 1 < high {
                let middle = (low + high) / 2
                let budget = MustacheBudget(steps: middle, outputBytes: 1 << 20)
                FlatRendererTests.expectSame(template, items, partials: partials, budget: budget)
                if (try? template.renderUTF8(items, partials: partials, budget: budget)) == nil { low = middle } else { high = middle }
            }
            return high
        }
        #expect(needed(page) - needed(plain) == 10 * (width / 64))
    }

    /// Names and delimiters at their limits parse and render; one byte more is an error at the tag.
    @Test func namesAndDelimitersAtTheirLimitsParse() throws {
        let name = String(repeating: "n", count: MustacheTemplate.maximumNameLength)
        #expect(try MustacheTemplate(parsing: "{{\(name)}}").render(.dictionary([name: "v"])) == "v")
        #expect(throws: MustacheError.self) { try MustacheTemplate(parsing: "{{\(name)n}}") }
        let open = String(repeating: "<", count: MustacheTemplate.maximumDelimiterLength)
        #expect(try MustacheTemplate(parsing: "{{=\(open) >=}}\(open)x>").render(["x": "v"]) == "v")
        #expect(throws: MustacheError.self) { try MustacheTemplate(parsing: "{{=\(open)< >=}}") }
    }

    /// `{{list}}` writes its items' text joined by commas, made anew at each tag: it costs a step
    /// more for each 64 bytes of that text.
    @Test(arguments: [1, 10, 100, 1_000])
    func aListNamedAsTextCostsAStepPerSixtyFourBytes(items: Int) throws {
        let list = MustacheValue.list((0..<items).map { .string("item\($0)") })
        let joined = (0..<items).map { "item\($0)" }.joined(separator: ",")
        let named = try MustacheTemplate(parsing: "{{#a}}{{l}}{{/a}}", name: "page.md")
        let plain = try MustacheTemplate(parsing: "{{#a}}{{s}}{{/a}}", name: "page.md")
        let context: MustacheValue = ["a": true, "l": list, "s": .string(joined)]
        #expect(try Self.stepsNeeded(named, context) - Self.stepsNeeded(plain, context) == joined.utf8.count / 64)
    }
}
