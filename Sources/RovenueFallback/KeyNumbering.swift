/// Small numbers for keys, in the order they are first given: equal bytes, equal numbers. A key
/// that is the very string value given before (a copy of one `String`: the findings about one
/// placement all hold its key's string) is numbered from the value's two words, without reading
/// its bytes; any other is hashed once (a key can be a megabyte, named by thousands of findings).
package struct KeyNumbering {
    /// A string value's two words (`ExactKey.sameRepresentation`): the same words, the same bytes.
    private struct Representation: Hashable {
        let first: UInt64
        let second: UInt64
    }

    private var numbers: [ExactKey: Int] = [:]
    /// The values seen, by their words; each holds its string, so the words stay its own.
    private var seen: [Representation: (key: ExactKey, number: Int)] = [:]

    package init() {}

    /// The number of `key`: the one given to its bytes before, else the next.
    package mutating func number(for key: ExactKey) -> Int {
        let representation: Representation? =
            MemoryLayout<String>.size == 16
            ? withUnsafeBytes(of: key.string) { words in
                Representation(first: words.loadUnaligned(as: UInt64.self), second: words.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            } : nil
        if let representation, let known = seen[representation] { return known.number }
        let number: Int
        if let known = numbers[key] {
            number = known
        } else {
            number = numbers.count
            numbers[key] = number
        }
        if let representation { seen[representation] = (key, number) }
        return number
    }
}
