import RovenueFallback

extension SnapshotDiff {
    /// What differs between two funnels of one snapshot, as the diff words a funnel's changes
    /// between two snapshots (`page-added`, `page-removed`, `copy-changed`, `rule-changed`, …):
    /// pages matched by id, options by value, rules by id. The experiment page compares each
    /// variant's funnel with the first variant's this way.
    ///
    /// Changes are reported under `placementKey` and `variantId`, the funnel named by `new`'s id.
    public static func funnelChanges(
        from old: Funnel, to new: Funnel, in file: FallbackFile, placementKey: String?, variantId: String?
    ) -> [Change] {
        compare(old, new, in: file, placementKey: placementKey, variantId: variantId, keeping: .changes).changes
    }

    /// `funnelChanges`' changes as outlines (kind and ids), in the same order: the same comparison,
    /// which does not build messages, values, locations or copy.
    public static func funnelChangeOutlines(
        from old: Funnel, to new: Funnel, in file: FallbackFile, placementKey: String?, variantId: String?
    ) -> [Change.Outline] {
        compare(old, new, in: file, placementKey: placementKey, variantId: variantId, keeping: .outlines).outlines
    }

    private static func compare(
        _ old: Funnel, _ new: Funnel, in file: FallbackFile, placementKey: String?, variantId: String?, keeping: DiffRun.Keeping
    ) -> DiffRun {
        var run = DiffRun(old: file, new: file, keeping: keeping)
        run.compareFunnels(old, new, in: ChangeScope(placement: placementKey, variant: variantId, funnel: new.id))
        return run
    }
}
