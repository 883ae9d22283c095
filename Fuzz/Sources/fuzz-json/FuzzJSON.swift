import FuzzSupport
import RovenueFallback

/// The JSON reader and the SDK's loader on any bytes.
///
/// Properties, besides "no crash, no hang":
/// - a file read with the byte-order mark stripped is the same file without it;
/// - a file that loads, re-serialised by us (`JSONDocument.Value.jsonText`), loads again to the same loaded
///   keys, the same skipped keys, and the same offline resolution for a few subscriber ids;
/// - any syntactically valid document, re-serialised, reads back without a syntax error to an equal value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Fuzzer.bytes(data, size)
    let file = FallbackFile(bytes: bytes)
    let stripped = FallbackFile(bytes: bytes, strippingByteOrderMark: true)
    if file.hasByteOrderMark {
        Fuzzer.require(
            LoadSummary(stripped) == LoadSummary(FallbackFile(bytes: Array(bytes.dropFirst(3)))),
            "stripping the byte-order mark is not the same as reading the file without it")
    } else {
        Fuzzer.require(LoadSummary(stripped) == LoadSummary(file), "strippingByteOrderMark changed a file without one")
    }

    let store = FallbackStore()
    let loaded: Int?
    do {
        loaded = try store.load(file)
    } catch {
        loaded = nil
        Fuzzer.require(file.rejection != nil, "the store threw on a file that is not rejected: \(error)")
    }
    _ = file.verdict
    guard file.document.syntaxError == nil, file.document.hasRoot else { return 0 }

    // Re-serialised (at any depth: the writer does not recurse, and a value nested tens of thousands
    // deep loads when it sits outside `formatVersion` and `placements`), the document reads back to
    // text that writes the same.
    let text = file.document.root.jsonText()
    let again = FallbackFile(text: text)
    Fuzzer.require(again.document.syntaxError == nil, "our own JSON text does not parse: \(again.document.syntaxError!.message)")
    Fuzzer.require(again.document.root.jsonText() == text, "our own JSON text reads back to another text")
    // Owned copies are only taken of values of bounded depth (Swift releases nested arrays
    // recursively; see `JSONDocument.Value.owned`).
    if nestingDepth(of: bytes) <= 1_000 {
        let owned = file.document.root.owned
        Fuzzer.require(owned.jsonText() == text, "the owned copy writes other text than the document")
        Fuzzer.require(again.document.root.owned == owned, "our own JSON text reads back to another value")
    }

    guard let loaded else { return 0 }
    // The oracle: a file that loads, re-serialised, loads to the same keys and resolves the same way.
    let reloaded = FallbackStore()
    let count: Int
    do {
        count = try reloaded.load(again)
    } catch {
        Fuzzer.require(false, "a file that loads no longer loads once re-serialised: \(error)")
        return 0
    }
    Fuzzer.require(count == loaded, "re-serialised, the file loads \(count) entries instead of \(loaded)")
    Fuzzer.require(LoadSummary(again) == LoadSummary(file), "re-serialised, the file loads other keys or skips other keys")
    for (key, _) in file.loadedEntries.prefix(32) {
        for subscriber in ["", "subscriber-1", "üñí-\u{1F600}", String(repeating: "x", count: 300)] {
            let before = store.resolve(placement: key, subscriberId: subscriber).map(ResolutionSummary.init)
            let after = reloaded.resolve(placement: key, subscriberId: subscriber).map(ResolutionSummary.init)
            Fuzzer.require(before != nil && before == after, "re-serialised, \(key) resolves differently for \(subscriber)")
        }
    }
    return 0
}

/// The deepest nesting of arrays and objects in JSON text (brackets inside strings ignored).
func nestingDepth(of bytes: [UInt8]) -> Int {
    var depth = 0
    var deepest = 0
    var inString = false
    var escaped = false
    for byte in bytes {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth += 1
            deepest = max(deepest, depth)
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
    }
    return deepest
}

/// What a load decides, keys compared as bytes (as the SDK does).
struct LoadSummary: Equatable {
    let rejected: FallbackRejection.Rule?
    let loaded: [[UInt8]]
    let skipped: [[UInt8]]

    init(_ file: FallbackFile) {
        rejected = file.rejection?.rule
        loaded = file.entries.filter { $0.entry != nil }.map { Array($0.key.utf8) }
        skipped = file.entries.filter { $0.entry == nil }.map { Array($0.key.utf8) }
    }
}

/// What a device is served, by identity.
struct ResolutionSummary: Equatable {
    let placement: [UInt8]?
    let revision: Int64?
    let served: [UInt8]
    let draw: OfflineResolution.Draw?

    init(_ resolution: OfflineResolution) {
        placement = resolution.placement.map { Array($0.identifier.utf8) }
        revision = resolution.placement?.revision
        switch resolution.served {
        case .funnel(let funnel): served = Array("funnel \(funnel.id) \(funnel.slug) \(funnel.pages.count)".utf8)
        case .paywall(let paywall): served = Array("paywall \(paywall.id) \(paywall.identifier)".utf8)
        case .experiment(let experiment): served = Array("experiment \(experiment.id)".utf8)
        case .nothing(let reason, let experiment): served = Array("nothing \(reason) \(String(describing: experiment))".utf8)
        }
        draw = resolution.draw
    }
}

@main
enum FuzzJSON {
    static func main() { Fuzzer.run(fuzzJSON) }
}
