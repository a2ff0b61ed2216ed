import FaceoffKit
import Foundation
import Synchronization

final class Drawn: Sendable {
    let data = Mutex(Data())
}

/// A program run on a pseudo-terminal, as in a terminal window: everything it draws, and keys
/// typed to it. Its stderr goes to a file of its own.
final class PseudoTerminal: @unchecked Sendable {
    let process = Process()
    let master: Int32
    let slave: Int32
    private let drawn = Drawn()
    private let reader: Thread

    init(_ executable: String, _ arguments: [String], environment: [String: String], stderr: URL) throws {
        // Linux's pty multiplexer; Glibc's module has no posix_openpt, so unlocking and naming
        // the terminal are the ioctls it wraps (TIOCSPTLCK, TIOCGPTN: asm-generic numbers).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlock) == 0, ioctl(master, UInt(0x8004_5430), &number) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw CocoaError(.fileReadUnknown) }
        var size = winsize(ws_row: 40, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = try FileHandle(forWritingTo: stderr)
        let master = master
        let drawn = drawn
        reader = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, 4096) }
                if count > 0 {
                    drawn.data.withLock { $0.append(contentsOf: buffer[0..<count]) }
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        reader.start()
        try process.run()
    }

    /// Everything drawn so far.
    var text: String { String(decoding: drawn.data.withLock { $0 }, as: UTF8.self) }

    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, bytes.count) }
    }

    /// The terminal's settings now (after the program has ended: as it left them).
    var settings: termios {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings
    }

    func exit(within seconds: TimeInterval) async -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !process.isRunning { return process.terminationStatus }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    func close() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        // The reader's read ends (EIO) once no one holds the terminal's other side.
        Glibc.close(slave)
        Thread.sleep(forTimeInterval: 0.05)
        Glibc.close(master)
    }
}

/// Waits (real time, up to `limit`) until `condition` holds; whether it did.
func eventually(within limit: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return condition()
}
