// Inputs for the scaling table: each grows one dimension (options, pages, findings, a repeated key)
// and keeps the rest small, so the time at N and 10N shows how that dimension alone scales.
import FallbackSample

/// Generators of fallback files that stress one dimension each. Deterministic and valid JSON; the
/// files load (the SDK keeps the entry), so the checks and the site build do their full work.
enum ScalingInputs {
    /// One placement `p` whose funnel has a question page with `count` options, each with an
    /// `imageUrl`, then a last page.
    static func options(_ count: Int) -> String {
        let options = (0..<count).map { index in
            #"{"imageUrl":"https://cdn.example.com/options/\#(index).jpg","label":{"en":"Option \#(index)","fr":"Choix \#(index)"},"value":"v\#(index)"}"#
        }
        let question = #"{"default_next":"done","id":"question","options":[\#(options.joined(separator: ","))],"question_id":"q","title":{"en":"Pick one","fr":"Choisissez"},"type":"single_choice"}"#
        let done = #"{"id":"done","title":{"en":"Done","fr":"Fini"},"type":"success"}"#
        return file(funnelPages: [question, done], locales: #"["en","fr"]"#)
    }

    /// One placement `p` whose funnel has `count` pages in a chain, each with a rule back to the
    /// first page: every page closes a loop, so the cycle check has `count` loops to find.
    static func loopingPages(_ count: Int) -> String {
        let pages = (0..<max(count, 2)).map { index in
            let next = index + 1 < max(count, 2) ? "page_\(index + 1)" : "page_0"
            return #"{"default_next":"\#(next)","id":"page_\#(index)","next_rules":[{"condition":{"clauses":[{"op":"eq","question_id":"q\#(index)","value":"again"}],"op":"all"},"goto":"page_0","id":"back_\#(index)"}],"question_id":"q\#(index)","title":"Question \#(index)","type":"yes_no"}"#
        }
        return file(funnelPages: pages)
    }

    /// One placement `p` whose funnel has `count` pages, each with a rule to a page that does not
    /// exist: `count` findings from one entry.
    static func unknownTargets(_ count: Int) -> String {
        let pages = (0..<count).map { index in
            let next = index + 1 < count ? "page_\(index + 1)" : "end"
            return #"{"default_next":"\#(next)","id":"page_\#(index)","next_rules":[{"condition":{"clauses":[{"op":"is_answered","question_id":"q\#(index)"}],"op":"all"},"goto":"missing_\#(index)","id":"rule_\#(index)"}],"question_id":"q\#(index)","title":"Question \#(index)","type":"yes_no"}"#
        }
        return file(funnelPages: pages)
    }

    /// One placement `p` whose funnel has `Format.suggestionCandidateLimit` (200) pages whose ids
    /// are `count` letters long, and `count` rules, spread over the pages, to short targets that do
    /// not exist: `count` findings, each searching the 200 ids for a "did you mean". The ids grow
    /// with the targets, so a search that read every id for every target grew as N²; one that
    /// passes over ids too long to be a near miss, as N.
    static func shortTargetsAmongLongIds(_ count: Int) -> String {
        let pageCount = 200
        let stem = String(repeating: "a", count: max(count, 1))
        let ids = (0..<pageCount).map { stem + String($0) }
        let pages = ids.indices.map { index in
            let next = index + 1 < pageCount ? ids[index + 1] : "end"
            let rules = stride(from: index, to: count, by: pageCount).map { rule in
                #"{"condition":{"clauses":[],"op":"all"},"goto":"missing_\#(rule % 10)","id":"r\#(rule)"}"#
            }
            return #"{"default_next":"\#(next)","id":"\#(ids[index])","next_rules":[\#(rules.joined(separator: ","))],"title":"Q","type":"welcome"}"#
        }
        return file(funnelPages: pages)
    }

    /// One placement `p` whose funnel declares `count` locales and has one page whose title gives
    /// each its copy in the reverse order, every other one blank: the translation check looks each
    /// declared locale up in a map that lists them in another order, and reports half of them.
    ///
    /// Locales and copy are numbered with seven digits, so 10N locales are 10× the bytes of N: with
    /// numbers as short as they can be, one more digit made a locale's members a tenth longer, and
    /// the row's input 11× larger for 10× the locales.
    static func reversedLocales(_ count: Int) -> String {
        let locales = (0..<max(count, 1)).map { "l" + sevenDigits($0) }
        let title = locales.indices.reversed().map { index in
            #""\#(locales[index])":"\#(index.isMultiple(of: 2) ? "Hello " + sevenDigits(index) : " ")""#
        }
        let page = #"{"id":"welcome","title":{\#(title.joined(separator: ","))},"type":"welcome"}"#
        let declared = "[" + locales.map { #""\#($0)""# }.joined(separator: ",") + "]"
        return file(funnelPages: [page], locales: declared, defaultLocale: locales[0])
    }

    /// One placement `p` whose funnel asks a question with `count` options, then has `count` rules
    /// that each compare the answer with a value no option has: `count` findings, each about a value
    /// looked up among `count` options (once K×M steps: each clause searched every option).
    static func unknownOptionValues(_ count: Int) -> String {
        let options = (0..<max(count, 1)).map { #"{"label":"Option \#($0)","value":"v\#($0)"}"# }
        let rules = (0..<max(count, 1)).map { index in
            #"{"condition":{"clauses":[{"op":"eq","question_id":"q","value":"nope_\#(index)"}],"op":"all"},"goto":"end","id":"rule_\#(index)"}"#
        }
        let question = #"{"id":"question","options":[\#(options.joined(separator: ","))],"question_id":"q","title":"Pick one","type":"single_choice"}"#
        let after = #"{"id":"after","next_rules":[\#(rules.joined(separator: ","))],"title":"After","type":"info"}"#
        return file(funnelPages: [question, after])
    }

    /// One placement `p` whose funnel has a rule whose `is_answered` clause carries a value of
    /// `count` small objects, which the finding about it and the rule's text copy whole (once
    /// quadratic: each object copied every object built before it).
    static func objectsInAClauseValue(_ count: Int) -> String {
        let objects = (0..<max(count, 1)).map { #"{"a":\#($0)}"# }.joined(separator: ",")
        let question = #"{"id":"question","question_id":"q","title":"Name?","type":"short_text"}"#
        let rule = #"{"condition":{"clauses":[{"op":"is_answered","question_id":"q","value":[\#(objects)]}],"op":"all"},"goto":"end","id":"rule"}"#
        let after = #"{"id":"after","next_rules":[\#(rule)],"title":"After","type":"info"}"#
        return file(funnelPages: [question, after])
    }

    /// Placement `a` serving funnel `fnl` of `count` pages whose ids are not clean slugs (`PG_…`,
    /// so each row's name is hashed), and `count` more placements each serving a one-page copy of
    /// `fnl` through a one-variant experiment: the search index and every experiment page link into
    /// `fnl`'s page (once each named all `count` pages again).
    static func copiesOfAFunnel(_ count: Int) -> String {
        let count = max(count, 1)
        let pages = (0..<count).map { #"{"id":"PG_\#(sevenDigits($0))","title":"T","type":"info"}"# }.joined(separator: ",")
        let big = #"{"id":"fnl","name":"Big","pages":[\#(pages)],"slug":"big"}"#
        let small = #"{"id":"fnl","name":"Copy","pages":[{"id":"PG_0000000","title":"Other","type":"info"}],"slug":"copy"}"#
        let copies = (0..<count).map { index in
            let experiment = #"{"id":"e\#(index)","key":"k\#(index)","variants":[{"funnel":\#(small),"variantId":"v","weight":1}]}"#
            return #""p\#(sevenDigits(index))":{"experiment":\#(experiment),"placement":{"identifier":"p\#(index)","revision":1}}"#
        }
        return #"{"formatVersion":1,"placements":{"a":{"funnel":\#(big),"placement":{"identifier":"a","revision":1}},\#(copies.joined(separator: ","))}}"#
    }

    /// One experiment whose first variant serves a funnel of `count` pages and whose `count` other
    /// variants each serve a one-page funnel: each comparison row once named every removed page.
    static func variantsAgainstAWideFunnel(_ count: Int) -> String {
        let count = max(count, 1)
        let pages = (0..<count).map { #"{"id":"p\#(sevenDigits($0))","title":"T","type":"info"}"# }.joined(separator: ",")
        let control = #"{"funnel":{"id":"fnl_wide","name":"Wide","pages":[\#(pages)],"slug":"wide"},"variantId":"control","weight":1}"#
        let others = (0..<count).map { index in
            #"{"funnel":{"id":"fnl_\#(index)","name":"One","pages":[{"id":"p0000000","title":"T","type":"info"}],"slug":"s\#(index)"},"variantId":"v\#(index)","weight":0}"#
        }
        let experiment = #"{"id":"exp","key":"k","variants":[\#(([control] + others).joined(separator: ","))]}"#
        return #"{"formatVersion":1,"placements":{"p":{"experiment":\#(experiment),"placement":{"identifier":"p","revision":1}}}}"#
    }

    /// One placement whose every id, key, question, value, title, URL and locale key ends with
    /// `count` pairs of combining marks out of canonical order (U+0301 U+0316): one character of
    /// 2 × `count` + 1 scalars each, which Swift's `String` comparison and hashing normalise,
    /// sorting the marks one by one (once quadratic in the run: comparing a character with "/").
    /// A rule goes to a page that does not exist, so findings name the marked ids; one locale key
    /// starts with the marks, so a JSON Pointer has a token that starts with a combining mark.
    static func combiningMarks(_ count: Int) -> String {
        let marks = String(repeating: "\u{301}\u{316}", count: max(count, 1))
        let key = "p" + marks
        let question = #"{"default_next":"done\#(marks)","id":"question\#(marks)","next_rules":[{"condition":{"clauses":[{"op":"eq","question_id":"q\#(marks)","value":"nope\#(marks)"}],"op":"all"},"goto":"missing\#(marks)","id":"rule\#(marks)"}],"options":[{"imageUrl":"https://cdn.example.com/\#(marks).jpg","label":{"en":"Yes\#(marks)","\#(marks)":"Oui"},"value":"yes\#(marks)"}],"question_id":"q\#(marks)","title":{"en":"Pick one\#(marks)","\#(marks)":"Choisissez"},"type":"single_choice"}"#
        let done = #"{"id":"done\#(marks)","title":"Done\#(marks)","type":"success"}"#
        let funnel = #"{"defaultLocale":"en","id":"fnl\#(marks)","locales":["en","\#(marks)"],"name":"Scaling\#(marks)","pages":[\#(question),\#(done)],"slug":"s\#(marks)"}"#
        return #"{"formatVersion":1,"placements":{"\#(key)":{"funnel":\#(funnel),"placement":{"identifier":"\#(key)","revision":1}}}}"#
    }

    /// The placement key `p` written `count` times, each with its own revision: the last one wins (§3).
    static func repeatedKey(_ count: Int) -> String {
        let entries = (0..<max(count, 1)).map { index in
            #""p":{"funnel":{"id":"fnl_\#(index)","pages":[{"id":"welcome","title":"Welcome \#(index)","type":"welcome"}],"slug":"f\#(index)"},"placement":{"identifier":"p","revision":\#(index + 1)}}"#
        }
        return #"{"formatVersion":1,"placements":{\#(entries.joined(separator: ","))}}"#
    }

    /// One placement whose funnel declares `count` locales besides `en` and has `count` pages, each
    /// titled in `en` only: every page misses every other locale. The check counts each page's gaps
    /// and names the first few; the funnel page counts each locale's coverage (both once went
    /// through every locale for every text: quadratic in a file of linear size).
    static func pagesMissingLocales(_ count: Int) -> String {
        let numbers = (0..<max(count, 1)).map(sevenDigits)
        let pages = numbers.map { #"{"id":"page_\#($0)","title":{"en":"Page \#($0)"},"type":"info"}"# }
        let declared = #"["en",\#(numbers.map { #""l\#($0)""# }.joined(separator: ","))]"#
        return file(funnelPages: pages, locales: declared)
    }

    /// Two releases of one placement whose question page has a rule of `count` clauses, each on its
    /// own question, every clause's value changed in the second: `diff` pairs the clauses by
    /// question id (once by searching the other release's for each: quadratic).
    static func changedClauses(_ count: Int) -> [String] {
        ["yes", "no"].map { value in
            let clauses = (0..<max(count, 1)).map { #"{"op":"eq","question_id":"q\#(sevenDigits($0))","value":"\#(value)"}"# }
            let rule = #"{"condition":{"clauses":[\#(clauses.joined(separator: ","))],"op":"any"},"goto":"done","id":"rule"}"#
            let question = #"{"id":"question","next_rules":[\#(rule)],"question_id":"q0000000","title":"Ready?","type":"yes_no"}"#
            return file(funnelPages: [question, #"{"id":"done","title":"Done","type":"success"}"#])
        }
    }

    /// Two releases of one placement whose funnel's theme holds `count` numbers under
    /// `deepValueLevels` one-element arrays, the last number changed in the second: each level's
    /// comparison once asked again whether the whole value below it had the same content (levels × numbers).
    static func deepValue(_ count: Int) -> [String] {
        [0, 1].map { last in
            let numbers = (0..<max(count, 1) - 1).map(String.init) + [String(-1 - last)]
            let value = String(repeating: "[", count: deepValueLevels) + numbers.joined(separator: ",") + String(repeating: "]", count: deepValueLevels)
            return file(funnelPages: [#"{"id":"welcome","title":"Hi","type":"welcome"}"#], theme: #"{"deep":\#(value)}"#)
        }
    }

    /// How deep `deepValue` nests its numbers: near the contract's limit of 127 levels in a file that loads.
    static let deepValueLevels = 120

    /// Two releases of a one-page funnel whose title is one text of `count` words, then a text for
    /// each of `count` locales. Each locale was diffed against the whole old text, which the
    /// reports then repeated beside it (locales × words).
    static func plainTextToLocales(_ count: Int) -> [String] {
        let count = max(count, 1)
        let plain = (0..<count).map { "w" + sevenDigits($0) }.joined(separator: " ")
        let localized = (0..<count).map { #""l\#(sevenDigits($0))":"new \#(sevenDigits($0))""# }.joined(separator: ",")
        return ["\"\(plain)\"", "{\(localized)}"].map { title in
            file(funnelPages: [#"{"id":"welcome","title":\#(title),"type":"welcome"}"#])
        }
    }

    /// Two releases, a day apart, of one placement serving an experiment of `count` variants, each
    /// with a small funnel of its own; the second renames every variant. `history` pairs variants
    /// by id (once by searching the other release's for each: quadratic).
    static func renamedVariants(_ count: Int) -> [String] {
        (0..<2).map { release in
            let variants = (0..<max(count, 1)).map { index in
                let number = sevenDigits(index)
                let funnel = #"{"id":"fnl_\#(number)","name":"F","pages":[{"id":"welcome","title":"Hi","type":"welcome"}],"slug":"f\#(number)"}"#
                return #"{"funnel":\#(funnel),"variantId":"r\#(release)_\#(number)","weight":1}"#
            }
            let experiment = #"{"id":"exp","key":"k","variants":[\#(variants.joined(separator: ","))]}"#
            return #"{"formatVersion":1,"generatedAt":\#(1_764_000_000_000 + release * 86_400_000),"placements":{"p":{"experiment":\#(experiment),"placement":{"identifier":"p","revision":\#(release + 1)}}}}"#
        }
    }

    /// One placement `p` whose paywall's builderConfig has one key of `count` characters over
    /// `count` image URLs, and whose funnel's one page has the same: each URL's path starts with
    /// the key (once the key times the URLs: every path spelled whole before it was shortened).
    static func longKeyOverValues(_ count: Int) -> String {
        let key = String(repeating: "k", count: max(count, 1))
        let urls = (0..<max(count, 1)).map { #""https://cdn.example/\#(sevenDigits($0)).png""# }.joined(separator: ",")
        let config = #"{"\#(key)":[\#(urls)]}"#
        let paywall = #"{"builderConfig":\#(config),"configFormatVersion":1,"id":"pw","identifier":"pw","name":"P"}"#
        let page = #"{"id":"welcome","\#(key)":[\#(urls)],"title":"Hi","type":"welcome"}"#
        let funnel = #"{"id":"fnl_scaling","name":"Scaling","pages":[\#(page)],"slug":"scaling"}"#
        return #"{"formatVersion":1,"placements":{"p":{"funnel":\#(funnel),"paywall":\#(paywall),"placement":{"identifier":"p","revision":1}}}}"#
    }

    /// One placement whose key is `count` letters long, whose funnel's first page has `count`
    /// rules to pages that do not exist: `count` findings under one long key. Each finding's JSON
    /// Pointer spells the key; held as one string each, they grew as N² in memory and time.
    static func findingsUnderLongKey(_ count: Int) -> String {
        let key = String(repeating: "k", count: max(count, 1))
        let rules = (0..<max(count, 1)).map { index in
            #"{"condition":{"clauses":[],"op":"all"},"goto":"missing_\#(sevenDigits(index))","id":"r\#(sevenDigits(index))"}"#
        }
        let first = #"{"default_next":"done","id":"first","next_rules":[\#(rules.joined(separator: ","))],"title":"Hi","type":"welcome"}"#
        let funnel = #"{"id":"fnl_scaling","name":"Scaling","pages":[\#(first),{"id":"done","title":"Done","type":"info"}],"slug":"scaling"}"#
        return #"{"formatVersion":1,"placements":{"\#(key)":{"funnel":\#(funnel),"placement":{"identifier":"\#(key)","revision":1}}}}"#
    }

    /// One placement `p` whose funnel's first page has an id of `count` letters and `count` rules
    /// to pages that do not exist: the drawing names the page in every rule's label and tooltip,
    /// and read the whole id for each to see whether it fits (N²).
    static func rulesFromALongPageId(_ count: Int) -> String {
        let id = String(repeating: "p", count: max(count, 1))
        let rules = (0..<max(count, 1)).map { index in
            #"{"condition":{"clauses":[],"op":"all"},"goto":"missing_\#(sevenDigits(index))","id":"r\#(sevenDigits(index))"}"#
        }
        let first = #"{"default_next":"done","id":"\#(id)","next_rules":[\#(rules.joined(separator: ","))],"title":"Hi","type":"welcome"}"#
        return file(funnelPages: [first, #"{"id":"done","title":"Done","type":"info"}"#])
    }

    /// One placement `p` whose funnel's first page has `count` rules, each to the second page:
    /// `count` labels between the same two pages in the drawing, each on a row of its own (once
    /// the labels times the rows: each label looked through every row).
    static func rulesToOnePage(_ count: Int) -> String {
        let rules = (0..<max(count, 1)).map { index in
            #"{"condition":{"clauses":[{"op":"eq","question_id":"goal","value":"v"}],"op":"all"},"goto":"done","id":"r\#(sevenDigits(index))"}"#
        }
        let options = #"[{"label":"V","value":"v"},{"label":"W","value":"w"}]"#
        let question = #"{"default_next":"done","id":"ask","next_rules":[\#(rules.joined(separator: ","))],"options":\#(options),"question_id":"goal","title":"Goal?","type":"single_choice"}"#
        return file(funnelPages: [question, #"{"id":"done","title":"Done","type":"info"}"#])
    }

    /// `count` releases, each with one placement of its own: every release removes the one before
    /// (once every placement ever removed was revisited at every later release).
    static func replacedPlacements(_ count: Int) -> [String] {
        (0..<max(count, 2)).map { release in
            let key = "p" + sevenDigits(release)
            let entry = #"{"paywall":{"configFormatVersion":1,"id":"pw","identifier":"pw","name":"P"},"placement":{"identifier":"\#(key)","revision":1}}"#
            return #"{"formatVersion":1,"generatedAt":\#(1_764_000_000_000 + release * 60_000),"placements":{"\#(key)":\#(entry)}}"#
        }
    }

    /// The tests' branching quiz with `count` pages (`SampleFunnel`).
    static func quizPages(_ count: Int) -> String { SampleFunnel.fileText(pageCount: max(count, 2)) }

    /// The realistic sample of `count` placements (`SampleExport`, seed 1).
    static func placements(_ count: Int) -> String { SampleExport(placementCount: count, seed: 1).jsonText() }

    /// Hands `body` the text of each of `count` releases of a `placements`-placement sample, oldest
    /// first, `changes` placements republished per release; one release is held at a time.
    static func forEachRelease(
        _ count: Int, placements: Int, changes: Int, seed: UInt64 = 3, _ body: (_ index: Int, _ text: String) throws -> Void
    ) rethrows {
        var export = SampleExport(placementCount: placements, seed: seed)
        for release in 0..<count {
            if release > 0 { export = export.nextRelease(changing: min(changes, placements)) }
            try body(release, export.jsonText())
        }
    }

    /// `number` (below 10,000,000) with leading zeros to seven digits.
    static func sevenDigits(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(7 - digits.count, 0)) + digits
    }

    /// A file with no placements: what a process costs to start, read and report nothing.
    static let empty = #"{"formatVersion":1,"placements":{}}"#

    private static func file(funnelPages pages: [String], locales: String? = nil, defaultLocale: String = "en", theme: String? = nil) -> String {
        let localeMember = locales.map { #""defaultLocale":"\#(defaultLocale)","locales":\#($0),"# } ?? ""
        let themeMember = theme.map { #","theme":\#($0)"# } ?? ""
        let funnel = #"{\#(localeMember)"id":"fnl_scaling","name":"Scaling","pages":[\#(pages.joined(separator: ","))],"slug":"scaling"\#(themeMember)}"#
        return #"{"formatVersion":1,"placements":{"p":{"funnel":\#(funnel),"placement":{"identifier":"p","revision":1}}}}"#
    }
}
