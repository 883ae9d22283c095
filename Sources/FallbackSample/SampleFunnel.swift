import RovenueFallback

/// A long branching quiz, for funnel drawings' size and speed (the tests' layout checks and the
/// benchmark's timing draw the same funnel).
///
/// Page 0 welcomes, the page at five sixths is the paywall and the last one says "all set". Every
/// third page has two rules (a skip two pages ahead, and a jump five ahead or to the paywall), and
/// every seventh (from the fifth) a `default_next` three pages ahead. Nothing steps back, so the
/// drawing has no back edges. Deterministic: no randomness at all.
public enum SampleFunnel {
    /// A fallback file whose one placement, `p`, serves the quiz of `pageCount` pages (at least 2).
    public static func fileText(pageCount: Int) -> String {
        precondition(pageCount >= 2, "a quiz has at least a welcome and a last page")
        let placement = object(Placement.self, [.identifier: "p", .revision: .int(1)])
        let entry = object(FallbackEntry.self, [.funnel: funnel(pageCount: pageCount), .placement: placement])
        return object([.init(TopLevelField.formatVersion, .int(1)), .init(TopLevelField.placements, object(["p": entry]))]).jsonText()
    }

    private static func funnel(pageCount: Int) -> JSONValue {
        let types = ["single_choice", "number_input", "statement", "multi_choice", "info", "yes_no"]
        let paywallIndex = pageCount * 5 / 6
        let pages = (0..<pageCount).map { index -> JSONValue in
            let id = "page_\(index)"
            if index == 0 { return page(id, "welcome", title: "Welcome aboard") }
            if index == paywallIndex { return page(id, "paywall", title: "Unlock your plan") }
            if index == pageCount - 1 { return page(id, "success", title: "All set") }
            var rules: [JSONValue] = []
            if index % 3 == 1 {
                let skip = min(index + 2, pageCount - 1)
                let far = index + 5 < paywallIndex ? "page_\(index + 5)" : "paywall"
                rules = [
                    rule("skip_\(index)", goto: "page_\(skip)", op: "all", clauses: [clause("q\(index)", "eq", "skip")]),
                    rule(
                        "far_\(index)", goto: far, op: "any",
                        clauses: [clause("q\(index)", "in", .strings(["a", "b"])), clause("age", "gte", .int(40))]),
                ]
            }
            let defaultNext = index % 7 == 5 ? "page_\(min(index + 3, pageCount - 1))" : nil
            return page(
                id, types[index % types.count], title: "Question number \(index) of the quiz", rules: rules,
                defaultNext: defaultNext)
        }
        return object(
            Funnel.self, [.defaultLocale: "en", .id: "fnl_generated", .name: "Generated quiz", .pages: .array(pages), .slug: "generated"])
    }

    private static func page(
        _ id: String, _ type: String, title: String, rules: [JSONValue] = [], defaultNext: String? = nil
    ) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let defaultNext { members.append(.init(Page.Field.defaultNext, .string(defaultNext))) }
        members += [.init(Page.Field.id, .string(id)), .init(Page.Field.nextRules, .array(rules))]
        if type == "paywall" { members.append(.init(Page.Field.paywallId, "pw")) }
        members += [.init(Page.Field.title, .string(title)), .init(Page.Field.type, .string(type))]
        return object(members)
    }

    private static func rule(_ id: String, goto: String, op: String, clauses: [JSONValue]) -> JSONValue {
        object(
            NextRule.self,
            [
                .condition: object(Condition.self, [.clauses: .array(clauses), .op: .string(op)]),
                .goto: .string(goto),
                .id: .string(id),
            ])
    }

    private static func clause(_ question: String, _ op: String, _ value: JSONValue) -> JSONValue {
        object(Clause.self, [.op: .string(op), .questionId: .string(question), .value: value])
    }
}
