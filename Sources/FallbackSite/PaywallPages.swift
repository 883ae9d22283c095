import FallbackMustache
import RovenueFallback

// MARK: - Paywall pages (issue 9, point 3)

extension SiteModel {
    /// Where a paywall is found: on a placement, on a variant of its experiment, or in a funnel's `paywalls` map.
    public struct PaywallUse: Sendable {
        public enum Place: Sendable {
            case placement(key: String)
            case variant(placementKey: String, variantId: String)
            /// `key` is the funnel's `paywalls` map key (the funnel's paywall pages name it in `paywallId`).
            case funnel(id: String, key: String)
        }

        public let place: Place
        /// Which of the paywall's distinct contents (`PaywallInfo.versions`) this place carries.
        public let version: Int
    }

    /// One paywall id, with every distinct content the file gives it.
    public struct PaywallInfo: Sendable {
        public let id: String
        public let fileName: String
        /// The distinct contents (as written) under this id, in order of first appearance; never empty.
        public let versions: [Paywall]
        public let uses: [PaywallUse]
    }

    /// Every paywall of the loaded entries, their variants and the funnels that have a page, by id
    /// in order of first appearance; contents compared as written.
    static func collectPaywalls(file: FallbackFile, funnels: [FunnelInfo]) -> [PaywallInfo] {
        var order: [ExactKey] = []
        var versions: [ExactKey: [Paywall]] = [:]
        // Each id's versions by the hash of their content, compared as values only when the hashes
        // meet: so many contents under one id cost no pairwise comparisons, and no content is kept
        // whole (a copy of every paywall's JSON would be the build's largest holding).
        var versionsOfHash: [ExactKey: [Int: [Int]]] = [:]
        var uses: [ExactKey: [PaywallUse]] = [:]
        func content(_ paywall: Paywall) -> JSONValue { file.document.value(at: paywall.source.node).owned }
        func add(_ paywall: Paywall, _ place: PaywallUse.Place) {
            let id = ExactKey(paywall.id)
            // An id's first content has nothing to be compared with: it is hashed only when a
            // second one comes (most ids have one), so most paywalls are never copied out.
            guard versions[id] != nil else {
                order.append(id)
                versions[id] = [paywall]
                uses[id] = [PaywallUse(place: place, version: 0)]
                return
            }
            if versionsOfHash[id] == nil { versionsOfHash[id] = [content(versions[id]![0]).hashValue: [0]] }
            let written = content(paywall)
            let hash = written.hashValue
            let known = versionsOfHash[id]?[hash]?.first { content(versions[id]![$0]) == written }
            let version: Int
            if let known {
                version = known
            } else {
                version = versions[id, default: []].count
                versions[id, default: []].append(paywall)
                versionsOfHash[id, default: [:]][hash, default: []].append(version)
            }
            uses[id, default: []].append(PaywallUse(place: place, version: version))
        }
        for (key, entry) in file.loadedEntries {
            if let paywall = entry.paywall { add(paywall, .placement(key: key)) }
            for variant in entry.experiment?.variants ?? [] {
                if let paywall = variant.paywall { add(paywall, .variant(placementKey: key, variantId: variant.variantId)) }
            }
        }
        for info in funnels {
            let map = info.funnel.paywalls
            for (key, paywall) in zip(map?.keys ?? [], map?.values ?? []) { add(paywall, .funnel(id: info.funnel.id, key: key)) }
        }
        let names = PageNames(identifiers: order.map(\.string))
        return order.map { id in
            PaywallInfo(id: id.string, fileName: names.name(for: id.string), versions: versions[id]!, uses: uses[id]!)
        }
    }

    func paywallInfo(id: String) -> PaywallInfo? {
        paywallIndex[ExactKey(id)].map { paywalls[$0] }
    }

    /// The path of the page of the paywall `id`, nil when the site has none.
    func paywallPath(_ id: String) -> String? {
        paywallInfo(id: id).map { "paywalls/\($0.fileName).html" }
    }

    /// A paywall as a placement or a variant shows it, linked to its page.
    func paywallSummary(_ paywall: Paywall, root: String, name: String? = nil) -> PaywallSummary {
        PaywallSummary(
            id: SiteModel.name(paywall.id), identifier: SiteModel.name(paywall.identifier), name: name,
            path: paywallPath(paywall.id).map { root + $0 })
    }

    func paywallPage(id: String, root: String, values: PageValues) -> PaywallPage? {
        guard let info = paywallInfo(id: id) else { return nil }
        let versions = info.versions.enumerated().map { index, paywall in
            let offering = paywall.offering.map { offering in
                // Read once: each read of `packages` decodes them from the document (`Offering`).
                let packages = offering.packages
                return PaywallPage.OfferingRow(
                    identifier: SiteModel.name(offering.identifier), isDefault: offering.isDefault,
                    packages: packages.map { package in
                        PaywallPage.PackageRow(
                            packageIdentifier: SiteModel.name(package.packageIdentifier), identifier: SiteModel.name(package.identifier),
                            type: SiteModel.name(package.type), displayName: package.displayName,
                            apple: package.storeIds.apple.map { SiteModel.name($0) }, google: package.storeIds.google.map { SiteModel.name($0) },
                            androidBasePlanId: package.androidBasePlanId.map { SiteModel.name($0) },
                            androidOfferId: package.androidOfferId.map { SiteModel.name($0) })
                    },
                    hasPackages: !packages.isEmpty)
            }
            let remoteConfig = paywall.remoteConfig.map { config in
                PaywallPage.RemoteConfigRow(
                    locale: SiteModel.name(config.locale),
                    data: values.html(utf8: SourceListing.bytes(for: config.data, key: nil, findings: [])))
            }
            return PaywallPage.Version(
                number: index + 1, identifier: SiteModel.name(paywall.identifier), name: paywall.name,
                configFormatVersion: String(paywall.configFormatVersion), offering: offering, remoteConfig: remoteConfig,
                preview: PaywallPreview(paywall, in: snapshot.file, memo: paywallTexts))
        }
        let uses = info.uses.map { use in
            let version = use.version + 1
            switch use.place {
            case .placement(let key):
                return PaywallPage.Use(kind: "placement", name: SiteModel.name(key), path: root + placementPath(key), version: version)
            case .variant(let key, let variantId):
                let path = experimentInfo(placementKey: key).map { "experiments/\($0.fileName).html#variants" } ?? placementPath(key)
                return PaywallPage.Use(
                    kind: "variant", name: SiteModel.name(variantId), path: root + path, version: version, placement: SiteModel.name(key))
            case .funnel(let funnelId, let key):
                let link = funnelLink(funnelId, root: root)
                return PaywallPage.Use(
                    kind: "funnel", name: link?.name ?? SiteModel.name(funnelId), path: link?.path ?? "", version: version,
                    mapKey: ExactKey.same(key, info.id) ? nil : SiteModel.name(key))
            }
        }
        let shown = info.versions[0]
        return PaywallPage(
            id: SiteModel.name(info.id), fullId: SiteModel.fullName(info.id, values: values), identifier: SiteModel.name(shown.identifier),
            name: shown.name, versionCount: versions.count, differs: versions.count > 1, versions: versions, uses: uses)
    }
}

struct PaywallPage: TemplateContext {
    struct PackageRow: TemplateContext {
        var packageIdentifier: String
        var identifier: String
        var type: String
        var displayName: String
        var apple: String?
        var google: String?
        var androidBasePlanId: String?
        var androidOfferId: String?

        static let fields: TemplateFields<Self> = [
            .init("packageIdentifier", \.packageIdentifier), .init("identifier", \.identifier), .init("type", \.type),
            .init("displayName", \.displayName), .init("apple", \.apple), .init("google", \.google),
            .init("androidBasePlanId", \.androidBasePlanId), .init("androidOfferId", \.androidOfferId),
        ]
    }

    struct OfferingRow: TemplateContext {
        var identifier: String
        var isDefault: Bool
        var packages: [PackageRow]
        var hasPackages: Bool

        static let fields: TemplateFields<Self> = [
            .init("identifier", \.identifier), .init("isDefault", \.isDefault), .init("packages", \.packages), .init("hasPackages", \.hasPackages),
        ]
    }

    struct RemoteConfigRow: TemplateContext {
        var locale: String
        var data: TrustedHTML

        static let fields: TemplateFields<Self> = [.init("locale", \.locale), .init("data", \.data)]
    }

    /// One distinct content of the paywall.
    struct Version: TemplateContext {
        var number: Int
        var identifier: String
        var name: String
        var configFormatVersion: String
        var offering: OfferingRow?
        var remoteConfig: RemoteConfigRow?
        /// The paywall in a phone frame (`Previews.swift`).
        var preview: PaywallPreview

        static let fields: TemplateFields<Self> = [
            .init("number", \.number), .init("identifier", \.identifier), .init("name", \.name),
            .init("configFormatVersion", \.configFormatVersion), .init("offering", \.offering), .init("remoteConfig", \.remoteConfig),
            .init("preview", \.preview),
        ]
    }

    /// A placement, a variant or a funnel that carries the paywall.
    struct Use: TemplateContext {
        var kind: String
        var name: String
        var path: String
        var version: Int
        /// For a variant: the placement that runs its experiment.
        var placement: String? = nil
        /// For a funnel whose `paywalls` map names the paywall by another key.
        var mapKey: String? = nil
        var isPlacement: Bool { kind == "placement" }
        var isVariant: Bool { kind == "variant" }
        var isFunnel: Bool { kind == "funnel" }

        static let fields: TemplateFields<Self> = [
            .init("kind", \.kind), .init("name", \.name), .init("path", \.path), .init("version", \.version),
            .init("isPlacement", \.isPlacement), .init("isVariant", \.isVariant), .init("isFunnel", \.isFunnel),
            .init("placement", \.placement), .init("mapKey", \.mapKey),
        ]
    }

    var id: String
    var fullId: TrustedHTML?
    var identifier: String
    var name: String
    var versionCount: Int
    var differs: Bool
    var versions: [Version]
    var uses: [Use]

    static let fields: TemplateFields<Self> = [
        .init("id", \.id), .init("fullId", \.fullId), .init("identifier", \.identifier), .init("name", \.name),
        .init("versionCount", \.versionCount), .init("differs", \.differs), .init("versions", \.versions), .init("uses", \.uses),
    ]
}
