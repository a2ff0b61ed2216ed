import FaceoffKit
import Foundation

/// A small tmpfs of the test's own, to see what a full or read-only disk does. Tests run as
/// root here, where file modes block nothing, so a real file system is what can refuse.
final class Tmpfs: @unchecked Sendable {
    let url: URL
    var path: String { url.path }

    /// Mounting needs root (or CAP_SYS_ADMIN); tests that need it skip without.
    static let available: Bool = {
        guard geteuid() == 0, let probe = try? Tmpfs(kilobytes: 64) else { return false }
        probe.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        url = try TestPaths.temporaryDirectory()
        guard Self.command("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path]) else {
            try? FileManager.default.removeItem(at: url)
            throw POSIXError(.EPERM)
        }
    }

    /// Writes a filler file until the disk refuses.
    func fill() {
        let descriptor = open(url.appendingPathComponent(".filler").path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        // What a block could not take, a byte at a time.
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, 1) }) > 0 {}
    }

    func makeRoom() { unlink(url.appendingPathComponent(".filler").path) }

    func remount(readOnly: Bool) {
        _ = Self.command("/bin/mount", ["-o", "remount,\(readOnly ? "ro" : "rw")", url.path])
    }

    func unmount() {
        _ = Self.command("/bin/umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    private static func command(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        guard (try? process.run()) != nil else { return false }
        exited.wait()
        return process.terminationStatus == 0
    }
}
