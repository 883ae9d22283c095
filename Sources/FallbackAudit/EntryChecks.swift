import RovenueFallback

extension AuditRun {
    /// The longest placement key or identifier that is not reported.
    static let maximumIdentifierLength = 160

    mutating func checkEntry(_ record: EntryRecord) {
        let key = record.key
        checkDuplicateKey(record)
        if let problems = Self.identifierProblems(key) {
            reportIdentifier(
                key, problems, what: "Placement key", key: key, at: .key(record.lastKeyRef.node))
        }
        checkDuplicateFields(record)
        checkArrayForms(record)
        switch record.outcome {
        case .skipped(let failure):
            let pointer = document.value(at: failure.source.node).pointer
            report(
                .entrySkipped,
                "The SDK skips placement \(Format.quoted(key)) and logs `fallback placement entry skipped: \(key)`: at "
                    + "\(pointer.isEmpty ? "/" : pointer), \(failure.expectation). The entry does not count toward the "
                    + "loaded total, and getFunnel/getPaywall(\(Format.quoted(key))) gets nothing from the fallback.",
                about: .placement(key: ExactKey(key)), at: failure.source.node)
        case .loaded(let entry):
            checkPlacement(entry, key: key)
            checkTargets(entry, key: key)
            if let experiment = entry.experiment {
                checkExperiment(experiment, key: key)
            }
            let placementKey = ExactKey(key)
            var checked = CheckedContent()
            if let funnel = entry.funnel {
                checkFunnel(funnel, as: .init(placementKey: placementKey, route: .direct, id: ExactKey(funnel.id)), checked: &checked)
            }
            if let paywall = entry.paywall {
                checkPaywallMedia(paywall, of: .placement(key: placementKey, route: .direct), checked: &checked)
            }
            for (index, variant) in (entry.experiment?.variants ?? []).enumerated() {
                let route = FindingSubject.Route.variant(index: index, id: ExactKey(variant.variantId))
                if let funnel = variant.funnel {
                    checkFunnel(funnel, as: .init(placementKey: placementKey, route: route, id: ExactKey(funnel.id)), checked: &checked)
                }
                if let paywall = variant.paywall {
                    checkPaywallMedia(paywall, of: .placement(key: placementKey, route: route), checked: &checked)
                }
            }
        }
    }

    private mutating func checkDuplicateKey(_ record: EntryRecord) {
        guard !record.earlierKeyRefs.isEmpty else { return }
        let kept = position(ofNode: record.lastKeyRef.node)
        for ref in record.earlierKeyRefs {
            report(
                .duplicateKey,
                "Placement key \(Format.quoted(record.key)) appears \(record.keyCount) times in placements: the SDK "
                    + "silently keeps the last occurrence (line \(kept.line), column \(kept.column)) and ignores this one.",
                about: .placement(key: ExactKey(record.key)), at: .key(ref.node))
        }
    }

    private mutating func checkDuplicateFields(_ record: EntryRecord) {
        for duplicate in record.duplicateFields {
            guard let first = duplicate.values.first, let last = duplicate.values.last else { continue }
            let kept = position(ofNode: last.node)
            report(
                .duplicateKey,
                "Field \(Format.quoted(duplicate.field)) is written \(duplicate.values.count) times in the same object: the "
                    + "SDK keeps the last one (line \(kept.line), column \(kept.column)) and ignores the others.",
                about: .placement(key: ExactKey(record.key)), at: first.node)
        }
    }

    private mutating func checkArrayForms(_ record: EntryRecord) {
        for form in record.shapedArrayForms {
            let listed = form.writtenFieldNames.joined(separator: ", ")
            report(
                .arrayAsObject,
                "This \(form.shape.displayName) is written as an array of its fields [\(listed)] instead of an "
                    + "object: a quirk the SDK accepts but no dashboard export produces, and other tools misread. "
                    + "Write it as an object.",
                about: .placement(key: ExactKey(record.key)), at: form.source.node)
        }
    }

    private mutating func checkPlacement(_ entry: FallbackEntry, key: String) {
        guard let placement = entry.placement else { return }
        if let problems = Self.identifierProblems(placement.identifier) {
            reportIdentifier(
                placement.identifier, problems, what: "placement.identifier", key: key,
                at: .value(node(of: .identifier, in: placement)))
        }
        if !ExactKey.same(placement.identifier, key) {
            let other =
                switch offlineLookup(ofKey: placement.identifier) {
                case .nothing: "nothing"
                case .entry(servingNothingFor: nil): "the entry under that key"
                case .entry(servingNothingFor: let reason?): "the entry under that key, which serves \(reason.summary),"
                }
            report(
                .keyMismatch,
                "Placement key \(Format.quoted(key)) differs from placement.identifier \(Format.quoted(placement.identifier)): "
                    + "getFunnel/getPaywall(\(Format.quoted(key))) finds this entry but exposure and the presented context "
                    + "report \(Format.quoted(placement.identifier)), and getFunnel/getPaywall(\(Format.quoted(placement.identifier))) "
                    + "finds \(other) offline.",
                about: .placement(key: ExactKey(key)), at: node(of: .identifier, in: placement))
        }
        if placement.revision < 1 {
            report(
                .revisionInvalid,
                "placement.revision is \(placement.revision): dashboard revisions start at 1, so this entry was edited by "
                    + "hand or does not come from an export.",
                about: .placement(key: ExactKey(key)), at: node(of: .revision, in: placement))
        }
    }

    /// What is wrong with a placement key or identifier, if anything.
    ///
    /// An identifier of at most `maximumIdentifierLength` bytes whose first and last bytes are ASCII
    /// but not whitespace (a space, or a control from tab to carriage return) has nothing wrong,
    /// as nearly every one has: it is answered from those bytes, without breaking the text into
    /// characters. A character is whitespace when its first scalar is, so the first character is
    /// not; and a last character that ends in such a byte is that byte alone or begins with a
    /// prepended mark, never with whitespace (a grapheme cluster joins a scalar only to a prepended
    /// mark before it, or to the extending marks and joiners after it, and no ASCII byte but a line
    /// feed after a carriage return extends another).
    private static func identifierProblems(_ identifier: String) -> String? {
        func isPlainASCII(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
        let utf8 = identifier.utf8
        if let first = utf8.first, let last = utf8.last, utf8.count <= maximumIdentifierLength, isPlainASCII(first), isPlainASCII(last) {
            return nil
        }
        if identifier.isEmpty { return "is empty" }
        var problems: [String] = []
        if identifier.first!.isWhitespace || identifier.last!.isWhitespace {
            problems.append("has leading or trailing whitespace")
        }
        // A character takes at least one byte.
        if identifier.utf8.count > maximumIdentifierLength, identifier.count > maximumIdentifierLength {
            problems.append("is \(identifier.count) characters long (over \(maximumIdentifierLength))")
        }
        return problems.isEmpty ? nil : problems.joined(separator: " and ")
    }

    private mutating func reportIdentifier(_ identifier: String, _ problems: String, what: String, key: String, at anchor: Anchor) {
        report(
            .identifierInvalid,
            "\(what) \(Format.quoted(identifier)) \(problems): the app's "
                + "getFunnel/getPaywall call must spell it exactly (lookups are exact and case-sensitive), and the "
                + "dashboard never exports such an identifier.",
            about: .placement(key: ExactKey(key)), at: anchor)
    }

    /// Reports an entry that loads but serves nothing offline, for the reason `OfflineTarget` gives,
    /// then a direct target that shadows what is written beside it.
    private mutating func checkTargets(_ entry: FallbackEntry, key: String) {
        switch entry.offlineTarget {
        case .nothing(.placementMissing, _):
            report(
                .servesNothing,
                "Entry \(Format.quoted(key)) has no placement: it loads and counts toward the total, but an offline "
                    + "device is served nothing for it.",
                about: .placement(key: ExactKey(key)), at: entry.source.node)
        case .nothing(.noVariants, let experiment?):
            report(
                .servesNothing,
                "Experiment \(Format.quoted(experiment.id)) of placement \(Format.quoted(key)) has no variants: the "
                    + "entry loads, but an offline device draws nothing and is served nothing.",
                about: .experiment(placementKey: ExactKey(key), id: ExactKey(experiment.id)),
                at: node(of: .variants, in: experiment))
        case .nothing(.noTarget, _):
            report(
                .servesNothing,
                "Placement \(Format.quoted(key)) has no funnel, paywall or experiment: the entry loads and counts, "
                    + "but an offline device is served nothing.",
                about: .placement(key: ExactKey(key)), at: entry.source.node)
        case .funnel, .paywall, .experiment, .nothing(.noVariants, nil):
            break
        }
        checkShadowing(entry, key: key)
    }

    private mutating func checkShadowing(_ entry: FallbackEntry, key: String) {
        if let funnel = entry.funnel {
            var shadowed: [String] = []
            var anchor: Int?
            if let paywall = entry.paywall {
                shadowed.append("paywall \(Format.quoted(paywall.id))")
                anchor = node(of: .paywall, in: entry)
            }
            if let experiment = entry.experiment {
                shadowed.append("experiment \(Format.quoted(experiment.id))")
                anchor = anchor ?? node(of: .experiment, in: entry)
            }
            if let anchor {
                report(
                    .shadowedTarget,
                    "Placement \(Format.quoted(key)) has funnel \(Format.quoted(funnel.id)) and "
                        + "\(shadowed.joined(separator: " and ")): the SDK serves the funnel (§5: a funnel wins over a "
                        + "paywall, a direct target over an experiment), so the \(shadowed.count == 1 ? "other is" : "others are") never served.",
                    about: .placement(key: ExactKey(key)), at: anchor)
            }
        } else if let paywall = entry.paywall, let experiment = entry.experiment {
            report(
                .shadowedTarget,
                "Placement \(Format.quoted(key)) has paywall \(Format.quoted(paywall.id)) and experiment "
                    + "\(Format.quoted(experiment.id)): the SDK serves the paywall (§5: a direct target wins over an "
                    + "experiment) and never draws a variant.",
                about: .placement(key: ExactKey(key)), at: node(of: .experiment, in: entry))
        }
        for (index, variant) in (entry.experiment?.variants ?? []).enumerated() {
            if let funnel = variant.funnel, let paywall = variant.paywall {
                report(
                    .shadowedTarget,
                    "Variant \(Format.quoted(variant.variantId)) has funnel \(Format.quoted(funnel.id)) and paywall "
                        + "\(Format.quoted(paywall.id)): a subscriber who draws it is served the funnel, never the paywall.",
                    about: .variant(placementKey: ExactKey(key), index: index, id: ExactKey(variant.variantId)),
                    at: node(of: .paywall, in: variant))
            }
        }
    }
}
