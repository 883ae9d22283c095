import RovenueFallback

extension AuditRun {
    /// How far the weights may sum from 1 before `weights-sum` reports it.
    static let weightSumTolerance = 1e-9

    mutating func checkExperiment(_ experiment: Experiment, key: String) {
        let variants = experiment.variants
        guard !variants.isEmpty else { return }
        var name: String { "Experiment \(Format.quoted(experiment.id))" }
        var subject: FindingSubject { .experiment(placementKey: ExactKey(key), id: ExactKey(experiment.id)) }
        let variantsNode = node(of: .variants, in: experiment)
        let weights = variants.map(\.weight)
        let shares = Bucketing.shares(weights: weights)
        let sum = weights.reduce(0, +)

        if variants.count == 1 {
            report(
                .singleVariant,
                "\(name) has a single variant \(Format.quoted(variants[0].variantId)): every subscriber draws it, so "
                    + "there is nothing to compare. Add a variant or target the \(variants[0].offlineTarget.kind.rawValue) directly.",
                about: subject, at: variantsNode)
        }

        let looksLikePercent = weights.contains { $0 > 1 } || abs(sum - 100) <= 1
        if looksLikePercent {
            let written = weights.count <= 8 ? " (" + variants.map(\.weightText).joined(separator: ", ") + ")" : ""
            report(
                .weightsPercent,
                "\(name)'s weights look like percentages\(written), but weights are fractions of 1 (0.5, not 50): "
                    + "\(Self.winnerText(variants, shares)). Effective split: \(Self.split(variants, shares)).",
                about: subject, at: variantsNode)
        } else if abs(sum - 1) > Self.weightSumTolerance {
            let consequence = sum < 1
                ? "the last variant \(Format.quoted(variants[variants.count - 1].variantId)) absorbs the missing "
                    + "\(Format.decimal(1 - sum))"
                : "the variants are cut off once 10000 buckets are handed out"
            report(
                .weightsSum,
                "\(name)'s weights sum to \(Format.decimal(sum)), not 1: \(consequence). Effective split: "
                    + "\(Self.split(variants, shares)).",
                about: subject, at: variantsNode)
        }

        var firstIndexOfId: [ExactKey: Int] = [:]
        for (index, variant) in variants.enumerated() {
            var variantSubject: FindingSubject { .variant(placementKey: ExactKey(key), index: index, id: ExactKey(variant.variantId)) }
            if variant.weight <= 0 {
                let received = "it receives \(shares[index]) of 10000 buckets (\(Format.percent(buckets: shares[index])))"
                let effect: String
                if variant.weight < 0 {
                    effect = "a negative weight also takes buckets from the variants after it; \(received)"
                } else if shares[index] > 0 {
                    effect = "\(received), only because the last variant absorbs what the weights leave"
                } else {
                    effect = "\(received), so no subscriber draws it offline"
                }
                report(
                    .weightNotPositive,
                    "Variant \(Format.quoted(variant.variantId)) of \(name.lowercasedFirst) has weight \(variant.weightText): "
                        + "\(effect).",
                    about: variantSubject, at: node(of: .weight, in: variant))
            }
            if let first = firstIndexOfId[ExactKey(variant.variantId)] {
                report(
                    .duplicateVariantId,
                    "Variants #\(first + 1) and #\(index + 1) of \(name.lowercasedFirst) share variantId "
                        + "\(Format.quoted(variant.variantId)): exposures of both report the same id, so their results "
                        + "cannot be told apart.",
                    about: variantSubject, at: node(of: .variantId, in: variant))
            } else {
                firstIndexOfId[ExactKey(variant.variantId)] = index
            }
        }
    }

    /// `control 5000 buckets (50%), b 5000 (50%)`.
    static func split(_ variants: [Variant], _ shares: [Int]) -> String {
        var parts: [String] = []
        for (index, variant) in variants.enumerated().prefix(12) {
            let unit = index == 0 ? " buckets" : ""
            parts.append("\(Format.quoted(variant.variantId)) \(shares[index])\(unit) (\(Format.percent(buckets: shares[index])))")
        }
        if variants.count > 12 { parts.append("and \(variants.count - 12) more") }
        return parts.joined(separator: ", ")
    }

    /// Who gets the subscribers when the weights are percentages.
    static func winnerText(_ variants: [Variant], _ shares: [Int]) -> String {
        if let winner = shares.firstIndex(of: Bucketing.bucketCount) {
            return "every subscriber draws \(Format.quoted(variants[winner].variantId))"
        }
        return "the variants that first reach 10000 buckets take everyone"
    }
}

extension String {
    /// The string with its first character lowercased (`Experiment "x"` → `experiment "x"`).
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
