import FaceoffKit
import Foundation
import Synchronization
import Testing

/// A real Mosquitto broker (Debian's `mosquitto`) on a loopback port, for one test, with its
/// sessions and messages kept on disk across a stop and a start; and subscribers
/// (`mosquitto_sub`).
final class Mosquitto: @unchecked Sendable {
    static let broker = "/usr/sbin/mosquitto"
    static let subscriber = "/usr/bin/mosquitto_sub"
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: broker) && FileManager.default.isExecutableFile(atPath: subscriber)
    }

    let directory: URL
    private(set) var port: Int
    private let config: URL
    private let settings: (extra: String, anonymous: Bool)
    private var process: Background?
    /// The login the test's own clients use, when the broker wants one.
    var login: (user: String, password: String)?
    var loginArguments: [String] { login.map { ["-u", $0.user, "-P", $0.password] } ?? [] }

    /// `extra` is more of mosquitto.conf (listeners of its own need `per_listener_settings`).
    init(directory: URL, extra: String = "", anonymous: Bool = true) throws {
        self.directory = directory.appendingPathComponent("broker")
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        config = self.directory.appendingPathComponent("mosquitto.conf")
        settings = (extra, anonymous)
        // The port was free when asked; another test's server may take it before the broker
        // binds it, and the broker then exits while the port still accepts (the other's).
        for _ in 0..<5 {
            try writeConfig()
            if try launch() { return }
            port = try Self.freePort()
        }
        throw POSIXError(.EADDRINUSE)
    }

    private func writeConfig() throws {
        let (extra, anonymous) = settings
        // Run as root (CI's container), mosquitto drops to its own user unless told to stay.
        let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
        try """
        per_listener_settings true
        user \(user)
        persistence true
        persistence_location \(self.directory.path)/
        autosave_interval 1
        log_dest stderr
        listener \(port) 127.0.0.1
        allow_anonymous \(anonymous)
        \(extra)

        """.write(to: config, atomically: true, encoding: .utf8)
    }

    deinit { process?.kill() }

    /// Starts it again on its port (after `stop`); an error when it can't listen there.
    func start() throws {
        guard try launch() else { throw POSIXError(.EADDRINUSE) }
    }

    /// Starts it on `port`; whether it is listening there (it says "running" once its
    /// listener is open, and exits when the port is taken).
    private func launch() throws -> Bool {
        let started = try Background(Self.broker, ["-c", config.path], environment: ["PATH": "/usr/bin:/bin"])
        process = started
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, started.status == nil, !started.stderr.contains(" running") { usleep(20_000) }
        guard started.status == nil else { return false }
        while Date() < deadline, !Self.accepts(port) { usleep(20_000) }
        return true
    }

    /// Stops it hard (SIGKILL: the test runner's threads block SIGTERM, and a child inherits
    /// that). What it holds was saved within the last second (`autosave_interval 1`).
    func stop() async {
        process?.kill()
        _ = await process?.exit(within: 10)
        process = nil
    }

    /// Stops it answering without closing its connections (SIGSTOP): what is published to it
    /// is never acknowledged.
    func freeze() { process?.signal(SIGSTOP) }

    /// Answers again after `freeze`, taking what was sent to it meanwhile.
    func thaw() { process?.signal(SIGCONT) }

    var url: String { "mqtt://127.0.0.1:\(port)" }

    /// A subscriber to `topics` with a persistent session (QoS 1): what is published while it
    /// is away (a broker restart) reaches it when it is back.
    func subscribe(_ topics: [String] = ["faceoff/#", "homeassistant/#"]) async throws -> Subscriber {
        let subscriber = try Subscriber(port: port, topics: topics, login: loginArguments)
        // Subscribed once the broker has the session; a retained message proves it.
        try await Task.sleep(for: .milliseconds(300))
        return subscriber
    }

    /// What the broker holds retained under `topic` (a filter), read by a fresh client.
    func retained(_ topic: String) async throws -> [Subscriber.Message] {
        let result = try await CLI.execute(
            Self.subscriber,
            loginArguments + ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "--retained-only", "-W", "2", "-F", "%r\t%t\t%p"])
        return result.stdout.split(separator: "\n").compactMap(Subscriber.Message.init)
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// `mosquitto_sub` printing "retained<TAB>topic<TAB>payload" per message.
final class Subscriber: Sendable {
    struct Message: Sendable, Equatable {
        var retained: Bool
        var topic: String
        var payload: String

        init?(_ line: Substring) {
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            retained = parts[0] == "1"
            topic = String(parts[1])
            payload = parts.count > 2 ? String(parts[2]) : ""
        }

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] ?? [:] }
    }

    let process: Background

    init(port: Int, topics: [String], login: [String]) throws {
        let id = "test-\(UUID().uuidString.prefix(8))"
        process = try Background(
            Mosquitto.subscriber,
            login + ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-c", "-i", id, "-F", "%r\t%t\t%p"] + topics.flatMap { ["-t", $0] },
            environment: ["PATH": "/usr/bin:/bin"])
    }

    deinit { process.kill() }

    var messages: [Message] { process.output.compactMap { Message(Substring($0)) } }
    func on(_ topic: String) -> [Message] { messages.filter { $0.topic == topic } }
    /// The event ids published on `topic`, in order.
    func ids(_ topic: String = "faceoff/event") -> [String] { on(topic).compactMap { $0.json["id"] as? String } }
}
