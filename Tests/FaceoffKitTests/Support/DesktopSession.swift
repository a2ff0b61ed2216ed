import Foundation
import Testing
@testable import FaceoffBase
@testable import FaceoffHTTP
@testable import FaceoffKit

/// A private D-Bus session bus with the tests' notification daemon
/// (Tests/tools/notification_daemon.py) recording each Notify call.
final class DesktopSession: @unchecked Sendable {
    let bus: Process
    let daemon: Process
    let address: String
    let log: URL
    let directory: URL

    init() throws {
        directory = try TestPaths.temporaryDirectory()
        log = directory.appendingPathComponent("notifications.jsonl")
        bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--nofork", "--print-address=1", "--address=unix:path=\(directory.path)/bus"]
        let out = Pipe()
        bus.standardOutput = out
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        address = Self.firstLine(out)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        daemon.arguments = [TestPaths.repositoryRoot.appendingPathComponent("Tests/tools/notification_daemon.py").path, log.path]
        daemon.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        let ready = Pipe()
        daemon.standardOutput = ready
        try daemon.run()
        guard Self.firstLine(ready) == "ready" else { throw POSIXError(.EIO) }
    }

    static func firstLine(_ pipe: Pipe) -> String {
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }

    var calls: [[String: Any]] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func close() {
        // Not waitUntilExit: on Linux it spins a run loop at full CPU while it waits.
        kill(daemon.processIdentifier, SIGKILL)
        kill(bus.processIdentifier, SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}
