import FallbackSite
import Testing

/// `FileSystemPath` splits at every `/` byte, as the file system does, where `String.split` would
/// keep a `/` that is part of a larger `Character`.
@Suite struct FileSystemPathTests {
    @Test(arguments: [
        ("a/b", ["a", "b"], ["a", "b"]),
        ("/a//b/", ["a", "b"], ["", "a", "", "b", ""]),
        ("", [], [""]),
        ("../\u{338}x", ["..", "\u{338}x"], ["..", "\u{338}x"]),
        ("x\u{600}/..", ["x\u{600}", ".."], ["x\u{600}", ".."]),
        ("é/\u{301}", ["é", "\u{301}"], ["é", "\u{301}"]),
    ] as [(String, [String], [String])])
    func componentsAreTheBytesBetweenSlashes(path: String, omitting: [String], keeping: [String]) {
        #expect(FileSystemPath.components(of: path).map { Array($0.utf8) } == omitting.map { Array($0.utf8) })
        #expect(FileSystemPath.components(of: path, omittingEmpty: false).map { Array($0.utf8) } == keeping.map { Array($0.utf8) })
    }

    /// The `Character` split this replaces misses the separator in each of these.
    @Test(arguments: ["../\u{338}x", "x\u{600}/..", "/\u{338}etc"])
    func theCharacterSplitDisagrees(path: String) {
        let byCharacter = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        #expect(byCharacter != FileSystemPath.components(of: path, omittingEmpty: false))
    }

    @Test func dotsAndHiddenNames() {
        #expect(FileSystemPath.isDotOrDotDot("."))
        #expect(FileSystemPath.isDotOrDotDot(".."))
        #expect(!FileSystemPath.isDotOrDotDot("..."))
        #expect(!FileSystemPath.isDotOrDotDot("..\u{338}"))
        #expect(!FileSystemPath.isDotOrDotDot(""))
        #expect(FileSystemPath.isHidden(".\u{301}x"))
        #expect(FileSystemPath.isHidden(".."))
        #expect(!FileSystemPath.isHidden("x."))
        #expect(!FileSystemPath.isHidden(""))
    }
}
