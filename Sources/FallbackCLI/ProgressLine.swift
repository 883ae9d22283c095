import FallbackAudit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line of progress on standard error, redrawn in place, for every command that works long.
///
/// Drawn only on a terminal, without `--quiet`, and only once the work has lasted `delay`
/// seconds, so a quick run shows nothing; then redrawn at most every `interval` seconds
/// (`\r`, the text, clear to the end of the line), cut to one column less than the terminal is
/// wide, so that it never wraps (a wrapped line is not redrawn in place). Every other message on standard error first
/// clears the line: install it with `attach(to:quiet:)`, which routes the environment's
/// `writeError` through `clear()`. The clock is the environment's, so tests need no sleeping.
/// Safe to update from any thread (a build reports pages from several).
final class ProgressLine: @unchecked Sendable {
    /// How long work runs before the line first appears, in seconds.
    static let delay = 1.0
    /// The shortest time between two draws, in seconds.
    static let interval = 0.1
    /// Clears from the cursor to the end of the line.
    static let clearToEnd = "\u{1B}[K"

    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let isEnabled: Bool
    private let columns: @Sendable () -> Int
    private let lock = NSLock()
    private var start: Double
    private var lastDraw: Double?
    private var isDrawn = false

    /// `write` puts text on the terminal as it is (the line escapes its own text); `clock` reads
    /// seconds from any fixed origin; `columns` is the terminal's width, read at each draw (it may
    /// be resized).
    init(
        write: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> Double, isEnabled: Bool,
        columns: @escaping @Sendable () -> Int = { CommandEnvironment.defaultTerminalWidth }
    ) {
        self.write = write
        self.clock = clock
        self.isEnabled = isEnabled
        self.columns = columns
        start = isEnabled ? clock() : 0
    }

    /// A line for `environment`, shown only when standard error is a terminal and not `quiet`;
    /// `environment.writeError` then clears the line before each message.
    static func attach(to environment: inout CommandEnvironment, quiet: Bool) -> ProgressLine {
        let line = ProgressLine(
            write: environment.writeTerminal, clock: environment.clock, isEnabled: environment.isErrorTerminal && !quiet,
            columns: { [environment] in environment.errorTerminalWidth })
        let writeError = environment.writeError
        environment.writeError = { text in
            line.clear()
            writeError(text)
        }
        return line
    }

    /// Shows `text` (built only when it will be drawn) in place of what the line showed.
    func update(_ text: @autoclosure () -> String) {
        guard isEnabled else { return }
        lock.withLock {
            let now = clock()
            guard now - start >= Self.delay, lastDraw.map({ now - $0 >= Self.interval }) ?? true else { return }
            lastDraw = now
            isDrawn = true
            write("\r" + Self.fitted(text(), width: max(1, columns() - 1)) + Self.clearToEnd)
        }
    }

    /// Shows `verb` with a count: `Reading snapshots: 12/200 (name)`.
    func update(_ verb: String, _ done: Int, of total: Int, item: String? = nil) {
        update("\(verb): \(done)/\(total)" + (item.map { " (\($0))" } ?? ""))
    }

    /// Starts timing anew, for the next piece of work: a quick one again shows nothing.
    func restart() {
        guard isEnabled else { return }
        clear()
        lock.withLock {
            start = clock()
            lastDraw = nil
        }
    }

    /// Removes the line, if drawn, leaving the cursor at the start of an empty line.
    func clear() {
        guard isEnabled else { return }
        lock.withLock {
            guard isDrawn else { return }
            isDrawn = false
            write("\r" + Self.clearToEnd)
        }
    }

    /// `text` with every control and hidden character spelled out (it may hold untrusted names),
    /// cut to `width` characters.
    static func fitted(_ text: String, width: Int) -> String {
        let visible = VisibleText.forTerminal(text)
        return visible.count <= width ? visible : String(visible.prefix(width - 1)) + "…"
    }
}

extension CommandEnvironment {
    /// The width assumed when neither the terminal nor `COLUMNS` tells it.
    static let defaultTerminalWidth = 80

    /// How many columns standard error's terminal has: as the terminal says (`terminalColumns`),
    /// else as `COLUMNS` says, else 80.
    var errorTerminalWidth: Int {
        if let columns = terminalColumns(), columns > 0 { return columns }
        if let columns = variables["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return Self.defaultTerminalWidth
    }

    /// The columns of the terminal open on `descriptor` (TIOCGWINSZ), or nil when it is none or
    /// does not say.
    static func terminalColumns(of descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
