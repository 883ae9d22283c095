import Foundation
import FallbackMarkdown
import FallbackMustache
import RovenueFallback

/// Renders a page template (Mustache over GitHub-Flavored Markdown) so that no interpolated value
/// ever reaches cmark-gfm or the page as markup.
///
/// Each `{{value}}` is rendered as an opaque ASCII token that Markdown leaves alone (in text, in
/// tables, in link destinations and in raw HTML); after cmark-gfm has turned the template's own
/// Markdown into HTML, every token is replaced by its value, HTML-escaped. Snapshot text is
/// therefore always literal text, whatever it contains, and never costs cmark-gfm any parsing.
/// Trusted HTML built by the site itself (drawings, source listings) is registered with `html(_:)`
/// and replaced unescaped.
public final class PageValues: @unchecked Sendable {
    /// What every token starts with; templates may not contain it.
    static let marker = "zqxv"
    static let suffix = "vxqz"

    private let lock = NSLock()
    /// Read by the tests' reference substitution.
    ///
    /// Written only under `lock`, and read under it too (but by the tests, once a render is
    /// over), so the run-time exclusivity check of each access (a fifth of a token's cost, a
    /// page registering hundreds) is left out: the lock already keeps accesses apart.
    @exclusivity(unchecked) private(set) var values: [Value] = []
    @exclusivity(unchecked) private var trustedTokens: Set<String> = []
    /// The most bytes the page may come to once its values are put in (its budget's
    /// `outputBytes`; set before it renders). A render's budget counts a value as its token, but
    /// the value is put in at every tag that names it: a paywall name of 100 KB named in a template's
    /// sections over its 10,000 config texts made a page of 1 GB in 2.25 GB of memory. Past the limit
    /// the substitution stops and `isPastOutputLimit` is set, for the page to fail.
    var outputLimit = Int.max
    /// Set when a substitution stopped at `outputLimit`.
    @exclusivity(unchecked) private(set) var isPastOutputLimit = false
    /// The HTML of values past `SnapshotText.textLength` bytes put in as element content, by their
    /// storage: such a value is cut, with its length and a hash of all its bytes, and a page may
    /// name the same long value at many tags (40,000 tags of a 500 KB value hashed 20 GB).
    @exclusivity(unchecked) private var longContent: [LongValue: [UInt8]] = [:]

    /// A string by where its UTF-8 is stored, which a page's values hold until the page is written.
    private struct LongValue: Hashable {
        let start: UnsafeRawPointer
        let count: Int
    }
    /// Tokens carry a random nonce, so no text in a snapshot can spell one.
    let prefix: String
    /// The first byte of every token.
    private let prefixFirstByte: UInt8
    /// `prefix` as UTF-8, which every token a render writes starts with.
    private let prefixBytes: [UInt8]
    /// `PageValues.suffix` as UTF-8.
    private static let suffixBytes = Array(PageValues.suffix.utf8)
    /// `PageValues.suffixBytes`, held by each instance: a token read it through the lazy global's
    /// check each time.
    private let suffixBytes = PageValues.suffixBytes

    public convenience init() {
        self.init(prefix: PageValues.randomPrefix())
    }

    /// Values whose tokens start with the build's prefix, as every page of the build does, so
    /// that `memo` can find Markdown and layouts that pages render alike.
    convenience init(memo: PageMemo) {
        self.init(prefix: memo.prefix)
    }

    private init(prefix: String) {
        self.prefix = prefix
        prefixFirstByte = prefix.utf8.first!
        prefixBytes = Array(prefix.utf8)
        // Room for the values of most pages (hundreds each): the array does not grow, and
        // copy, from one.
        values.reserveCapacity(256)
    }

    /// The marker and a random nonce.
    static func randomPrefix() -> String {
        var generator = SystemRandomNumberGenerator()
        return PageValues.marker + String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &generator)! })
    }

    /// A value a token stands for: snapshot text, or trusted HTML as text, as UTF-8 bytes (a
    /// source listing, which is made as bytes), or written in place (a page's body, into its layout).
    enum Value {
        case text(String)
        case html(String)
        case htmlBytes([UInt8])
        case htmlWriter(HTMLWriter)

        var isTrustedHTML: Bool {
            if case .text = self { false } else { true }
        }

        var text: String {
            switch self {
            case .text(let text), .html(let text): text
            case .htmlBytes(let bytes): String(decoding: bytes, as: UTF8.self)
            case .htmlWriter(let writer): String(decoding: ByteWriter.array(capacity: writer.length) { writer.write(&$0) }, as: UTF8.self)
            }
        }
    }

    /// Trusted HTML that a substitution has written where its token stands, straight into the
    /// page: a page's body, which as an array of its own was copied whole into its layout (a
    /// page's every byte once more, 70 M instructions in a 1k build).
    struct HTMLWriter {
        /// About how many bytes `write` writes: the room a page makes for them.
        let length: Int
        let write: (inout ByteWriter) -> Void
    }

    /// A token that the page replaces with `trustedHTML`, unescaped.
    public func html(_ trustedHTML: String) -> TrustedHTML {
        TrustedHTML(token: register(.html(trustedHTML)))
    }

    /// A token that the page replaces with the UTF-8 `trustedHTML`, unescaped.
    func html(utf8 trustedHTML: [UInt8]) -> TrustedHTML {
        TrustedHTML(token: register(.htmlBytes(trustedHTML)))
    }

    /// A token that the page replaces with the trusted HTML `write` writes, unescaped, in place,
    /// when it is substituted; about `length` bytes. `write` must not keep `self` (the values keep it).
    func html(length: Int, writing write: @escaping (inout ByteWriter) -> Void) -> TrustedHTML {
        TrustedHTML(token: register(.htmlWriter(HTMLWriter(length: length, write: write))))
    }

    /// How many values are registered so far.
    var count: Int { lock.withLock { values.count } }

    /// The bytes of trusted HTML among `values`: what a page substituted with them holds beyond
    /// its own bytes and its escaped text.
    private static func trustedLength(of values: [Value]) -> Int {
        values.reduce(0) { length, value in
            switch value {
            case .text: length
            case .html(let html): length + html.utf8.count
            case .htmlBytes(let bytes): length + bytes.count
            case .htmlWriter(let writer): length + writer.length
            }
        }
    }

    /// The bytes of trusted HTML among the values registered so far.
    var trustedLength: Int { Self.trustedLength(of: lock.withLock { values }) }

    func register(_ text: String, isTrustedHTML: Bool) -> String {
        register(isTrustedHTML ? .html(text) : .text(text))
    }

    private func register(_ value: Value) -> String {
        lock.withLock {
            values.append(value)
            let token = token(values.count - 1)
            if value.isTrustedHTML { trustedTokens.insert(token) }
            return token
        }
    }

    /// The longest token: the prefix, an `Int`'s digits and the suffix.
    private var maximumTokenLength: Int { prefix.utf8.count + 20 + PageValues.suffix.utf8.count }

    /// `prefix + String(number) + PageValues.suffix`, made in one allocation: a page registers a
    /// token for every value it shows.
    private func token(_ number: Int) -> String {
        String(unsafeUninitializedCapacity: maximumTokenLength) { spell(number, into: $0) }
    }

    /// Registers `text` as snapshot text and appends its token to `output`: the bytes of
    /// `token(number)`, written straight into `output` (a page has a token for every value it
    /// shows: spelling each in a buffer first cost about 300 instructions a token).
    /// The caller holds `lock`.
    private func appendTokenHoldingLock(registering text: String, to output: inout ByteWriter) {
        values.append(.text(text))
        let number = values.count - 1
        output.append(bytes: prefixBytes)
        ListingBytes.appendDecimal(number, to: &output)
        output.append(bytes: suffixBytes)
    }

    /// Writes the token of `number` at the start of `buffer` (at least `maximumTokenLength`
    /// bytes), and returns its length.
    private func spell(_ number: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(number >= 0)
        let suffix = PageValues.suffixBytes
        var end = buffer.initialize(fromContentsOf: prefixBytes)
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        rest = number
        for offset in stride(from: end + digits - 1, through: end, by: -1) {
            buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        end += digits
        end = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: suffix) + end
        return end
    }

    /// The escaping that turns each interpolated value into a token; a trusted-HTML token passes
    /// through as it is, so `{{drawing}}` and `{{{drawing}}}` both work. A render appends the
    /// token's bytes to its output, with no `String` of the token.
    var escaping: MustacheEscaping { escaping(holdingLock: false) }

    /// `escaping` for a render that runs while `body` does, with `lock` held all along: a value
    /// then takes no lock of its own (taking and leaving it cost about 70 instructions a value,
    /// 46 M in a 1k build). `body` must not use `self` other than through the escaping it is
    /// given, nor keep that escaping: nothing else takes the lock until it returns.
    func withRenderEscaping<Result, Failure: Error>(_ body: (MustacheEscaping) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(escaping(holdingLock: true))
    }

    /// `escaping`, taking `lock` for each value, or not when its caller holds it (`withRenderEscaping`).
    private func escaping(holdingLock: Bool) -> MustacheEscaping {
        .custom(
            { [self] text in
                if !holdingLock { lock.lock() }
                defer { if !holdingLock { lock.unlock() } }
                if isTrustedTokenHoldingLock(text) { return text }
                values.append(.text(text))
                return token(values.count - 1)
            },
            appending: { [self] text, output in
                if !holdingLock { lock.lock() }
                defer { if !holdingLock { lock.unlock() } }
                if isTrustedTokenHoldingLock(text) {
                    output.append(text)
                } else {
                    appendTokenHoldingLock(registering: text, to: &output)
                }
            })
    }

    /// Whether `text` is the token of trusted HTML, for a caller that holds `lock`. Most values
    /// are snapshot text, not tokens: they are told apart by their length (a token has the prefix,
    /// a digit and the suffix; most values are shorter) and first bytes, without a hash.
    private func isTrustedTokenHoldingLock(_ text: String) -> Bool {
        text.utf8.count > prefixBytes.count + suffixBytes.count && text.utf8.first == prefixFirstByte && text.utf8.starts(with: prefix.utf8)
            && trustedTokens.contains(text)
    }

    private func isTrustedToken(_ text: String) -> Bool {
        lock.withLock { isTrustedTokenHoldingLock(text) }
    }

    /// `context` with every trusted-HTML token replaced by its HTML, for showing a context to people.
    public func resolvingTokens(in context: MustacheValue) -> MustacheValue {
        switch context {
        case .string(let text) where isTrustedToken(text):
            let index = Int(text.dropFirst(prefix.count).dropLast(PageValues.suffix.count)) ?? -1
            let snapshot = lock.withLock { values }
            return snapshot.indices.contains(index) ? .string(snapshot[index].text) : context
        case .list(let elements): return .list(elements.map(resolvingTokens))
        case .dictionary(let dictionary): return .dictionary(dictionary.mapValues(resolvingTokens))
        // Shown to people as the dictionary it renders as.
        case .record: return resolvingTokens(in: context.dictionaryForm)
        default: return context
        }
    }

    /// `html` with every token replaced by its value: as it is for trusted HTML, else in the
    /// `SnapshotText` form for where the token stands (element content, attribute value, or the
    /// text of a `<title>`-like element). Works on UTF-8 bytes: one pass, whatever the page's size.
    func substitute(in html: String) -> String {
        String(decoding: substitutedBytes(in: html), as: UTF8.self)
    }

    /// `substitute(in:)` as UTF-8 bytes, for a page that is written as it is.
    func substitutedBytes(in html: String) -> [UInt8] {
        var html = html
        return html.withUTF8 { substitutedBytes(in: $0) }
    }

    /// `substitute(in:)` of the UTF-8 `source`, as UTF-8 bytes.
    func substitutedBytes(in source: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        substitutedBytes(in: source, tokens: tokenPlaces(in: source))
    }

    /// Where the tokens of `source` stand, for the values registered so far.
    func tokenPlaces(in source: UnsafeBufferPointer<UInt8>) -> TokenPlaces {
        tokenPlaces(in: source, valueCount: count)
    }

    /// Where the tokens of `source` stand, for the first `valueCount` values.
    func tokenPlaces(in source: UnsafeBufferPointer<UInt8>, valueCount: Int) -> TokenPlaces {
        TokenPlaces(scanning: source, marker: prefixBytes, valueCount: valueCount)
    }

    /// `substitutedBytes(in:)` of `source`, whose tokens stand at `tokens` (made from the same
    /// bytes, perhaps for another page of the build); found again when they would not be
    /// the places a scan finds for this page's values.
    func substitutedBytes(in source: UnsafeBufferPointer<UInt8>, tokens: TokenPlaces) -> [UInt8] {
        let snapshot = lock.withLock { values }
        // Room for the page with its escaped text and any trusted HTML it holds (a page's body, its
        // source listings): the writer need not grow, and copy, on the way.
        let trustedLength = Self.trustedLength(of: snapshot)
        return ByteWriter.array(capacity: source.count + source.count / 4 + trustedLength) { output in
            appendSubstituted(source, tokens: tokens, values: snapshot, to: &output)
        }
    }

    /// Appends `substitutedBytes(in:tokens:)` of `source` as the first `valueCount` values
    /// registered make it (a page's body, whose layout registers more): its tokens' places as a
    /// scan for that many values finds them.
    func appendSubstituted(_ source: UnsafeBufferPointer<UInt8>, tokens: TokenPlaces, valueCount: Int, to output: inout ByteWriter) {
        let snapshot = lock.withLock { values }
        precondition(valueCount <= snapshot.count)
        appendSubstituted(source, tokens: tokens, values: snapshot[..<valueCount], to: &output)
    }

    /// `source` with the tokens at `tokens` replaced by `values` (all the page's values, or the
    /// first of them), appended to `output`.
    private func appendSubstituted(_ source: UnsafeBufferPointer<UInt8>, tokens: TokenPlaces, values snapshot: ArraySlice<Value>, to output: inout ByteWriter) {
        let tokens = tokens.holds(forValueCount: snapshot.count) ? tokens : TokenPlaces(scanning: source, marker: prefixBytes, valueCount: snapshot.count)
        var copiedUpTo = 0
        for token in tokens.places {
            // Checked before each value: the page passes its limit by one value at most.
            if output.count > outputLimit {
                lock.withLock { isPastOutputLimit = true }
                return
            }
            output.append(bytes: UnsafeBufferPointer(rebasing: source[copiedUpTo..<token.start]))
            if token.quotes.contains(.before) { output.append(byte: UInt8(ascii: "\"")) }
            switch snapshot[token.number] {
            case .text(let text):
                if case .content = token.context {
                    appendContent(text, to: &output)
                } else {
                    Self.append(text, in: token.context, to: &output)
                }
            case let trusted where token.holdsOnlyText:
                // Trusted HTML where no markup can stand is text there too: its spaces or quotes
                // would end the value or the name, and its text then add attributes.
                Self.append(trusted.text, in: token.context, to: &output)
            case .html(let html): output.append(html)
            case .htmlBytes(let bytes): output.append(bytes: bytes)
            case .htmlWriter(let writer): writer.write(&output)
            }
            if token.quotes.contains(.after) { output.append(byte: UInt8(ascii: "\"")) }
            copiedUpTo = token.end
        }
        output.append(bytes: UnsafeBufferPointer(rebasing: source[copiedUpTo...]))
    }

    /// `SnapshotText.appendHTML(text)`, made once per page for a long value stored in one place.
    private func appendContent(_ text: String, to output: inout ByteWriter) {
        guard text.utf8.count > SnapshotText.textLength,
              let key = text.utf8.withContiguousStorageIfAvailable({ LongValue(start: UnsafeRawPointer($0.baseAddress!), count: $0.count) })
        else {
            SnapshotText.appendHTML(text, to: &output)
            return
        }
        if let html = lock.withLock({ longContent[key] }) {
            output.append(bytes: html)
            return
        }
        var html = ByteWriter(capacity: 2 * SnapshotText.textLength)
        SnapshotText.appendHTML(text, to: &html)
        let bytes = html.take()
        lock.withLock { longContent[key] = bytes }
        output.append(bytes: bytes)
    }

    private func appendSubstituted(_ source: UnsafeBufferPointer<UInt8>, tokens: TokenPlaces, values snapshot: [Value], to output: inout ByteWriter) {
        appendSubstituted(source, tokens: tokens, values: snapshot[...], to: &output)
    }

    /// Appends `text`, escaped for where it stands (`SnapshotText`).
    private static func append(_ text: String, in context: MarkupPosition.Context, to output: inout ByteWriter) {
        switch context {
        case .content: SnapshotText.appendHTML(text, to: &output)
        case .attribute: SnapshotText.appendAttribute(text, to: &output)
        case .unquotedAttribute: output.append(SnapshotText.unquotedAttribute(text))
        case .name: output.append(SnapshotText.name(text))
        case .comment: output.append(SnapshotText.comment(text))
        case .plainText: output.append(SnapshotText.plainText(text))
        }
    }
}

/// Where the tokens of a page's HTML stand, with the context of each (element content, attribute
/// value, name, comment, plain-text element): the one pass of `PageValues.substitutedBytes(in:)`
/// over the page, apart from the values, so that a build can keep it for HTML it meets again
/// (`PageMemo`).
///
/// A token's number counts only below the number of values registered (`valueCount`): the
/// places hold for another count as long as every token found is below it and no candidate was
/// refused for reaching the count (`holds(forValueCount:)`).
struct TokenPlaces: Sendable {
    struct Place: Sendable {
        /// The token's first byte, and the byte after its suffix.
        let start: Int
        let end: Int
        let number: Int
        /// Where the token stands. A run of tokens that is the whole of an unquoted attribute
        /// value is put in double quotes and written as a quoted value (`attribute`).
        fileprivate(set) var context: MarkupPosition.Context
        /// The quotes of such a run: on each of its tokens `added`, on its first `before` and on
        /// its last `after`, where the quotes are written.
        fileprivate(set) var quotes: Quotes = []

        /// True where only text can stand, trusted HTML too: a tag's or an attribute's name, an
        /// unquoted attribute value, and quotes the scan added (whose value the template wrote
        /// unquoted, and whose HTML may hold quotes).
        var holdsOnlyText: Bool {
            context == .name || context == .unquotedAttribute || quotes.contains(.added)
        }
    }

    struct Quotes: OptionSet, Sendable {
        let rawValue: UInt8
        static let before = Quotes(rawValue: 1)
        static let after = Quotes(rawValue: 2)
        static let added = Quotes(rawValue: 4)
    }

    let places: [Place]
    private let valueCount: Int
    /// The largest token number found; -1 for none.
    private let largestNumber: Int
    /// True when a candidate's digits reached `valueCount`, which made it no token.
    private let reachedCount: Bool

    /// Scans `source` along `path`: by 64-byte blocks (`scanBlocks`), or byte by byte through
    /// `MarkupPosition`, the reference the tests compare the blocks with. Both find the same places.
    init(scanning source: UnsafeBufferPointer<UInt8>, marker: [UInt8], valueCount: Int, path: StructuralIndex.Path = .vector) {
        // A pattern, not `==`: the enum's `==` from another module is a call through its witness.
        #if _endian(little)
            let byBlocks = if case .scalar = path { false } else { true }
        #else
            // The block masks read a vector's bytes as words, lowest address lowest.
            let byBlocks = false
        #endif
        var scan = Scan(capacity: min(valueCount, source.count / (marker.count + 1 + PageValues.suffix.utf8.count)))
        if byBlocks {
            Self.scanBlocks(source, marker: marker, valueCount: valueCount, into: &scan)
        } else {
            Self.scanBytes(source, marker: marker, valueCount: valueCount, into: &scan)
        }
        places = scan.places
        self.valueCount = valueCount
        largestNumber = scan.largestNumber
        reachedCount = scan.reachedCount
    }

    /// What a scan finds, as it goes.
    private struct Scan {
        var places: [Place] = []
        var largestNumber = -1
        var reachedCount = false
        /// The first place of a run of adjacent tokens that starts an unquoted attribute value,
        /// while the byte after the run's last token is a token's first byte: the next token, if
        /// it starts there, carries the run on.
        private var openRun: Int?

        init(capacity: Int) {
            // Room for every token the bytes can hold, as far as the values registered go: the
            // array no longer grows, and copies, eight or nine times on a page (22 M in the 1k build).
            places.reserveCapacity(capacity)
        }

        /// Records the token from `start` to `end` in `context`; `startsValue` when it stands
        /// where an unquoted attribute value starts (after `=` and any whitespace).
        ///
        /// An empty value there (a template renders no token for empty text, but trusted HTML
        /// may be empty) would leave the whitespace after it to the tokenizer, which then reads
        /// the next attribute as this one's value (`alt= title="…"` makes `title="…` the value
        /// of `alt`, and the words after it attributes). So a run of
        /// tokens that is the whole value, from its start to whitespace, `>` or the end, is put in
        /// double quotes: its first token gets the opening quote and its last the closing one, and
        /// each is written as a quoted value. A run with template text after it is never empty,
        /// and keeps the unquoted form.
        @inline(__always)
        mutating func append(
            start: Int, end: Int, number: Int, context: MarkupPosition.Context, startsValue: Bool, in source: UnsafeBufferPointer<UInt8>,
            tokenByte: UInt8
        ) {
            var run: Int?
            if context == .unquotedAttribute {
                if startsValue {
                    run = places.count
                } else if let openRun, places.last?.end == start {
                    run = openRun
                }
            }
            openRun = nil
            places.append(Place(start: start, end: end, number: number, context: context))
            largestNumber = max(largestNumber, number)
            guard let run else { return }
            if end == source.count || MarkupPosition.endsUnquotedValue(source[end]) {
                for index in run..<places.count {
                    places[index].context = .attribute
                    places[index].quotes.insert(.added)
                }
                places[run].quotes.insert(.before)
                places[places.count - 1].quotes.insert(.after)
            } else if source[end] == tokenByte {
                openRun = run
            }
        }
    }

    /// The scan that feeds `MarkupPosition` every byte that is not a token's (`skip` passing those
    /// that cannot change it).
    private static func scanBytes(_ source: UnsafeBufferPointer<UInt8>, marker: [UInt8], valueCount: Int, into scan: inout Scan) {
        let suffix = Array(PageValues.suffix.utf8)
        /// True when `bytes` stand in `source` from `offset` (the caller has checked that they fit).
        /// `memcmp`: `elementsEqual` here was fast only while the compiler inlined it, and an
        /// unrelated use of it elsewhere in the module once undid that (1.3 million calls a 1k build).
        func occurs(_ bytes: [UInt8], at offset: Int) -> Bool {
            bytes.withUnsafeBufferPointer { memcmp(source.baseAddress! + offset, $0.baseAddress!, $0.count) == 0 }
        }
        var position = MarkupPosition()
        var index = 0
        let stopClasses = MarkupPosition.StopClasses()
        while true {
            // To the marker's first byte, the position moved over every byte before it.
            index = position.advance(toMarkerIn: source, from: index, classes: stopClasses)
            guard index < source.count else { break }
            guard source[index] == marker[0], index + marker.count <= source.count, occurs(marker, at: index)
            else {
                position.advance(over: source, at: index)
                index += 1
                continue
            }
            var end = index + marker.count
            var number = 0
            while end < source.count, source[end] >= UInt8(ascii: "0"), source[end] <= UInt8(ascii: "9"), number < valueCount {
                number = number * 10 + Int(source[end] - UInt8(ascii: "0"))
                end += 1
            }
            if number >= valueCount { scan.reachedCount = true }
            guard end > index + marker.count, number < valueCount, source.count >= end + suffix.count, occurs(suffix, at: end)
            else {
                position.advance(over: source, at: index)
                index += 1
                continue
            }
            scan.append(
                start: index, end: end + suffix.count, number: number, context: position.context, startsValue: position.startsUnquotedValue,
                in: source, tokenByte: marker[0])
            position.passToken()
            index = end + suffix.count
        }
    }

    /// True when a scan of the same bytes for `count` values finds these places: each number is
    /// below `count`, and no candidate was refused only for reaching a smaller count.
    func holds(forValueCount count: Int) -> Bool {
        largestNumber < count && (!reachedCount || valueCount >= count)
    }
}

/// Where a byte of an HTML page stands, as far as a value put there is concerned, read as the HTML
/// tokenizer reads it: in an element's content; in a tag, in its name, an attribute's name or an
/// attribute's value, quoted or not; in a comment (`<!--` to `-->`, and what the tokenizer reads
/// as one: `<!…>`, `<?…>`, `</` before anything but a letter, each to the first `>`); or in the
/// text of an element that holds no markup (`title`, `textarea`, `script`, `style`). Fed the page
/// byte by byte.
///
/// A token is read as a name's or a value's bytes, or a comment's text: what is written there is
/// never empty and holds no byte that would change the state (`SnapshotText.name(_:)`,
/// `unquotedAttribute(_:)`, `comment(_:)`, which write even an empty value as something; an
/// unquoted value that could be empty is quoted, `TokenPlaces.Scan.append`). A token in a tag's
/// name makes the name one no plain-text element has, as the value written there does.
///
/// Not read: CDATA sections in SVG and MathML (`<![CDATA[` ends at the first `>` here, never later
/// than in a browser), and script data's escaped states (`<!--` inside `<script>`).
struct MarkupPosition {
    /// Where a token stands, which decides how its value is written (`PageValues`).
    enum Context {
        /// An element's content.
        case content
        /// A quoted attribute value.
        case attribute
        /// An unquoted attribute value.
        case unquotedAttribute
        /// A tag's name, an attribute's name, or the space between attributes, where a token
        /// starts an attribute's name.
        case name
        /// A comment, or what the tokenizer reads as one.
        case comment
        /// The text of an element that holds no markup.
        case plainText
    }

    /// The tokenizer's states, as far as they differ for a value, in two groups: those that watch
    /// only `<`, a quote or `>`, and those that also watch whitespace, `/` and `=` (in a tag) or
    /// `-` and `!` (in a comment): `watchesSeparators`. The tokenizer's
    /// after-attribute-value (quoted) and self-closing start tag states are read as
    /// `beforeAttributeName`: they act alike on every byte.
    fileprivate enum State: UInt8 {
        case content, plainText, doubleQuoted, singleQuoted, bogusComment
        case tagName, beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue, unquotedValue
        case commentStart, commentStartDash, comment, commentEndDash, commentEnd, commentEndBang

        @inline(__always)
        var watchesSeparators: Bool { rawValue >= State.tagName.rawValue }
    }

    /// A tag's name as read so far, lowercased, without an allocation per tag: its first eight
    /// bytes packed, and its length. No plain-text element's name is longer than eight bytes.
    fileprivate struct TagName: Equatable {
        private var packed: UInt64 = 0
        private(set) var count = 0

        init() {}

        init(_ name: String) {
            for byte in name.utf8 { append(byte) }
        }

        var isEmpty: Bool { count == 0 }

        /// Masking shifts and a wrapping count: a checked shift by a count the compiler cannot
        /// bound, and an overflow check, cost about 8 of the 20 instructions of a name's byte.
        @inline(__always)
        mutating func append(_ byte: UInt8) {
            if count < 8 { packed |= UInt64(byte) &<< UInt64(truncatingIfNeeded: 8 &* count) }
            count &+= 1
        }

        /// Byte `index` of the name, for `index` below eight.
        subscript(index: Int) -> UInt8 { UInt8(truncatingIfNeeded: packed >> (8 * index)) }
    }

    fileprivate static let plainTextElements: [TagName] = ["title", "textarea", "script", "style"].map(TagName.init)

    /// The lengths of those names, shortest to longest: a tag whose name falls outside skips the
    /// lookup. Derived from the list, so a name added to it is never skipped by a stale bound; a
    /// name must fit the eight bytes a `TagName` holds.
    fileprivate static let plainTextNameLengths: ClosedRange<Int> = {
        let lengths = plainTextElements.map(\.count)
        precondition(lengths.allSatisfy { $0 <= 8 }, "a plain-text element's name is longer than a TagName holds")
        return (lengths.min() ?? 0)...(lengths.max() ?? 0)
    }()

    /// `plainTextNameLengths`, read once per position: through the lazy global every tag's `>`
    /// paid its initialisation check (640,000 a 1k build).
    private let nameLengths = MarkupPosition.plainTextNameLengths
    private var state = State.content
    private var tagName = TagName()
    private var isEndTag = false
    /// In a plain-text element: the name whose end tag closes it.
    private var openElement = TagName()
    /// Bytes a `<` has read ahead, to be passed without acting on them: the `/` of an end tag,
    /// the `!--` of a comment, the `/name` of a plain-text element's end tag. None is a token's.
    private var passing = 0

    var context: Context { Self.context(of: state) }

    /// True where an unquoted attribute value starts: after `=` and any whitespace.
    var startsUnquotedValue: Bool { state == .beforeAttributeValue }

    /// The context of a byte read in `state`.
    @inline(__always)
    fileprivate static func context(of state: State) -> Context {
        switch state {
        case .content: .content
        case .doubleQuoted, .singleQuoted: .attribute
        case .beforeAttributeValue, .unquotedValue: .unquotedAttribute
        case .tagName, .beforeAttributeName, .attributeName, .afterAttributeName: .name
        case .bogusComment, .commentStart, .commentStartDash, .comment, .commentEndDash, .commentEnd, .commentEndBang: .comment
        case .plainText: .plainText
        }
    }

    /// Moves the position over a token, read as bytes that no state stops at: the value written
    /// there is never empty and holds none of them (see the type's note).
    mutating func passToken() {
        if state == .tagName {
            // No plain-text element's name holds a zero byte.
            tagName.append(0)
        } else {
            state = Self.state(afterOtherBytesIn: state)
        }
    }

    /// What `skip(over:from:classes:)` stops at, as bits of `stopClassTable`.
    fileprivate static let lessThan: UInt16 = 1, doubleQuote: UInt16 = 2, singleQuote: UInt16 = 4, greaterThan: UInt16 = 8,
        slash: UInt16 = 16, markerByte: UInt16 = 32, space: UInt16 = 64, equals: UInt16 = 128, dash: UInt16 = 256

    /// The classes of each byte: the markup bytes some state stops at, HTML's whitespace (tab,
    /// line feed, form feed, carriage return, which the parser reads as a line feed, and space),
    /// and the first byte of a page token (`PageValues.marker`).
    private static let stopClassTable: [UInt16] = (0..<256).map { value in
        let byte = UInt8(value)
        var classes: UInt16 =
            switch byte {
            case UInt8(ascii: "<"): lessThan
            case UInt8(ascii: "\""): doubleQuote
            case UInt8(ascii: "'"): singleQuote
            case UInt8(ascii: ">"): greaterThan
            case UInt8(ascii: "/"): slash
            case UInt8(ascii: "="): equals
            case UInt8(ascii: "-"): dash
            default: 0
            }
        if isSpace(byte) { classes |= space }
        if byte == PageValues.marker.utf8.first! { classes |= markerByte }
        return classes
    }

    /// `stopClassTable`, looked up at a page's every stop without a lazy global's check each time:
    /// its entries at one address for the life of the process (512 bytes, never freed).
    struct StopClasses {
        /// Written once, before it is first read, and never again.
        nonisolated(unsafe) private static let table: UnsafePointer<UInt16> = {
            let table = UnsafeMutablePointer<UInt16>.allocate(capacity: 256)
            for (byte, classes) in stopClassTable.enumerated() { table[byte] = classes }
            return UnsafePointer(table)
        }()

        private let table = StopClasses.table

        @inline(__always)
        subscript(byte: UInt8) -> UInt16 { table[Int(byte)] }
    }

    /// The first index from `index` on (or `bytes.count`) whose byte is the first byte of a page
    /// token or one that `advance(over:at:)` would act on other than by reading a tag's name;
    /// the name's bytes before it are read as `advance(over:at:)` reads them. The context (`state`)
    /// is the same at every byte passed: in text only a `<` counts, in a quoted value only its
    /// closing quote, in a comment a `-` (a bogus one, `>`), in an attribute's name or unquoted
    /// value whitespace and `>` (and in a name `/` and `=`). A state that any byte leaves (the
    /// space between attributes, just after `=`, a comment's start and its dashes) passes nothing.
    @inline(__always)
    mutating func skip(over bytes: UnsafeBufferPointer<UInt8>, from index: Int, classes: StopClasses) -> Int {
        guard passing == 0 else { return index }
        var index = index
        let stops: UInt16
        switch state {
        case .content, .plainText: stops = Self.lessThan | Self.markerByte
        case .doubleQuoted: stops = Self.doubleQuote | Self.markerByte
        case .singleQuoted: stops = Self.singleQuote | Self.markerByte
        case .bogusComment: stops = Self.greaterThan | Self.markerByte
        case .comment: stops = Self.dash | Self.markerByte
        case .attributeName: stops = Self.space | Self.slash | Self.equals | Self.greaterThan | Self.markerByte
        case .unquotedValue: stops = Self.space | Self.greaterThan | Self.markerByte
        case .tagName:
            while index < bytes.count, classes[bytes[index]] & (Self.space | Self.slash | Self.greaterThan | Self.markerByte) == 0 {
                tagName.append(bytes[index] | 0x20)
                index += 1
            }
            return index
        case .beforeAttributeName, .afterAttributeName, .beforeAttributeValue, .commentStart, .commentStartDash, .commentEndDash, .commentEnd,
            .commentEndBang:
            return index
        }
        while index < bytes.count, classes[bytes[index]] & stops == 0 { index += 1 }
        return index
    }

    /// The first index from `index` on (or `bytes.count`) whose byte is the first byte of a page
    /// token, with the position moved over every byte before it: `skip(over:from:classes:)` to
    /// each byte that changes the position and `advance(over:at:)` over it, in one loop. A tag
    /// stops the skip two to four times (its `<`, its quotes, its `>`); a return to the caller
    /// and a call to `advance` at each stop cost about 70 instructions, 300 M in a 1k build.
    @inline(__always)
    mutating func advance(toMarkerIn bytes: UnsafeBufferPointer<UInt8>, from index: Int, classes: StopClasses) -> Int {
        var index = index
        while true {
            index = skip(over: bytes, from: index, classes: classes)
            guard index < bytes.count, classes[bytes[index]] & Self.markerByte == 0 else { return index }
            advance(over: bytes, at: index)
            index += 1
        }
    }

    @inline(__always)
    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>, at index: Int) {
        if passing > 0 {
            passing -= 1
            return
        }
        let byte = bytes[index]
        switch state {
        case .content:
            guard byte == UInt8(ascii: "<") else { return }
            switch Self.opening(at: index, in: bytes) {
            case .none: return
            case .startTag:
                state = .tagName
                tagName = TagName()
                isEndTag = false
            case .endTag:
                state = .tagName
                tagName = TagName()
                isEndTag = true
                passing = 1
            case .comment:
                state = .commentStart
                passing = 3
            case .bogusComment:
                state = .bogusComment
            }
        case .plainText:
            guard byte == UInt8(ascii: "<"), Self.endTag(of: openElement, in: bytes, at: index) else { return }
            state = .tagName
            tagName = openElement
            isEndTag = true
            passing = 1 + openElement.count
        case .tagName where !Self.endsName(byte):
            tagName.append(byte | 0x20)
        default:
            state = Self.state(after: byte, in: state, isEndTag: isEndTag, tagName: tagName, nameLengths: nameLengths, openElement: &openElement)
        }
    }

    /// What a `<` in an element's content opens, as the tokenizer reads the bytes after it.
    fileprivate enum Opening { case none, startTag, endTag, comment, bogusComment }

    /// A start tag before a letter; an end tag for `</` before a letter; a comment for `<!--`;
    /// what the tokenizer reads as a comment, to the first `>`, for any other `<!` (a doctype,
    /// CDATA), `<?`, and `</` before anything but a letter (`</>` is dropped whole, as such a
    /// comment ending at once); nothing before any other byte, or at the end of the bytes.
    @inline(__always)
    fileprivate static func opening(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Opening {
        guard index + 1 < bytes.count else { return .none }
        let next = bytes[index + 1]
        if isLetter(next) { return .startTag }
        switch next {
        case UInt8(ascii: "/"):
            guard index + 2 < bytes.count else { return .none }
            return isLetter(bytes[index + 2]) ? .endTag : .bogusComment
        case UInt8(ascii: "!"):
            return index + 3 < bytes.count && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-") ? .comment : .bogusComment
        case UInt8(ascii: "?"): return .bogusComment
        default: return .none
        }
    }

    /// True when the `<` at `index` starts the end tag of the plain-text element `name`: `</name`
    /// in any case, then whitespace, `/` or `>` (anything else, or the end of the bytes, and the
    /// element's text goes on). Not inlined: the compiler took its bytes of `name` out of its loop
    /// into every stop's path of the block scan (26 instructions a stop, 100 M in a 1k build), for
    /// a test a page makes a few times.
    @inline(never)
    fileprivate static func endTag(of name: TagName, in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard index + 2 + name.count < bytes.count, bytes[index + 1] == UInt8(ascii: "/") else { return false }
        for offset in 0..<name.count where bytes[index + 2 + offset] | 0x20 != name[offset] { return false }
        return endsName(bytes[index + 2 + name.count])
    }

    /// The state after `byte` in any state but content and plain text (where only a `<` counts,
    /// read with the bytes after it), as the tokenizer moves: whitespace, `/`, `=`, quotes and
    /// `>` in a tag, dashes, `!` and `>` in a comment. `>` ends a tag into the text of a
    /// plain-text element when a start tag opens one (`openElement` is then its name).
    @inline(__always)
    fileprivate static func state(
        after byte: UInt8, in state: State, isEndTag: Bool, tagName: TagName, nameLengths: ClosedRange<Int>, openElement: inout TagName
    ) -> State {
        let dash = UInt8(ascii: "-"), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), equals = UInt8(ascii: "=")
        switch state {
        case .content, .plainText: return state
        case .doubleQuoted: return byte == UInt8(ascii: "\"") ? .beforeAttributeName : .doubleQuoted
        case .singleQuoted: return byte == UInt8(ascii: "'") ? .beforeAttributeName : .singleQuoted
        case .bogusComment: return byte == greaterThan ? .content : .bogusComment
        case .tagName, .beforeAttributeName, .attributeName, .afterAttributeName, .beforeAttributeValue, .unquotedValue:
            if byte == greaterThan {
                guard !isEndTag, nameLengths.contains(tagName.count), plainTextElements.contains(tagName) else { return .content }
                openElement = tagName
                return .plainText
            }
            if isSpace(byte) {
                switch state {
                case .beforeAttributeValue: return .beforeAttributeValue
                case .attributeName, .afterAttributeName: return .afterAttributeName
                default: return .beforeAttributeName
                }
            }
            switch state {
            case .tagName: return byte == slash ? .beforeAttributeName : .tagName
            case .beforeAttributeName: return byte == slash ? .beforeAttributeName : .attributeName
            case .attributeName, .afterAttributeName:
                if byte == slash { return .beforeAttributeName }
                if byte == equals { return .beforeAttributeValue }
                return .attributeName
            case .beforeAttributeValue:
                if byte == UInt8(ascii: "\"") { return .doubleQuoted }
                if byte == UInt8(ascii: "'") { return .singleQuoted }
                return .unquotedValue
            default: return .unquotedValue
            }
        case .commentStart: return byte == dash ? .commentStartDash : byte == greaterThan ? .content : .comment
        case .commentStartDash: return byte == dash ? .commentEnd : byte == greaterThan ? .content : .comment
        case .comment: return byte == dash ? .commentEndDash : .comment
        case .commentEndDash: return byte == dash ? .commentEnd : .comment
        case .commentEnd:
            if byte == greaterThan { return .content }
            if byte == UInt8(ascii: "!") { return .commentEndBang }
            return byte == dash ? .commentEnd : .comment
        case .commentEndBang: return byte == dash ? .commentEndDash : byte == greaterThan ? .content : .comment
        }
    }

    /// The state after one or more bytes that no state stops at (letters, digits, most
    /// punctuation), or a token: in the space between attributes they start a name, after `=` a
    /// value, and after a comment's opening or dashes they are its text. Other states stay.
    @inline(__always)
    fileprivate static func state(afterOtherBytesIn state: State) -> State {
        switch state {
        case .beforeAttributeName, .afterAttributeName: .attributeName
        case .beforeAttributeValue: .unquotedValue
        case .commentStart, .commentStartDash, .commentEndDash, .commentEnd, .commentEndBang: .comment
        default: state
        }
    }

    /// HTML's whitespace: tab, line feed, form feed, carriage return (which the parser reads as a
    /// line feed) and space.
    @inline(__always)
    fileprivate static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// True for the bytes that end a tag's name: whitespace, `/` and `>`.
    @inline(__always)
    fileprivate static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }

    /// True for the bytes that end an unquoted attribute value: whitespace and `>`.
    @inline(__always)
    static func endsUnquotedValue(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">")
    }

    fileprivate static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }
}

extension TokenPlaces {
    /// `scanBytes` 64 bytes at a time: a block's bytes that can change the position or start a
    /// token (`<`, `>`, quotes, the marker's first byte) found at once as the bits of a mask
    /// (`StructuralIndex.bits`), and only those visited, in order, with the state of
    /// `MarkupPosition` held in locals. Tags stop a page's scan every seven bytes or so, too often
    /// for a skip to the next stop to pay (`ByteBlocks`); here a stop costs a switch on the state,
    /// not the seventy instructions of a skip's return and an `advance(over:at:)`. In a tag
    /// outside a quoted value whitespace, `/` and `=` count too, and in a comment `-` and `!`: a
    /// second mask holds them all, visited in those states only (each state acts on its own and
    /// passes the others).
    ///
    /// It finds what `scanBytes` finds, on any bytes: bytes no state acts on are passed alike
    /// (those between two stops, in a state that any byte leaves, move it as one such byte does:
    /// `MarkupPosition.state(afterOtherBytesIn:)`), a start tag's name is read whole at its `<`
    /// as `MarkupPosition` reads it (tokens inside it found, and marking it), and an end tag's
    /// name, which no state looks at, is not read.
    private static func scanBlocks(_ source: UnsafeBufferPointer<UInt8>, marker: [UInt8], valueCount: Int, into scan: inout Scan) {
        typealias Block = SIMD64<UInt8>
        typealias State = MarkupPosition.State
        let count = source.count
        guard count > 0, let base = source.baseAddress, let markerFirst = marker.first else { return }
        let raw = UnsafeRawPointer(base)
        let suffix = Array(PageValues.suffix.utf8)
        let markerCount = marker.count
        // A marker of 8 to 16 bytes (a build's prefix has 16) is compared as two words that
        // overlap, and the 4-byte suffix as one: `memcmp` calls cost 19 M in a 1k build.
        let markerAsWords = markerCount >= 8 && markerCount <= 16
        let markerHead = markerAsWords ? marker.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } : 0
        let markerTail = markerAsWords ? marker.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: markerCount - 8, as: UInt64.self) } : 0
        let suffixWord = suffix.count == 4 ? suffix.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : 0

        @inline(__always)
        func occurs(_ bytes: [UInt8], at offset: Int) -> Bool {
            bytes.withUnsafeBufferPointer { memcmp(base + offset, $0.baseAddress!, $0.count) == 0 }
        }

        /// The end of the token at `index` (whose byte is the token byte), recorded in `scan` in
        /// `context`; nil when none starts there, as `scanBytes` tells.
        @inline(__always)
        func token(at index: Int, in context: MarkupPosition.Context, startsValue: Bool) -> Int? {
            guard base[index] == markerFirst, index + markerCount <= count else { return nil }
            let markerFound =
                markerAsWords
                ? raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) == markerHead
                    && raw.loadUnaligned(fromByteOffset: index + markerCount - 8, as: UInt64.self) == markerTail
                : occurs(marker, at: index)
            guard markerFound else { return nil }
            var end = index + markerCount
            var number = 0
            while end < count, base[end] >= UInt8(ascii: "0"), base[end] <= UInt8(ascii: "9"), number < valueCount {
                number = number * 10 + Int(base[end] - UInt8(ascii: "0"))
                end += 1
            }
            if number >= valueCount { scan.reachedCount = true }
            guard end > index + markerCount, number < valueCount, count >= end + suffix.count else { return nil }
            let suffixFound = suffix.count == 4 ? raw.loadUnaligned(fromByteOffset: end, as: UInt32.self) == suffixWord : occurs(suffix, at: end)
            guard suffixFound else { return nil }
            scan.append(
                start: index, end: end + suffix.count, number: number, context: context, startsValue: startsValue, in: source, tokenByte: markerFirst)
            return end + suffix.count
        }

        let classes = MarkupPosition.StopClasses()
        let nameLengths = MarkupPosition.plainTextNameLengths
        let laneBits = StructuralIndex.laneBits
        let tokenByte = PageValues.marker.utf8.first!
        let nameEnd = MarkupPosition.space | MarkupPosition.slash | MarkupPosition.greaterThan
        let lessThan = Block(repeating: UInt8(ascii: "<")), greaterThan = Block(repeating: UInt8(ascii: ">"))
        let doubleQuote = Block(repeating: UInt8(ascii: "\"")), singleQuote = Block(repeating: UInt8(ascii: "'"))
        let tokenBytes = Block(repeating: tokenByte)
        // Whitespace and `!` are below `"` (with the controls, which a tag or a comment passes).
        let quote = Block(repeating: UInt8(ascii: "\"")), slash = Block(repeating: UInt8(ascii: "/"))
        let equalsSign = Block(repeating: UInt8(ascii: "=")), dash = Block(repeating: UInt8(ascii: "-"))

        var state = State.content
        var isEndTag = false
        var tagName = MarkupPosition.TagName()
        /// In a plain-text element: the name whose end tag closes it.
        var openElement = MarkupPosition.TagName()
        /// The first byte not yet passed: each stop moves it on, and a token or a tag's name read
        /// past a stop further.
        var next = 0
        var blockStart = 0
        while blockStart < count {
            let block: Block
            if blockStart + 64 <= count {
                block = raw.loadUnaligned(fromByteOffset: blockStart, as: Block.self)
            } else {
                // The last, partial block, padded with letters, which stop nothing.
                var padded = Block(repeating: UInt8(ascii: "a"))
                for lane in 0..<(count - blockStart) { padded[lane] = base[blockStart + lane] }
                block = padded
            }
            var stops = StructuralIndex.bits(
                (block .== lessThan) .| (block .== greaterThan) .| (block .== doubleQuote) .| (block .== singleQuote) .| (block .== tokenBytes),
                laneBits)
            // The separators of a tag and of a comment, watched in those states only (comparisons
            // and `.|` of masks, which the standard library lowers to vector instructions).
            var separators = StructuralIndex.bits(
                (block .< quote) .| (block .== slash) .| (block .== equalsSign) .| (block .== dash), laneBits)
            while true {
                let candidates = state.watchesSeparators ? stops | separators : stops
                guard candidates != 0 else { break }
                let lowest = candidates & (0 &- candidates)
                let passed = lowest | (lowest &- 1)
                stops &= ~passed
                separators &= ~passed
                let index = blockStart &+ lowest.trailingZeroBitCount
                guard index >= next else { continue }
                // Bytes passed since the last stop, of no class this state stops at.
                if index > next { state = MarkupPosition.state(afterOtherBytesIn: state) }
                next = index + 1
                let byte = base[index]
                if byte == tokenByte, let end = token(at: index, in: MarkupPosition.context(of: state), startsValue: state == .beforeAttributeValue) {
                    next = end
                    if state == .tagName { tagName.append(0) } else { state = MarkupPosition.state(afterOtherBytesIn: state) }
                    continue
                }
                switch state {
                case .content:
                    guard byte == UInt8(ascii: "<") else { continue }
                    switch MarkupPosition.opening(at: index, in: source) {
                    case .none: break
                    case .startTag:
                        state = .tagName
                        isEndTag = false
                        tagName = MarkupPosition.TagName()
                        // The name, as `MarkupPosition` reads it: every byte to whitespace, `/`
                        // or `>`, a token among them marking it.
                        var nameIndex = index + 1
                        while nameIndex < count {
                            let nameByte = base[nameIndex]
                            let byteClasses = classes[nameByte]
                            guard byteClasses & nameEnd == 0 else { break }
                            if byteClasses & MarkupPosition.markerByte != 0, let end = token(at: nameIndex, in: .name, startsValue: false) {
                                tagName.append(0)
                                nameIndex = end
                                continue
                            }
                            tagName.append(nameByte | 0x20)
                            nameIndex += 1
                        }
                        next = nameIndex
                        // Whitespace or `/` after the name starts the attributes (a stop less a tag).
                        if nameIndex < count, base[nameIndex] != UInt8(ascii: ">") {
                            state = .beforeAttributeName
                            next = nameIndex + 1
                        }
                    case .endTag:
                        state = .tagName
                        isEndTag = true
                        next = index + 2
                    case .comment:
                        state = .commentStart
                        next = index + 4
                    case .bogusComment:
                        state = .bogusComment
                    }
                case .plainText:
                    if byte == UInt8(ascii: "<"), MarkupPosition.endTag(of: openElement, in: source, at: index) {
                        state = .tagName
                        isEndTag = true
                        tagName = openElement
                        next = index + 2 + openElement.count
                    }
                case .tagName where classes[byte] & nameEnd == 0:
                    // A byte of an end tag's name (a start tag's was read at its `<`).
                    break
                default:
                    state = MarkupPosition.state(
                        after: byte, in: state, isEndTag: isEndTag, tagName: tagName, nameLengths: nameLengths, openElement: &openElement)
                }
            }
            blockStart = max(blockStart + 64, next)
        }
    }
}

/// HTML the site built itself (a drawing, a source listing), as the token `PageValues` replaces
/// with it unescaped. Only `PageValues.html(_:)` makes one: snapshot text never becomes one.
public struct TrustedHTML: Sendable, Hashable {
    let token: String
}

/// An error in a theme template, with the template's location (`Theme.templateLocation(_:)`), line and column.
public struct TemplateError: Error, CustomStringConvertible {
    public let description: String
}

/// Parsed templates, ready to render many pages (concurrently).
public struct TemplateSet: Sendable {
    let templates: [String: MustacheTemplate]

    /// Parses every template of `theme`; a template that uses the token marker is refused.
    public init(theme: Theme) throws {
        var parsed: [String: MustacheTemplate] = [:]
        for (name, source) in theme.templates.sorted(by: { $0.key < $1.key }) {
            guard name.hasSuffix(".md") || name.hasSuffix(".html") || name.hasSuffix(".mustache") else { continue }
            if source.contains(PageValues.marker) {
                throw TemplateError(description: "\(theme.templateLocation(name)): the text \(PageValues.marker) is reserved by the renderer")
            }
            do {
                // Parsed under its location, so that an error (parsing, or rendering it later) names it there.
                parsed[name] = try MustacheTemplate(parsing: source, name: theme.templateLocation(name))
            } catch {
                throw TemplateError(description: error.description)
            }
        }
        templates = parsed
    }

    /// Where the template `name` was read from (a file of `--templates`, or the built-in theme's),
    /// as its errors name it.
    func location(of name: String) -> String {
        templates[name]?.name ?? name
    }

    /// The template files `{{> name}}` may name, relative to a templates folder, in the order they
    /// are tried: `partials/name.md`, `partials/name.html`, `name.md`, `name`. `build` and
    /// `template render --partials` both look partials up this way.
    public static func partialCandidates(named name: String) -> [String] {
        ["partials/\(name).md", "partials/\(name).html", "\(name).md", name]
    }

    /// Partials by name, found as `partialCandidates(named:)` says.
    struct Partials: MustachePartialProvider {
        let templates: [String: MustacheTemplate]

        func template(named name: String) -> MustacheTemplate? {
            TemplateSet.partialCandidates(named: name).lazy.compactMap { templates[$0] }.first
        }
    }

    var partials: Partials { Partials(templates: templates) }

    /// Renders the Markdown template `name` with `context` into HTML; values go through `values`.
    public func renderPage(_ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget = .standard) throws -> String {
        String(decoding: try renderPageBytes(name, context: context, values: values, budget: budget), as: UTF8.self)
    }

    /// `renderPage` as UTF-8 bytes: the Markdown, cmark-gfm's HTML and the substituted page stay
    /// bytes, with no `String` of any of them.
    func renderPageBytes(
        _ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget = .standard, memo: PageMemo? = nil
    ) throws -> [UInt8] {
        let markdown = try renderMarkdown(name, context: context, values: values, budget: budget)
        if let memo { return memo.substitutedMarkdown(markdown, values: values) }
        return markdown.withUnsafeBufferPointer { markdown in
            Markdown.withHTML(fromUTF8: markdown) { values.substitutedBytes(in: $0) }
        }
    }

    /// `renderPageBytes` as the token of the page's HTML, which the layout's substitution writes in
    /// place where it holds the token (`PageValues.html(length:writing:)`), for the values
    /// registered by then: the same bytes, with no array of their own to copy into the page.
    func renderPageInPlace(
        _ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget = .standard, memo: PageMemo
    ) throws -> TrustedHTML {
        let markdown = try renderMarkdown(name, context: context, values: values, budget: budget)
        let valueCount = values.count
        // Room for the HTML as for a page's substitution (`substitutedBytes(in:tokens:)`), with
        // more for cmark-gfm's markup, which the Markdown's length does not count.
        return values.html(length: markdown.count + markdown.count / 2 + values.trustedLength) { [unowned values] output in
            memo.appendSubstitutedMarkdown(markdown, values: values, valueCount: valueCount, to: &output)
        }
    }

    /// The Markdown template `name` rendered with `context`, its values as tokens.
    private func renderMarkdown(_ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget) throws -> [UInt8] {
        guard let template = templates[name] else { throw TemplateError(description: "no template named \(name)") }
        let markdown: [UInt8]
        do {
            markdown = try values.withRenderEscaping { escaping throws(MustacheError) in
                try template.renderUTF8(context, partials: partials, escaping: escaping, budget: budget)
            }
        } catch {
            throw TemplateError(description: error.description)
        }
        // What cmark-gfm would spend quadratic work or memory on (a template's table or images) is
        // refused before it is parsed.
        if let hazard = markdown.withUnsafeBufferPointer(MarkdownHazard.hazard(in:)) {
            throw TemplateError(description: "\(template.name): \(hazard)")
        }
        return markdown
    }

    /// Renders the HTML layout `name` around a page; values go through `values`, as on the page.
    public func renderLayout(_ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget = .standard) throws -> String {
        String(decoding: try renderLayoutBytes(name, context: context, values: values, budget: budget), as: UTF8.self)
    }

    /// `renderLayout` as the page's UTF-8 bytes, as they are written.
    func renderLayoutBytes(
        _ name: String, context: MustacheValue, values: PageValues, budget: MustacheBudget = .standard, memo: PageMemo? = nil
    ) throws -> [UInt8] {
        guard let template = templates[name] else { throw TemplateError(description: "no template named \(name)") }
        let rendered: [UInt8]
        do {
            rendered = try values.withRenderEscaping { escaping throws(MustacheError) in
                try template.renderUTF8(context, partials: partials, escaping: escaping, budget: budget)
            }
        } catch {
            throw TemplateError(description: error.description)
        }
        if let memo { return memo.substitutedLayout(rendered, values: values) }
        return rendered.withUnsafeBufferPointer { values.substitutedBytes(in: $0) }
    }
}

/// Bytes as a dictionary key: found by a hash of every byte, made once with the key, and compared
/// whole, so two inputs with the same hash are still told apart. `init(_:)`'s hash is not seeded,
/// so anyone can make inputs that share it: only for bytes a snapshot does not spell (`PageMemo`'s
/// Markdown and layouts, the templates' text with a token for every value). Snapshot bytes (the
/// paywall previews' configs) are keyed with `init(seededHashOf:)`.
struct ExactBytes: Hashable, Sendable {
    let bytes: [UInt8]
    let hash: Int

    init(_ bytes: [UInt8]) {
        self.init(bytes, hash: bytes.withUnsafeBytes(Self.hash))
    }

    /// `bytes` found by `Hasher`'s hash of them, seeded per process, so a crafted snapshot cannot
    /// pile many keys onto one hash. In one `combine(bytes:)` call: a `[UInt8]` key hashes each
    /// byte on its own, at every lookup and every resize of the dictionary.
    init(seededHashOf bytes: [UInt8]) {
        var hasher = Hasher()
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        self.init(bytes, hash: hasher.finalize())
    }

    /// `bytes` found by `hash` (the tests give two inputs the same one).
    init(_ bytes: [UInt8], hash: Int) {
        self.bytes = bytes
        self.hash = hash
    }

    /// A hash of every byte, eight at a time: `Hasher` spent about 7 instructions a byte on
    /// pages' Markdown, as much as a tenth of cmark-gfm's parse. Not a keyed hash: inputs with
    /// the same hash are still told apart by their bytes, at the cost of comparing them.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var offset = 0
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
        }
        while offset + 8 <= bytes.count {
            mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
        mix(tail)
        return Int(truncatingIfNeeded: hash)
    }

    static func == (lhs: ExactBytes, rhs: ExactBytes) -> Bool {
        guard lhs.hash == rhs.hash, lhs.bytes.count == rhs.bytes.count else { return false }
        // Empty arrays may have no storage to compare.
        return lhs.bytes.isEmpty
            || lhs.bytes.withUnsafeBytes { left in rhs.bytes.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0 } }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}

/// What the pages of one build share, so that work a page repeats byte for byte is done once:
/// one token prefix (`PageValues(memo:)`; tokens are numbered from 0 on each page, so pages of the
/// same shape render the same Markdown), cmark-gfm's HTML for Markdown met before, and where the
/// tokens stand (`TokenPlaces`) in that HTML and in layouts met before. Most placement and paywall
/// pages of an export share their Markdown with another page, and most pages their layout.
///
/// Exact: an input is found by all its bytes, not only their hash, and what is kept is what a
/// render of those bytes gives, so a page is the same whether its input was met before or not, in
/// whatever order the pages render. Bounded: an input is kept from the second time it is met (the
/// first only leaves its hash, so inputs met once, such as most funnel pages, cost no memory), up
/// to `byteLimit` bytes in all; past it, inputs are rendered as before. Safe from any thread.
final class PageMemo: @unchecked Sendable {
    /// The most bytes of inputs, HTML and token places kept.
    static let byteLimit = 48 << 20
    /// The most hashes of inputs met once that are kept.
    static let hashLimit = 1 << 16

    /// The token prefix of every page of the build, random for each build.
    let prefix = PageValues.randomPrefix()

    /// cmark-gfm's HTML of a Markdown input, and its tokens' places.
    struct RenderedMarkdown: Sendable {
        let html: [UInt8]
        let tokens: TokenPlaces
    }

    private let lock = NSLock()
    private var metOnce: Set<Int> = []
    private var markdown: [ExactBytes: RenderedMarkdown] = [:]
    private var layouts: [ExactBytes: TokenPlaces] = [:]
    private var keptBytes = 0

    /// The page's HTML for the Markdown `input` and the page's `values`: cmark-gfm's HTML and its
    /// tokens' places as kept, or made (and kept, from the second time `input` is met).
    func substitutedMarkdown(_ input: [UInt8], values: PageValues) -> [UInt8] {
        let key = ExactBytes(input)
        if let rendered = lock.withLock({ markdown[key] }) {
            return rendered.html.withUnsafeBufferPointer { values.substitutedBytes(in: $0, tokens: rendered.tokens) }
        }
        return input.withUnsafeBufferPointer { input in
            Markdown.withHTML(fromUTF8: input) { html in
                values.substitutedBytes(in: html, tokens: tokens(of: html, key: key, input: input, valueCount: values.count, values: values))
            }
        }
    }

    /// `substitutedMarkdown` for the first `valueCount` of the page's `values` (those registered
    /// when `input` was rendered), appended to `output`: a page's body, written into its layout.
    func appendSubstitutedMarkdown(_ input: [UInt8], values: PageValues, valueCount: Int, to output: inout ByteWriter) {
        let key = ExactBytes(input)
        if let rendered = lock.withLock({ markdown[key] }) {
            rendered.html.withUnsafeBufferPointer { values.appendSubstituted($0, tokens: rendered.tokens, valueCount: valueCount, to: &output) }
            return
        }
        input.withUnsafeBufferPointer { input in
            Markdown.withHTML(fromUTF8: input) { html in
                let tokens = tokens(of: html, key: key, input: input, valueCount: valueCount, values: values)
                values.appendSubstituted(html, tokens: tokens, valueCount: valueCount, to: &output)
            }
        }
    }

    /// Where the tokens of cmark-gfm's `html` of the Markdown `input` stand, for `valueCount`
    /// values; kept with the HTML from the second time `input` is met.
    private func tokens(
        of html: UnsafeBufferPointer<UInt8>, key: ExactBytes, input: UnsafeBufferPointer<UInt8>, valueCount: Int, values: PageValues
    ) -> TokenPlaces {
        let tokens = values.tokenPlaces(in: html, valueCount: valueCount)
        if shouldKeep(key, bytes: input.count + html.count + tokens.places.capacity * MemoryLayout<TokenPlaces.Place>.stride) {
            let rendered = RenderedMarkdown(html: Array(html), tokens: tokens)
            lock.withLock { markdown[key] = rendered }
        }
        return tokens
    }

    /// The page for the rendered layout `input` and the page's `values`, with its tokens' places
    /// as kept, or found (and kept, from the second time `input` is met).
    func substitutedLayout(_ input: [UInt8], values: PageValues) -> [UInt8] {
        let key = ExactBytes(input)
        return input.withUnsafeBufferPointer { input in
            if let tokens = lock.withLock({ layouts[key] }) {
                return values.substitutedBytes(in: input, tokens: tokens)
            }
            let tokens = values.tokenPlaces(in: input)
            if shouldKeep(key, bytes: input.count + tokens.places.capacity * MemoryLayout<TokenPlaces.Place>.stride) {
                lock.withLock { layouts[key] = tokens }
            }
            return values.substitutedBytes(in: input, tokens: tokens)
        }
    }

    /// True when `key` was met before and `bytes` more fit in the limit, which then counts them;
    /// else `key`'s hash is noted as met.
    private func shouldKeep(_ key: ExactBytes, bytes: Int) -> Bool {
        lock.withLock {
            guard metOnce.contains(key.hash) else {
                if metOnce.count < Self.hashLimit { metOnce.insert(key.hash) }
                return false
            }
            guard keptBytes + bytes <= Self.byteLimit else { return false }
            keptBytes += bytes
            return true
        }
    }
}
