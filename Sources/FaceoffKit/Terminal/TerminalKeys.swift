import Dispatch
import FaceoffNHL
import Foundation
import Synchronization

/// Single key presses on the terminal, for `watch`'s scoreboard: while open, standard input is
/// in raw mode (no echo, no waiting for Enter) and read as it becomes readable, on a dispatch
/// source, so no thread of Swift's pool ever blocks on it and the screen keeps updating.
/// Ctrl-C, Ctrl-\\, SIGTERM and SIGHUP arrive as `q`, so the terminal is given back as it was.
/// Escape sequences (arrows, function keys) are dropped whole: an arrow's `ESC [ A` must not
/// read as `[`.
public final class TerminalKeys: Sendable {
    public let keys: AsyncStream<Character>
    private let continuation: AsyncStream<Character>.Continuation
    private let original: Termios
    private let sources: Mutex<Sources>

    /// The dispatch sources, cancelled once by `close` (dispatch objects are thread-safe).
    struct Sources: @unchecked Sendable { var list: [any DispatchSourceProtocol] }

    /// The terminal's settings, to put back.
    struct Termios: @unchecked Sendable { var value: termios }

    /// nil unless standard input is a terminal (piped, nothing reads the keyboard).
    public static func open() -> TerminalKeys? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(STDIN_FILENO, &settings) == 0 else { return nil }
        return TerminalKeys(settings)
    }

    private init(_ settings: termios) {
        original = Termios(value: settings)
        (keys, continuation) = AsyncStream.makeStream(of: Character.self)
        var raw = settings
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)

        let queue = DispatchQueue(label: "faceoff.keys")
        let continuation = continuation
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        let parser = KeyParser()
        input.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
            guard count > 0 else {
                // End of input (the terminal went away): as if quit.
                continuation.yield("q")
                input.cancel()
                return
            }
            for byte in buffer[0..<count] { if let key = parser.key(byte) { continuation.yield(key) } }
        }
        var all: [any DispatchSourceProtocol] = [input]
        for signal in Self.quitting {
            Foundation.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: queue)
            source.setEventHandler { continuation.yield("q") }
            source.resume()
            all.append(source)
        }
        input.resume()
        sources = Mutex(Sources(list: all))
    }

    /// Gives the terminal back as it was, and Ctrl-C its usual meaning.
    public func close() {
        let open = sources.withLock { sources -> [any DispatchSourceProtocol] in
            defer { sources.list.removeAll() }
            return sources.list
        }
        guard !open.isEmpty else { return }
        for source in open { source.cancel() }
        var settings = original.value
        tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        for signal in Self.quitting { Foundation.signal(signal, SIG_DFL) }
        continuation.finish()
    }

    deinit { close() }

    /// The signals that quit `watch` the way `q` does.
    static let quitting = [SIGINT, SIGQUIT, SIGTERM, SIGHUP]
}

/// Bytes from the keyboard to keys: printable ASCII passes, escape sequences (ESC [ ... or
/// ESC O x, as arrows and function keys send) are swallowed whole, ESC and another key (Alt)
/// too. Used on the dispatch source's one queue only.
final class KeyParser: @unchecked Sendable {
    private enum State { case text, escape, sequence }
    private var state = State.text

    func key(_ byte: UInt8) -> Character? {
        switch state {
        case .text:
            if byte == 0x1B {
                state = .escape
                return nil
            }
            return (0x20..<0x7F).contains(byte) ? Character(UnicodeScalar(byte)) : nil
        case .escape:
            state = byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") ? .sequence : .text
            return nil
        case .sequence:
            // Parameters and intermediates (0x20–0x3F) go on; a final byte (0x40–0x7E) ends it.
            if !(0x20...0x3F).contains(byte) { state = .text }
            return nil
        }
    }
}
