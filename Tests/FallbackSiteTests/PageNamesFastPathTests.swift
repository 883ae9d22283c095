import RovenueFallback
import Testing

@testable import FallbackSite

/// `PageNames` skips hashing and storing when every identifier is a clean slug; its names must be
/// those of the general path, kept here as the reference, for members and for any other identifier.
@Suite struct PageNamesFastPathTests {
    /// The general path as it was: every identifier named and stored, hashes lengthened on a collision.
    struct ReferenceNames {
        var nameOfIdentifier: [ExactKey: String] = [:]

        init(identifiers: [String]) {
            let unique = Set(identifiers.map(ExactKey.init)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var hashLength = 8
            while true {
                var names: [ExactKey: String] = [:]
                var taken: [String: Int] = [:]
                for identifier in unique {
                    let name = PageNames.name(for: Array(identifier.utf8), hashLength: hashLength)
                    names[identifier] = name
                    taken[name, default: 0] += 1
                }
                if taken.values.allSatisfy({ $0 == 1 }) || hashLength >= 64 {
                    nameOfIdentifier = names
                    return
                }
                hashLength *= 2
            }
        }

        func name(for identifier: String) -> String {
            nameOfIdentifier[ExactKey(identifier)] ?? PageNames.name(for: Array(identifier.utf8), hashLength: 16)
        }
    }

    static let clean = ["pg_welcome", "a", "quiz-1", "con1", "com10", "lpt", "x.y", "abc.def", String(repeating: "z", count: 64), "0", "_", "-"]
    static let unclean = [
        "con", "nul.txt", "LPT1", "com9.md", "Welcome", "pg welcome", ".hidden", "", String(repeating: "z", count: 65), "über",
        "e\u{301}", "\u{E9}", "a/b", "..", "x-0123abcd", "x-" + String(repeating: "0", count: 64),
    ]

    /// Every query against sets of clean identifiers, of unclean ones and of both, as the reference names them.
    @Test func namesMatchTheReference() {
        let queries = Self.clean + Self.unclean + ["pg_other", "Pg_welcome", "pg_welcome ", "nul"]
        let sets: [[String]] = [
            Self.clean, Self.unclean, Self.clean + Self.unclean, ["pg_welcome"], [], ["pg_welcome", "pg_welcome"],
            ["a", "A"], ["x-7f83b165", "x"], (0..<300).map { "page_\($0)" },
        ]
        for identifiers in sets {
            let names = PageNames(identifiers: identifiers)
            let reference = ReferenceNames(identifiers: identifiers)
            for query in queries + identifiers {
                #expect(names.name(for: query) == reference.name(for: query), "\(identifiers.prefix(3)) … \(query.debugDescription)")
            }
        }
    }

    /// The byte-wise test of a clean slug answers as the reserved-name check needs: every reserved
    /// name is three or four letters, so a stem of another length is never one.
    @Test func reservedNamesAreThreeOrFourLetters() {
        #expect(PageNames.reservedNames.allSatisfy { $0.count == 3 || $0.count == 4 })
        for name in PageNames.reservedNames {
            #expect(!PageNames.isCleanSlug(Array(name.utf8)))
            #expect(!PageNames.isCleanSlug(Array((name + ".html").utf8)))
            #expect(PageNames.isCleanSlug(Array((name + "x").utf8)))
        }
    }
}
