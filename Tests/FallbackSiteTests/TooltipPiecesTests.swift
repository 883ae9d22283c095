import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// A page box's tooltip and aria label written from their pieces (issue 10, funnel pages: each
/// was joined into a `String` and read again to see that it fits). The width added up from the
/// pieces must be the width of the joined text, and `fitsUnchanged` what its reading says.
@Suite("Tooltips written from their pieces")
struct TooltipPiecesTests {
    static let fontSize = GraphLayout.Metrics.fontSize

    static let texts: [String] =
        DrawingBytesTests.hostileTexts + [
            "welcome", "Welcome to the app", "single_choice · pw_main", "Caf\u{E9} cr\u{E8}me", "a", "x · y", "age \u{2265} 40",
            " leading", "trailing ", "double  space", String(repeating: "word ", count: 200) + "end",
        ]

    @Test func aTextsReadingIsWhatFitsUnchangedDecides() {
        for text in Self.texts {
            for maxWidth in [0.0, 20, 172, 600, 2400] {
                let expected: Bool =
                    switch DrawingText.unchangedWidth(of: text, fontSize: Self.fontSize) {
                    case .width(let width): !(width > maxWidth)
                    case .changed: false
                    case .unread: DrawingText.fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize)
                    }
                #expect(DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: Self.fontSize) == expected, "\(text) \(maxWidth)")
            }
        }
        #expect(DrawingText.unchangedWidth(of: " a", fontSize: Self.fontSize) == .changed)
        #expect(DrawingText.unchangedWidth(of: "a ", fontSize: Self.fontSize) == .changed)
        #expect(DrawingText.unchangedWidth(of: "a  b", fontSize: Self.fontSize) == .changed)
        #expect(DrawingText.unchangedWidth(of: "", fontSize: Self.fontSize) == .width(0))
    }

    /// The reading of `text` as one whole, when it is a width.
    static func width(_ text: String) -> Double? {
        if case .width(let width) = DrawingText.unchangedWidth(of: text, fontSize: fontSize) { return width }
        return nil
    }

    @Test func theWidthOfThePiecesIsTheWidthOfTheWhole() throws {
        var compared = 0
        for id in Self.texts.prefix(12) + ["p1", "welcome_page"] {
            for kind in ["statement", "paywall · pw", "", " odd"] {
                for copy in [nil, "Pick a plan", "", "  ", "Caf\u{E9} \u{B7} cr\u{E8}me"] + Self.texts.suffix(6).map(Optional.some) {
                    for unreachable in [false, true] {
                        let pieces = DrawingWriter.TooltipPieces(
                            id: id, kind: kind, kindReading: DrawingText.unchangedWidth(of: kind, fontSize: Self.fontSize), copy: copy,
                            copyReading: copy.map { DrawingText.unchangedWidth(of: $0, fontSize: Self.fontSize) }, isUnreachable: unreachable)
                        let joined = pieces.joined
                        var expected = "\(id) · \(kind)"
                        if let copy { expected += " · " + copy }
                        if unreachable { expected += " · unreachable from the first page" }
                        #expect(joined == expected)
                        guard let width = pieces.width else { continue }
                        // The pieces' width is the whole's, but for the order of the additions.
                        let whole = try #require(Self.width(joined), "\(joined)")
                        #expect(abs(width - whole) < 1e-6, "\(joined)")
                        for (number, count) in [(1, 5), (9, 10), (12, 140)] {
                            let label = "Page \(number) of \(count): \(joined). Go to its row in the pages table"
                            let labelWidth = try #require(Self.width(label), "\(label)")
                            #expect(abs(width + DrawingWriter.ariaLabelWidth(number: number, of: count) - labelWidth) < 1e-6, "\(label)")
                        }
                        compared += 1
                    }
                }
            }
        }
        #expect(compared >= 90)
    }

    @Test func aLabelledStepsSummaryWidthIsTheWidthOfTheWhole() throws {
        var steps = try DrawingSettleTests.funnels().flatMap { FunnelFlow(graph: FunnelGraph($0)).steps }
        for text in Self.texts {
            for kind in [FunnelFlow.Kind.rule, .defaultNext, .sequential] {
                for (priority, page, target) in [(1, text, "p2"), (12, "p1", text), (3, "welcome", "paywall (pw)")] {
                    let condition = kind == .rule ? text : "else"
                    steps.append(
                        FunnelFlow.Step(
                            from: 0, to: 1, kind: kind, condition: condition, priority: priority, pageId: page,
                            ruleId: kind == .rule ? "r" + text.prefix(3) : nil, targetName: target, jumpsToPaywall: false))
                }
            }
        }
        var compared = 0
        for step in steps {
            guard let width = DrawingWriter.summaryWidth(of: step) else { continue }
            #expect(step.condition != nil)
            let whole = try #require(Self.width(step.summary), "\(step.summary)")
            // Past the widest reading the whole is read no further, and the pieces pass it too.
            if whole > DrawingText.widestReading {
                #expect(width > DrawingText.widestReading, "\(step.summary)")
            } else {
                #expect(abs(width - whole) < 1e-6, "\(step.summary)")
            }
            compared += 1
        }
        #expect(compared >= 500)
    }
}

/// `DrawingText.wrapped` gives a short line that needs no cleaning back as it is, without
/// building lines (issue 10, funnel pages: most step labels).
@Suite("Wrapping a line that fits")
struct WrappedShortLineTests {
    static let fontSize = GraphLayout.Metrics.fontSize

    /// `wrapped` as it was: the scalar path, else the character path.
    static func reference(_ text: String, maxWidth: Double, maxLines: Int) -> [String] {
        DrawingText.wrappedByScalar(text, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
            ?? DrawingText.wrappedByCharacter(text, maxWidth: maxWidth, fontSize: fontSize, maxLines: maxLines)
    }

    @Test func wrappingIsWhatTheScalarAndCharacterPathsGive() {
        var texts = TooltipPiecesTests.texts + ["1 · else", "2 · plan = \"annual\"", "3 · age ≥ 40 ∧ country ∈ [DE, FR]", "x"]
        // Texts around the width of a line: a word at a time.
        var growing = ""
        for index in 0..<40 {
            growing += (growing.isEmpty ? "" : " ") + ["ab", "W", "mmm", "i", "·"][index % 5]
            texts.append(growing)
        }
        for text in texts {
            for maxWidth in [0.0, 8, 40, 100, 200, 600] {
                for maxLines in [0, 1, 2, 40] {
                    #expect(
                        DrawingText.wrapped(text, maxWidth: maxWidth, fontSize: Self.fontSize, maxLines: maxLines)
                            == Self.reference(text, maxWidth: maxWidth, maxLines: maxLines), "\(text) \(maxWidth) \(maxLines)")
                }
            }
        }
    }
}

/// A reading stops once its sum passes `DrawingText.widestReading`: a 100,000-letter page id named
/// by every step of a funnel was read whole for each. Past that sum no width a caller compares
/// with can hold the text, so every decision is the whole text's, whatever comes after the stop.
@Suite struct WidestReadingTests {
    static let fontSize = GraphLayout.Metrics.fontSize

    @Test func everyWidthComparedIsNarrowerThanTheWidestReading() {
        for width in [DrawingWriter.tooltipWidth, GraphLayout.Metrics.maximumWidth, GraphLayout.Metrics.labelMaxTextWidth,
                      GraphLayout.Metrics.pageWidth] {
            #expect(width + 1 < DrawingText.widestReading)
        }
    }

    static let longTexts: [String] = {
        let long = String(repeating: "w", count: 20_000)
        return [long, long + "  x", long + " ", long + "\u{300}", long + "\u{1F600}", "a b " + long, String(repeating: "é ", count: 9_000)]
    }()

    @Test func aLongReadingStopsJustPastTheWidest() {
        for text in Self.longTexts {
            guard case .width(let width) = DrawingText.unchangedWidth(of: text, fontSize: Self.fontSize) else {
                Issue.record("\(text.suffix(3).unicodeScalars.map(\.value)) was not read as a width")
                continue
            }
            #expect(width > DrawingText.widestReading && width < DrawingText.widestReading + 100)
        }
    }

    @Test func decisionsOnLongTextsAreTheCharacterPathsDecisions() {
        for text in Self.longTexts {
            for maxWidth in [0.0, 20, 172, 600, 2400] {
                #expect(
                    DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: Self.fontSize)
                        == DrawingText.fitsUnchangedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize))
                #expect(
                    DrawingText.fitted(text, maxWidth: maxWidth, fontSize: Self.fontSize)
                        == DrawingText.fittedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize))
                #expect(
                    DrawingText.wrapped(text, maxWidth: maxWidth, fontSize: Self.fontSize, maxLines: 3)
                        == DrawingText.wrappedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize, maxLines: 3))
            }
        }
    }
}

/// The drawing reads at most `DrawingText.drawnScalarLimit` scalars of a text: an id of one letter
/// and 50,000 combining marks was read whole for every rule that names its page.
@Suite struct DrawnScalarLimitTests {
    static let fontSize = GraphLayout.Metrics.fontSize

    /// The limit holds the widest line of the narrowest characters, each with the most scalars a
    /// character keeps, many times over: ordinary text is cut inside it.
    @Test func theLimitHoldsTheWidestLine() {
        let narrowest = DrawingText.advance(of: "i") * min(GraphLayout.Metrics.fontSize, GraphLayout.Metrics.idFontSize)
        let characters = Double(DrawingText.drawnScalarLimit / DrawingText.scalarLimit)
        #expect(characters * narrowest > 4 * DrawingWriter.tooltipWidth)
    }

    @Test(arguments: [2, 5_000, 50_000]) func aPileOfMarksIsCutAtTheLimit(_ marks: Int) {
        let text = "p" + String(repeating: "\u{301}", count: marks) + "age"
        for maxWidth in [20.0, 172, 2400] {
            let fitted = DrawingText.fitted(text, maxWidth: maxWidth, fontSize: Self.fontSize)
            let wrapped = DrawingText.wrapped(text, maxWidth: maxWidth, fontSize: Self.fontSize, maxLines: 2)
            if text.unicodeScalars.count <= DrawingText.drawnScalarLimit {
                #expect(fitted == DrawingText.fittedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize))
                #expect(wrapped == DrawingText.wrappedByCharacter(text, maxWidth: maxWidth, fontSize: Self.fontSize, maxLines: 2))
            } else {
                #expect(fitted.hasSuffix(DrawingText.ellipsis))
                #expect(fitted.unicodeScalars.count <= 16)
                #expect(wrapped.last?.hasSuffix(DrawingText.ellipsis) == true)
                #expect(!DrawingText.fitsUnchanged(text, maxWidth: maxWidth, fontSize: Self.fontSize))
            }
        }
    }
}
