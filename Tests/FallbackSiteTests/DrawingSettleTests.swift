import FallbackSample
import Foundation
import RovenueFallback
import Testing
@testable import FallbackSite

/// The layout stops its placement rounds once a pair of them changes nothing, counts crossings
/// with runs sorted by insertion, and the legend is put together from items made once (issue 10,
/// funnel pages): each must draw exactly what the full work draws.
@Suite("Drawing with less work")
struct DrawingSettleTests {
    /// `funnel` drawn bare, with its layout's placement settling early or running every round.
    static func svg(_ funnel: Funnel, settlingEarly: Bool) -> [UInt8] {
        let flow = FunnelFlow(graph: FunnelGraph(funnel))
        let layout = GraphLayout(graph: flow, settlingEarly: settlingEarly)
        var writer = DrawingWriter(
            funnel: funnel, flow: flow, layout: layout, prefix: "fd", unreachablePages: [], locale: nil, pageAnchors: nil)
        return writer.write()
    }

    /// The funnels of the corpus, generated funnels of several sizes and those of a sample export.
    static func funnels() throws -> [Funnel] {
        var funnels: [Funnel] = []
        for path in ListingBytesTests.files {
            funnels += DrawingBytesTests.funnels(in: FallbackFile(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
        }
        for pageCount in [2, 7, 60, 400] { funnels.append(try Build.generatedFunnel(pageCount: pageCount)) }
        funnels += DrawingBytesTests.funnels(in: FallbackFile(text: SampleExport(placementCount: 300, seed: 7).jsonText()))
        return funnels
    }

    @Test func settlingEarlyDrawsWhatEveryRoundDraws() throws {
        let funnels = try Self.funnels()
        #expect(funnels.count >= 200)
        for (index, funnel) in funnels.enumerated() {
            #expect(Self.svg(funnel, settlingEarly: true) == Self.svg(funnel, settlingEarly: false), "funnel \(index) \(funnel.id)")
        }
    }

    @Test func sameBitsTellsZeroSignsAndNaNsApart() {
        #expect(GraphLayout.sameBits([1, 2.5, -3], [1, 2.5, -3]))
        #expect(!GraphLayout.sameBits([0.0], [-0.0]))
        #expect(GraphLayout.sameBits([.nan], [.nan]))
        #expect(!GraphLayout.sameBits([1, 2], [1, 2, 3]))
        #expect(!GraphLayout.sameBits([1, 2], [1, 2.0000000001]))
    }

    @Test func insertingKeepsEachRunSorted() {
        var generator = SplitMix64(seed: 3)
        for length in 0..<40 {
            let prefix = (0..<3).map { _ in Int(generator.next() % 50) }
            let values = (0..<length).map { _ in Int(generator.next() % 20) }
            var sequence = prefix
            for value in values { GraphLayout.insert(value, into: &sequence, sortedFrom: prefix.count) }
            #expect(sequence == prefix + values.sorted(), "\(values)")
        }
    }

    /// Where `path` first arrives below: the end of its first curve.
    static func firstArrival(_ path: GraphLayout.Path) -> Double? {
        for segment in path.segments { if case .cubic(_, _, let to) = segment { return to.x } }
        return nil
    }

    @Test func stepsLeaveTheirPageInTheOrderOfWhereTheyGo() throws {
        var compared = 0
        for funnel in try Self.funnels() {
            let flow = FunnelFlow(graph: FunnelGraph(funnel))
            let layout = GraphLayout(graph: flow)
            let forward = flow.steps.indices.filter { !layout.runsBack(LayoutStepID($0)) }
            for a in forward {
                for b in forward where b > a && flow.steps[a].from == flow.steps[b].from {
                    let (pathA, pathB) = (layout.path(of: LayoutStepID(a)), layout.path(of: LayoutStepID(b)))
                    let curves = { (path: GraphLayout.Path) in path.segments.count { if case .cubic = $0 { true } else { false } } }
                    // Two steps straight to the same node arrive at ports that node orders by itself.
                    if curves(pathA) == 1 && curves(pathB) == 1 && flow.steps[a].to == flow.steps[b].to { continue }
                    let (arrivalA, arrivalB) = (try #require(Self.firstArrival(pathA)), try #require(Self.firstArrival(pathB)))
                    #expect((pathA.start.x < pathB.start.x) == (arrivalA < arrivalB), "\(funnel.id) steps \(a) and \(b)")
                    compared += 1
                }
            }
        }
        #expect(compared >= 100)
    }

    @Test func eachLegendEntryHasTheBitOfItsPlace() {
        for (index, entry) in DrawingWriter.LegendEntry.allCases.enumerated() {
            #expect(entry.bit == 1 << UInt(index), "\(entry)")
        }
        #expect(DrawingWriter.legendItems == DrawingWriter.LegendEntry.allCases.map(DrawingWriter.legendItem))
    }

    @Test func theLegendListsTheItemsOfTheEntriesUsed() throws {
        for funnel in try Self.funnels().prefix(120) {
            let drawing = FunnelDrawing(funnel: funnel, unreachablePageIndices: [0])
            let flow = FunnelFlow(graph: FunnelGraph(funnel))
            let writer = DrawingWriter(
                funnel: funnel, flow: flow, layout: GraphLayout(graph: flow), prefix: "fd", unreachablePages: [0], locale: nil,
                pageAnchors: nil)
            let entries = writer.legendEntries
            #expect(!entries.isEmpty)
            let expected =
                "<ul class=\"legend fd-legend\" aria-label=\"Legend of the page graph\">"
                + entries.map(DrawingWriter.legendItem).joined() + "</ul>"
            #expect(drawing.legend == expected, "\(funnel.id)")
        }
    }
}
