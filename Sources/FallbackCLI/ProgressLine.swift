import FallbackAudit
import Foundation

/// One line of progress on standard error, redrawn in place, for every command that works long.
///
/// Drawn only on a terminal, without `--quiet`, and only once the work has lasted `delay`
/// seconds, so a quick run shows nothing; then redrawn at most every `interval` seconds
/// (`\r`, the text, clear to the end of the line). Every other message on standard error first
/// clears the line: install it with `attach(to:quiet:)`, which routes the environment's
/// `writeError` through `clear()`. The clock is the environment's, so tests need no sleeping.
/// Safe to update from any thread (a build reports pages from several).
final class ProgressLine: @unchecked Sendable {
    /// How long work runs before the line first appears, in seconds.
    static let delay = 1.0
    /// The shortest time between two draws, in seconds.
    static let interval = 0.1
    /// The longest line drawn, in characters, so that it fits one row of a narrow terminal.
    static let width = 72
    /// Clears from the cursor to the end of the line.
    static let clearToEnd = "\u{1B}[K"

    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let isEnabled: Bool
    private let lock = NSLock()
    private var start: Double
    private var lastDraw: Double?
    private var isDrawn = false

    /// `write` puts text on the terminal as it is (the line escapes its own text); `clock` reads
    /// seconds from any fixed origin.
    init(write: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> Double, isEnabled: Bool) {
        self.write = write
        self.clock = clock
        self.isEnabled = isEnabled
        start = isEnabled ? clock() : 0
    }

    /// A line for `environment`, shown only when standard error is a terminal and not `quiet`;
    /// `environment.writeError` then clears the line before each message.
    static func attach(to environment: inout CommandEnvironment, quiet: Bool) -> ProgressLine {
        let line = ProgressLine(
            write: environment.writeTerminal, clock: environment.clock, isEnabled: environment.isErrorTerminal && !quiet)
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
            write("\r" + Self.fitted(text()) + Self.clearToEnd)
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
    static func fitted(_ text: String) -> String {
        let visible = VisibleText.forTerminal(text)
        return visible.count <= width ? visible : String(visible.prefix(width - 1)) + "…"
    }
}
