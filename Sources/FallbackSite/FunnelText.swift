import RovenueFallback

/// Words for a funnel's pieces: translation coverage per locale.
enum FunnelText {
    /// How many of the funnel's texts (page text fields, text lists, option labels) a device with
    /// `locale` shows non-empty, out of how many it has. A plain string counts for every locale.
    static func coverage(of funnel: Funnel, locale: String) -> (present: Int, total: Int) {
        var present = 0
        var total = 0
        func count(_ text: LocalizedText) {
            total += 1
            if let value = text.text(for: locale), !value.isEmpty { present += 1 }
        }
        for page in funnel.pages {
            for (_, text) in page.texts { count(text) }
            for (_, list) in page.textLists {
                total += 1
                if let values = list.list(for: locale), !values.isEmpty, values.allSatisfy({ !$0.isEmpty }) { present += 1 }
            }
            for option in page.options ?? [] { count(option.label) }
        }
        return (present, total)
    }
}

/// An experiment's allocation of the 10,000 buckets as a bar in bucket units, one segment per variant.
enum AllocationBar {
    static func svg(variantIds: [String], shares: [Int]) -> String {
        var label: [String] = []
        var rects = ""
        var start = 0
        for (index, share) in shares.enumerated() where share > 0 {
            label.append("\(start)–\(start + share - 1) \(variantIds[index])")
            rects += "<rect class=\"alloc-segment v\(index % 8)\" x=\"\(start)\" y=\"0\" width=\"\(share)\" height=\"1\"/>"
            start += share
        }
        let description = MarkupEscaping.html("Buckets " + label.joined(separator: ", "))
        return "<svg class=\"alloc-bar\" viewBox=\"0 0 \(Bucketing.bucketCount) 1\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"\(description)\">"
            + rects + "</svg>"
    }
}
