import RovenueFallback

/// File names for pages named after snapshot identifiers: safe on every file system, unique, and
/// stable across builds and snapshots.
///
/// An identifier that is already a clean slug (lowercase ASCII letters, digits, `-` and `_`, at
/// most `maximumLength` characters, not a reserved device name, not starting with `.`) is used as
/// it is. Anything else becomes a slug followed by a hash of the exact identifier, so `Onboarding`,
/// `onboarding ` and `../onboarding` never share a name with `onboarding` or with each other, and
/// a name never depends on which other identifiers happen to be in the snapshot. Names are only
/// ever single path components: no separator, no `..`, nothing that leaves the output folder.
///
/// Names are lowercase ASCII, so file systems that normalise Unicode or fold case (APFS, HFS+,
/// NTFS) keep two names apart exactly when they differ. A clean identifier may spell another's
/// hashed name; then every hash is lengthened, up to the whole SHA-256, whose names (`x-` and 64
/// hex digits, `maximumLength + 2` characters) no clean identifier can spell.
public struct PageNames: Sendable {
    public static let maximumLength = 64

    /// Windows device names, which no file may be called, with or without an extension.
    static let reservedNames: Set<String> = [
        "con", "prn", "aux", "nul", "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
        "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
    ]

    private var nameOfIdentifier: [ExactKey: String] = [:]
    /// True when every identifier given is a clean slug, so each is its own name and
    /// `nameOfIdentifier` is left empty.
    private var identifiersAreNames = false

    /// Names every identifier; the result does not depend on their order.
    public init(identifiers: some Sequence<String>) {
        let identifiers = Array(identifiers)
        // Most often every identifier is a clean slug: each is its own name, and no two names can
        // meet (only a hashed name could spell a clean identifier), so nothing is hashed or stored.
        // A funnel's pages are named for every page that links to them.
        if identifiers.allSatisfy({ PageNames.isCleanSlug($0.utf8) }) {
            identifiersAreNames = true
            return
        }
        let unique = Set(identifiers.map(ExactKey.init)).sorted { ExactKey.precedes($0.string, $1.string) }
        var hashLength = 8
        while true {
            var names: [ExactKey: String] = [:]
            var taken: [String: Int] = [:]
            for identifier in unique {
                let name = PageNames.name(for: Array(identifier.utf8), hashLength: hashLength)
                names[identifier] = name
                taken[name, default: 0] += 1
            }
            // A clean identifier can spell another's slug and hash: lengthen every hash until no two meet.
            if taken.values.allSatisfy({ $0 == 1 }) || hashLength >= 64 {
                nameOfIdentifier = names
                return
            }
            hashLength *= 2
        }
    }

    /// The file name stem for `identifier` (one of those given at creation).
    public func name(for identifier: String) -> String {
        // A clean identifier, given or not, is its own name; any other was not given.
        if identifiersAreNames, PageNames.isCleanSlug(identifier.utf8) { return identifier }
        return nameOfIdentifier[ExactKey(identifier)] ?? PageNames.name(for: Array(identifier.utf8), hashLength: 16)
    }

    /// True when `identifier` can serve as a file name stem as it is.
    public static func isCleanSlug(_ identifier: [UInt8]) -> Bool {
        isCleanSlug(identifier[...])
    }

    /// True when the UTF-8 `identifier` can serve as a file name stem as it is.
    static func isCleanSlug<Bytes: Collection<UInt8>>(_ identifier: Bytes) -> Bool {
        // A `String`'s UTF-8 (every identifier a page names) is read from its storage: walked as
        // a generic collection it cost about 500 instructions an identifier, 61,000 in a 1k build.
        if let clean = identifier.withContiguousStorageIfAvailable({ isCleanSlugBytes($0) }) { return clean }
        return isCleanSlugBytes(identifier)
    }

    /// `isCleanSlug` over any collection of UTF-8 bytes.
    private static func isCleanSlugBytes<Bytes: Collection<UInt8>>(_ identifier: Bytes) -> Bool {
        guard !identifier.isEmpty, identifier.count <= maximumLength, identifier.first != UInt8(ascii: "."),
            identifier.allSatisfy(isSlugByte)
        else { return false }
        // Every reserved name is three or four letters long.
        let stem = identifier.prefix { $0 != UInt8(ascii: ".") }
        guard stem.count == 3 || stem.count == 4 else { return true }
        return !reservedNames.contains(String(decoding: stem, as: UTF8.self))
    }

    static func isSlugByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    static func name(for identifier: [UInt8], hashLength: Int) -> String {
        if isCleanSlug(identifier) { return String(decoding: identifier, as: UTF8.self) }
        var slug: [UInt8] = []
        for byte in identifier {
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            if isSlugByte(lowered) {
                slug.append(lowered)
            } else if slug.last != UInt8(ascii: "-") {
                slug.append(UInt8(ascii: "-"))
            }
        }
        // Trimmed in one step: removing the first byte at a time is quadratic in a run of `_`.
        let isLetterOrDigit = { (byte: UInt8) in byte != UInt8(ascii: "-") && byte != UInt8(ascii: "_") }
        if let first = slug.firstIndex(where: isLetterOrDigit), let last = slug.lastIndex(where: isLetterOrDigit) {
            slug = Array(slug[first...last])
        } else {
            slug = []
        }
        let budget = max(0, maximumLength - hashLength - 1)
        if slug.count > budget { slug = Array(slug.prefix(budget)) }
        while slug.last == UInt8(ascii: "-") { slug.removeLast() }
        let hash = String(SHA256Digest(of: identifier).hexString.prefix(hashLength))
        return slug.isEmpty ? "x-" + hash : String(decoding: slug, as: UTF8.self) + "-" + hash
    }
}
