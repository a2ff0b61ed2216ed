import Dispatch
import Foundation
import Synchronization

/// Single key presses on the terminal, for `watch`'s scoreboard: while open, standard input is
/// in raw mode (no echo, no waiting for Enter) and read as it becomes readable, on a dispatch
/// source, so no thread of Swift's pool ever blocks on it and the screen keeps updating.
/// Ctrl-C and SIGTERM arrive as `q`, so the terminal is always given back as it was.
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
        input.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, 64) }
            guard count > 0 else {
                // End of input (the terminal went away): as if quit.
                continuation.yield("q")
                input.cancel()
                return
            }
            for byte in buffer[0..<count] where byte < 0x80 { continuation.yield(Character(UnicodeScalar(byte))) }
        }
        var all: [any DispatchSourceProtocol] = [input]
        for signal in [SIGINT, SIGTERM] {
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
        for signal in [SIGINT, SIGTERM] { Foundation.signal(signal, SIG_DFL) }
        continuation.finish()
    }

    deinit { close() }
}
