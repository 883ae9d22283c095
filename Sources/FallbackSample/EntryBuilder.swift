import RovenueFallback

/// Builds one placement entry from its own random stream.
struct EntryBuilder {
    let project: Project
    var rng: SplitMix64
    /// The revision to write instead of the drawn one (which is still drawn, so the stream is unchanged).
    var revisionOverride: Int?

    init(project: Project, rng: SplitMix64, revisionOverride: Int? = nil) {
        self.project = project
        self.rng = rng
        self.revisionOverride = revisionOverride
    }

    mutating func entry(identifier: String) -> JSONValue {
        let drawn = rng.within(1...40)
        let revision = revisionOverride ?? drawn
        let placement = object(
            Placement.self,
            [
                .identifier: .string(identifier),
                .revision: rng.chance(perMille: 2) ? .string(String(revision)) : .int(revision),
            ])
        let roll = rng.below(1000)
        if roll < 60 {
            return object(FallbackEntry.self, [.experiment: nil, .funnel: nil, .placement: placement])
        }
        if roll < 240 {
            return object(FallbackEntry.self, [.experiment: nil, .paywall: paywall(locales: localeSet()), .placement: placement])
        }
        if roll < 340 {
            return object(FallbackEntry.self, [.experiment: experiment(), .funnel: nil, .placement: placement])
        }
        return object(FallbackEntry.self, [.experiment: nil, .funnel: funnel(), .placement: placement])
    }

    // MARK: Experiments

    private static let weights: [[String]] = [
        ["0.5", "0.5"], ["0.6", "0.4"], ["0.8", "0.2"], ["0.9", "0.1"],
        ["0.34", "0.33", "0.33"], ["0.4", "0.3", "0.3"], ["0.5", "0.25", "0.25"], ["0.2", "0.4", "0.4"],
    ]
    private static let variantIds = ["control", "variant_a", "variant_b"]

    private mutating func experiment() -> JSONValue {
        let weights = rng.element(of: Self.weights)
        var variants = [JSONValue]()
        for (index, weight) in weights.enumerated() {
            variants.append(
                object(
                    Variant.self,
                    [
                        .funnel: funnel(),
                        .variantId: .string(Self.variantIds[index]),
                        .weight: .decimal(weight),
                    ]))
        }
        return object(
            Experiment.self,
            [
                .id: .string("exp_" + rng.token(10)),
                .key: .string("exp_" + rng.token(12)),
                .variants: .array(variants),
            ])
    }

    // MARK: Text

    private mutating func localeSet() -> [SampleLocale] {
        rng.element(of: SampleLocale.sets)
    }

    private func text(_ phrase: Phrase, in locales: [SampleLocale]) -> JSONValue {
        .object(locales.map { JSONValue.Member($0.code, .string(phrase[$0])) })
    }

    private func textList(_ list: PhraseList, in locales: [SampleLocale]) -> JSONValue {
        .object(locales.map { locale in JSONValue.Member(locale.code, .strings(list.items.map { $0[locale] })) })
    }

    // MARK: Funnels

    private struct PlannedPage {
        var id: String
        var type: String
        var topic: Topic?
    }

    private static let interludeTypes = ["statement", "feature", "info", "loading", "result"]
    private static let interludeNames = [
        "statement": "note", "feature": "features", "info": "info", "loading": "loading", "result": "result",
    ]

    private mutating func funnel() -> JSONValue {
        let locales = localeSet()
        let (name, slugStem) = rng.element(of: Vocabulary.funnelNames)
        let suffix = rng.token(8)
        let funnelId = "fnl_" + suffix
        let slug = slugStem + "-" + suffix.lowercased()
        let pageCount = rng.within(5...8) + (rng.chance(perMille: 250) ? rng.below(8) : 0)
        let hasPaywall = !rng.chance(perMille: 150)
        let missingTranslation = rng.chance(perMille: 30)
        let unknownGoto = rng.chance(perMille: 10)
        let missingPaywall = hasPaywall && rng.chance(perMille: 10)

        var plan = [PlannedPage(id: "pg_welcome", type: "welcome")]
        var topics = rng.shuffled(Vocabulary.topics)[...]
        for slot in 1..<(pageCount - (hasPaywall ? 2 : 1)) {
            if rng.chance(perMille: 650), let topic = topics.popFirst() {
                plan.append(PlannedPage(id: "pg_" + topic.stem, type: rng.element(of: topic.types), topic: topic))
            } else {
                let type = rng.element(of: Self.interludeTypes)
                plan.append(PlannedPage(id: "pg_\(Self.interludeNames[type]!)_\(slot)", type: type))
            }
        }
        let paywallId = "pwl_" + rng.token(10)
        if hasPaywall {
            plan.append(PlannedPage(id: "pg_paywall", type: "paywall"))
        }
        plan.append(PlannedPage(id: "pg_done", type: rng.chance(perMille: 500) ? "success" : "end_screen"))

        let paywallIndex = hasPaywall ? plan.count - 2 : plan.count
        var untranslatedPending = missingTranslation
        let untranslatedFrom = rng.below(plan.count)
        var brokenGotoPending = unknownGoto
        var reachable = [Bool](repeating: false, count: plan.count)
        reachable[0] = true
        var pages = [JSONValue]()
        pages.reserveCapacity(plan.count)
        for (index, planned) in plan.enumerated() {
            var fields = PageFields(id: planned.id, type: planned.type)
            fill(&fields, planned: planned, locales: locales, slug: slug, paywallId: paywallId)
            if untranslatedPending, index >= untranslatedFrom, let phrase = fields.titlePhrase {
                fields.title = text(phrase, in: [.en])
                untranslatedPending = false
            }
            if index > 0, index < paywallIndex {
                fields.nextRules = rules(at: index, plan: plan, paywallIndex: paywallIndex, reachable: &reachable)
                if brokenGotoPending, let condition = fields.nextRules.first?[NextRule.Field.condition.rawValue] {
                    fields.nextRules.append(
                        object(NextRule.self, [.condition: condition, .goto: "pg_retired", .id: .string("r_\(index)_retired")]))
                    brokenGotoPending = false
                }
                // Skipping the next page only when an earlier rule already leads to it keeps every page reachable.
                if index + 2 < plan.count, reachable[index + 1], rng.chance(perMille: 300) {
                    fields.defaultNext = target(
                        after: index, plan: plan, paywallIndex: paywallIndex, reachable: &reachable)
                }
            }
            if fields.defaultNext == nil, index + 1 < plan.count {
                reachable[index + 1] = true
            }
            pages.append(fields.json())
        }

        let versionNo = rng.within(1...12)
        var members: [JSONValue.Member] = [
            .init(Funnel.Field.defaultLocale, "en"),
            .init(Funnel.Field.id, .string(funnelId)),
            .init(Funnel.Field.locales, .strings(["en"] + locales.filter { $0 != .en }.map(\.code))),
            .init(Funnel.Field.name, .string(name)),
            .init(Funnel.Field.pages, .array(pages)),
        ]
        if hasPaywall {
            let paywalls: [JSONValue.Member] =
                missingPaywall ? [] : [.init(paywallId, paywall(id: paywallId, locales: locales))]
            members.append(.init(Funnel.Field.paywalls, .object(paywalls)))
        }
        members += [
            .init(Funnel.Field.settings, project.settings),
            .init(Funnel.Field.slug, .string(slug)),
            .init(Funnel.Field.theme, rng.element(of: project.themes)),
            .init(Funnel.Field.versionId, .string("ver_\(suffix)_\(versionNo)")),
            .init(Funnel.Field.versionNo, .int(versionNo)),
        ]
        return object(members)
    }

    private mutating func fill(
        _ fields: inout PageFields, planned: PlannedPage, locales: [SampleLocale], slug: String, paywallId: String
    ) {
        let media = "https://cdn.\(project.app).app/funnels/\(slug)/"
        func set(title phrase: Phrase) {
            fields.titlePhrase = phrase
            fields.title = text(phrase, in: locales)
        }
        if let topic = planned.topic {
            fields.questionId = topic.stem
            fields.required = rng.chance(perMille: 700)
            set(title: topic.title)
            if !topic.options.isEmpty {
                let pictures = planned.type == "picture_choice"
                fields.options = topic.options.map { option in
                    var members = [JSONValue.Member]()
                    if pictures {
                        members.append(.init(PageOption.Field.imageUrl, .string(media + option.value + ".jpg")))
                    }
                    members.append(.init(PageOption.Field.label, text(option.label, in: locales)))
                    members.append(.init(PageOption.Field.value, .string(option.value)))
                    return .object(members)
                }
            }
            if case .number(let min, let max) = topic.kind {
                fields.min = min
                fields.max = max
                fields.step = 1
            }
            fields.placeholder = topic.placeholder.map { text($0, in: locales) }
            fields.suffix = topic.suffix.map { text($0, in: locales) }
            fields.agreementLabel = topic.agreement.map { text($0, in: locales) }
            return
        }
        switch planned.type {
        case "welcome":
            set(title: rng.element(of: Vocabulary.welcomeTitles))
            fields.subtitle = text(Vocabulary.welcomeSubtitle, in: locales)
            fields.cta = text(Vocabulary.ctas[1], in: locales)
            if rng.chance(perMille: 150) {
                fields.mediaKind = "image"
                fields.mediaUrl = media + "welcome.jpg"
            }
        case "statement":
            fields.body = text(rng.element(of: Vocabulary.statements), in: locales)
            fields.cta = text(rng.element(of: Vocabulary.ctas), in: locales)
        case "feature":
            set(title: Vocabulary.featureTitle)
            fields.features = textList(Vocabulary.features, in: locales)
        case "info":
            set(title: Vocabulary.infoTitle)
            fields.body = text(Vocabulary.infoBody, in: locales)
            if rng.chance(perMille: 350) {
                let (kind, file) = rng.element(of: [
                    ("image", "info.jpg"), ("video", "info.mp4"), ("lottie", "info.json"),
                ])
                fields.mediaKind = kind
                fields.mediaUrl = media + file
            }
        case "loading":
            set(title: Vocabulary.loadingTitle)
            fields.steps = textList(Vocabulary.loadingSteps, in: locales)
            fields.duration = 2000 + 500 * rng.below(5)
        case "result":
            set(title: Vocabulary.resultTitle)
            fields.body = text(Vocabulary.resultBody, in: locales)
            fields.cta = text(Vocabulary.ctas[0], in: locales)
        case "paywall":
            fields.headline = text(Vocabulary.paywallHeadline, in: locales)
            fields.benefits = textList(Vocabulary.benefits, in: locales)
            fields.paywallId = paywallId
        default:
            set(title: rng.element(of: Vocabulary.doneTitles))
            fields.cta = text(Vocabulary.doneCta, in: locales)
        }
    }

    // MARK: Branching

    /// Zero to two rules on page `index`, over questions asked on it or before it, going forward.
    private mutating func rules(
        at index: Int, plan: [PlannedPage], paywallIndex: Int, reachable: inout [Bool]
    ) -> [JSONValue] {
        let asked = plan[1...index].compactMap(\.topic)
        guard !asked.isEmpty, index + 2 < plan.count, rng.chance(perMille: 400) else { return [] }
        var rules = [JSONValue]()
        for number in 0..<rng.within(1...2) {
            let clauseCount = min(rng.within(1...2), asked.count)
            let clauses = rng.shuffled(asked).prefix(clauseCount).map { clause(about: $0) }
            rules.append(
                object(
                    NextRule.self,
                    [
                        .condition: object(
                            Condition.self,
                            [
                                .clauses: .array(clauses),
                                .op: clauseCount == 1 || rng.chance(perMille: 500) ? "all" : "any",
                            ]),
                        .goto: .string(
                            target(after: index, plan: plan, paywallIndex: paywallIndex, reachable: &reachable)),
                        .id: .string("r_\(index)_\(number)"),
                    ]))
        }
        return rules
    }

    /// A page at least two ahead of `index`, `"paywall"` when the paywall page lies ahead, or `"end"`;
    /// marks the page it leads to as reachable.
    private mutating func target(
        after index: Int, plan: [PlannedPage], paywallIndex: Int, reachable: inout [Bool]
    ) -> String {
        let roll = rng.below(10)
        if roll == 0 { return "end" }
        if roll < 4, paywallIndex < plan.count, paywallIndex > index + 1 {
            reachable[paywallIndex] = true
            return "paywall"
        }
        let destination = rng.within((index + 2)...(plan.count - 1))
        reachable[destination] = true
        return plan[destination].id
    }

    private mutating func clause(about topic: Topic) -> JSONValue {
        let question = JSONValue.string(topic.stem)
        switch topic.kind {
        case .choice:
            let values = topic.options.map(\.value)
            switch rng.below(4) {
            case 0: return object(Clause.self, [.op: "eq", .questionId: question, .value: .string(rng.element(of: values))])
            case 1: return object(Clause.self, [.op: "neq", .questionId: question, .value: .string(rng.element(of: values))])
            case 2:
                return object(
                    Clause.self, [.op: "in", .questionId: question, .value: .strings(Array(rng.shuffled(values).prefix(2)))])
            default:
                return object(Clause.self, [.op: "not_in", .questionId: question, .value: .strings([rng.element(of: values)])])
            }
        case .multipleChoice:
            return object(
                Clause.self, [.op: "contains", .questionId: question, .value: .string(rng.element(of: topic.options).value)])
        case .number(let min, let max):
            let low = rng.within(min...max)
            let op = rng.element(of: ["gt", "gte", "lt", "lte", "between"])
            if op == "between" {
                return object(Clause.self, [.op: "between", .questionId: question, .value: [.int(low), .int(rng.within(low...max))]])
            }
            return object(Clause.self, [.op: .string(op), .questionId: question, .value: .int(low)])
        case .text:
            return object(Clause.self, [.op: rng.chance(perMille: 700) ? "is_answered" : "is_not_answered", .questionId: question])
        case .consent:
            return object(Clause.self, [.op: "eq", .questionId: question, .value: true])
        }
    }

    // MARK: Paywalls

    private static let packageKinds = ["annual", "monthly", "weekly", "lifetime"]
    private static let paywallNames = [
        ("annual_trial", "Annual with trial"), ("monthly_first", "Monthly first"), ("lifetime_offer", "Lifetime offer"),
        ("winback_offer", "Win-back offer"), ("default_paywall", "Default paywall"),
    ]

    private mutating func paywall(locales: [SampleLocale]) -> JSONValue {
        paywall(id: "pwl_" + rng.token(10), locales: locales)
    }

    private mutating func paywall(id: String, locales: [SampleLocale]) -> JSONValue {
        let (identifier, name) = rng.element(of: Self.paywallNames)
        let number = rng.within(1...99)
        let kinds = Array(rng.shuffled(Self.packageKinds).prefix(rng.within(1...3)))
        let packages = kinds.enumerated().map { order, kind in package(kind, order: order + 1) }
        let offering = object([
            .init(Offering.Field.identifier, .string(rng.chance(perMille: 600) ? "default" : "offering_\(number)")),
            .init(Offering.Field.isDefault, .bool(rng.chance(perMille: 600))),
            .init("metadata", object(["title": "Choose your plan"])),
            .init(Offering.Field.packages, .array(packages)),
        ])
        let common: (String, String, String) = (id, "\(identifier)_\(number)", "\(name) \(number)")
        if rng.chance(perMille: 250) {
            return object(
                Paywall.self,
                [
                    .configFormatVersion: 1,
                    .id: .string(common.0),
                    .identifier: .string(common.1),
                    .name: .string(common.2),
                    .offering: offering,
                    .remoteConfig: object(
                        RemoteConfig.self,
                        [
                            .data: object([
                                "cta": "Start free trial",
                                "headline": "Go Premium",
                                "highlightPackage": .string("premium_" + kinds[0]),
                            ]),
                            .locale: "en",
                        ]),
                ])
        }
        return object(
            Paywall.self,
            [
                .builderConfig: builderConfig(locales: locales, packageIds: kinds.map { "premium_" + $0 }),
                .configFormatVersion: 2,
                .id: .string(common.0),
                .identifier: .string(common.1),
                .name: .string(common.2),
                .offering: offering,
                .remoteConfig: nil,
            ])
    }

    private func package(_ kind: String, order: Int) -> JSONValue {
        let lifetime = kind == "lifetime"
        return object([
            .init("accessIds", ["acs_premium"]),
            .init(Package.Field.androidBasePlanId, lifetime ? nil : .string(kind)),
            .init(Package.Field.androidOfferId, kind == "annual" ? "trial-7d" : nil),
            .init(Package.Field.displayName, .string("Premium " + kind.prefix(1).uppercased() + String(kind.dropFirst()))),
            .init(Package.Field.identifier, .string("premium_" + kind)),
            .init("isPromoted", .bool(order == 1)),
            .init("metadata", .object([])),
            .init("order", .int(order)),
            .init(Package.Field.packageIdentifier, .string("$rov_" + kind)),
            .init(
                Package.Field.storeIds,
                object(
                    StoreIds.self,
                    [
                        .apple: .string("com.\(project.app).premium.\(kind)"),
                        .google: .string(lifetime ? "premium_lifetime" : "premium"),
                    ])),
            .init(Package.Field.type, lifetime ? "NON_CONSUMABLE" : "SUBSCRIPTION"),
        ])
    }

    private func builderConfig(locales: [SampleLocale], packageIds: [String]) -> JSONValue {
        let hero = "https://cdn.\(project.app).app/paywalls/hero"
        return object([
            "background": object(["dark": "#0B0B0F", "light": "#FFFFFF"]),
            "defaultLocale": "en",
            "formatVersion": 2,
            "localizations": .object(
                locales.map { locale in
                    JSONValue.Member(
                        locale.code,
                        .object(
                            Vocabulary.paywallCopy.map {
                                JSONValue.Member($0.key, .string($0.phrase[locale]))
                            }))
                }),
            "root": object([
                "align": "center",
                "axis": "v",
                "children": [
                    object([
                        "alt": "hero.title", "cornerRadius": 12, "height": 160, "id": "hero-image", "type": "image",
                        "url": object(["dark": .string(hero + "-dark.png"), "light": .string(hero + ".png")]),
                    ]),
                    object([
                        "align": "center", "id": "hero-title", "key": "hero.title", "role": "title", "type": "text",
                    ]),
                    object([
                        "align": "center", "color": object(["dark": "#9CA3AF", "light": "#4B5563"]),
                        "id": "hero-subtitle", "key": "hero.subtitle", "role": "subtitle", "type": "text",
                    ]),
                    object([
                        "cellLayout": "column", "defaultSelected": .string(packageIds[0]), "id": "packages",
                        "packageIds": .strings(packageIds), "type": "packageList",
                    ]),
                    object(["id": "purchase-cta", "labelKey": "cta.purchase", "type": "purchaseButton"]),
                    object([
                        "action": object(["kind": "restore"]), "id": "restore-cta", "labelKey": "cta.restore",
                        "style": "plain", "type": "button",
                    ]),
                    object([
                        "action": object(["kind": "url", "url": .string("https://\(project.app).app/terms")]),
                        "id": "terms-cta", "labelKey": "cta.terms", "style": "plain", "type": "button",
                    ]),
                ],
                "id": "root",
                "padding": object(["b": 32, "l": 20, "r": 20, "t": 24]),
                "size": object(["height": "fill", "width": "fill"]),
                "spacing": 16,
                "type": "stack",
            ]),
        ])
    }
}

/// The fields of one funnel page, written in ascending key order.
struct PageFields {
    var agreementLabel: JSONValue?
    var benefits: JSONValue?
    var body: JSONValue?
    var cta: JSONValue?
    var defaultNext: String?
    var duration: Int?
    var features: JSONValue?
    var headline: JSONValue?
    var id: String
    var max: Int?
    var mediaKind: String?
    var mediaUrl: String?
    var min: Int?
    var nextRules: [JSONValue] = []
    var options: [JSONValue]?
    var paywallId: String?
    var placeholder: JSONValue?
    var questionId: String?
    var required: Bool?
    var step: Int?
    var steps: JSONValue?
    var subtitle: JSONValue?
    var suffix: JSONValue?
    var title: JSONValue?
    var titlePhrase: Phrase?
    var type: String

    init(id: String, type: String) {
        self.id = id
        self.type = type
    }

    func json() -> JSONValue {
        /// A field of the contract's `Page`, when set.
        func field(_ field: Page.Field, _ value: JSONValue?) -> JSONValue.Member? {
            value.map { JSONValue.Member(field, $0) }
        }
        /// A page field the decoder does not read (§4: it stays in the snapshot), when set.
        func other(_ key: String, _ value: JSONValue?) -> JSONValue.Member? {
            value.map { JSONValue.Member(key, $0) }
        }
        let members: [JSONValue.Member?] = [
            field(.agreementLabel, agreementLabel),
            field(.benefits, benefits),
            field(.body, body),
            field(.cta, cta),
            field(.defaultNext, defaultNext.map { .string($0) }),
            other("duration", duration.map { .int($0) }),
            field(.features, features),
            field(.headline, headline),
            field(.id, .string(id)),
            other("max", max.map { .int($0) }),
            other("mediaKind", mediaKind.map { .string($0) }),
            other("mediaUrl", mediaUrl.map { .string($0) }),
            other("min", min.map { .int($0) }),
            field(.nextRules, .array(nextRules)),
            field(.options, options.map { .array($0) }),
            field(.paywallId, paywallId.map { .string($0) }),
            field(.placeholder, placeholder),
            field(.questionId, questionId.map { .string($0) }),
            other("required", required.map { .bool($0) }),
            other("step", step.map { .int($0) }),
            field(.steps, steps),
            field(.subtitle, subtitle),
            field(.suffix, suffix),
            field(.title, title),
            field(.type, .string(type)),
        ]
        return object(members.compactMap { $0 })
    }
}
