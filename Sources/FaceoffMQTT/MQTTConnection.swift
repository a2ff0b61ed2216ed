import CMosquitto
import FaceoffBase
import FaceoffKit
import Foundation
import Synchronization

/// One client connection to an MQTT broker through libmosquitto: a thread of its own drives
/// the library, keeps the connection up (reconnecting with a backoff of 1 s doubling to 30 s),
/// and the library resends what was published but not yet acknowledged. Publishing waits for the broker's acknowledgement
/// (QoS 1). Closed by `close()`, which its owner always calls.
final class MQTTConnection: Sendable {
    struct Options: Sendable {
        var broker: MQTTBroker
        var clientID: String
        /// A retained message the broker publishes if the connection dies without a goodbye.
        var will: (topic: String, payload: String)?
        var keepalive: Int = 30
        /// Topic filters subscribed to (QoS 1) on every connect; what arrives waits in
        /// `received()`.
        var subscriptions: [String] = []
    }

    private struct State {
        var connected = false
        /// Connections made so far: a new number means the broker may have lost what this
        /// client published before (a restarted broker), so retained state is published again.
        var generation = 0
        /// Why the client is not connected, when it knows.
        var problem: String?
        /// The last error libmosquitto logged (TLS details).
        var lastLog: String?
        /// Message ids the broker acknowledged before their publisher noted them.
        var acknowledged: Set<Int32> = []
        /// Messages published and not yet acknowledged, by the caller's key: a retry waits for
        /// the one libmosquitto will resend after a reconnect instead of publishing a copy.
        var inFlight: [String: (mid: Int32, since: ContinuousClock.Instant)] = [:]
        var keyOf: [Int32: String] = [:]
        /// Keys acknowledged while nobody waited (a publish that timed out, then got through).
        var done: Set<String> = []
        /// Messages on subscribed topics, oldest first, until taken.
        var inbox: [(topic: String, payload: String)] = []
        var closed = false
        /// Set by `close()` once its last words are out: the driving thread says goodbye and ends.
        var stopping = false
    }

    private let state = Mutex(State())
    private let changed: ChangeSignal
    /// Cuts the driving thread's wait before a reconnect short (a stop).
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled when the driving thread has ended.
    private let finished = DispatchSemaphore(value: 0)
    private let handle: Handle
    let options: Options

    /// libmosquitto's client, used from any thread: the library locks inside.
    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }

    /// Loads libmosquitto (the first time) and starts connecting. `changes` is fired on every
    /// connect, loss and acknowledgement.
    init(_ options: Options, changes: ChangeSignal = ChangeSignal()) throws(MQTTProblem) {
        self.options = options
        changed = changes
        var message = [CChar](repeating: 0, count: 512)
        guard faceoff_mosquitto_load(&message, message.count) == 0 else {
            let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw MQTTProblem("libmosquitto is missing (\(detail)); install it with: sudo apt install libmosquitto1")
        }
        if options.broker.tls, let caFile = options.broker.caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw MQTTProblem("ca_file \(caFile) cannot be read; point it at the PEM file of the CA that signed the broker's certificate")
        }
        guard let pointer = faceoff_mosquitto_new(options.clientID, true, nil) else {
            throw MQTTProblem("libmosquitto could not make a client (out of memory?)")
        }
        handle = Handle(pointer: pointer)
        // The callbacks find this object through the library's user data, set once the
        // object is whole; they run on the driving thread until `close()` has ended it.
        let broker = options.broker
        var failure: MQTTProblem?
        if let username = broker.username,
            faceoff_mosquitto_username_pw_set(pointer, username, broker.password) != MOSQ_ERR_SUCCESS.rawValue
        {
            failure = MQTTProblem("the MQTT username or password cannot be used")
        }
        if failure == nil, broker.tls {
            var code: Int32
            if let caFile = broker.caFile {
                code = faceoff_mosquitto_tls_set(pointer, caFile, nil)
            } else {
                // The system's CA store (OpenSSL's defaults, SSL_CERT_FILE included), and its
                // folder named too: libmosquitto 2.0.11 refuses every reconnect made with the
                // defaults alone ("MOSQ_OPT_SSL_CTX_WITH_DEFAULTS used without specifying
                // cafile, capath or psk"), so a broker restart would lose the sink for good.
                let folder = ProcessInfo.processInfo.environment["SSL_CERT_DIR"] ?? "/etc/ssl/certs"
                code = faceoff_mosquitto_tls_set(pointer, nil, folder)
                if code == MOSQ_ERR_SUCCESS.rawValue {
                    code = faceoff_mosquitto_int_option(pointer, Int32(MOSQ_OPT_TLS_USE_OS_CERTS.rawValue), 1)
                }
            }
            if code != MOSQ_ERR_SUCCESS.rawValue { failure = MQTTProblem("TLS cannot be set up: \(Self.text(code))") }
        }
        if failure == nil, let will = options.will {
            let bytes = Array(will.payload.utf8)
            if faceoff_mosquitto_will_set(pointer, will.topic, Int32(bytes.count), bytes, 1, true) != MOSQ_ERR_SUCCESS.rawValue {
                failure = MQTTProblem("the last will on \(will.topic) cannot be set")
            }
        }
        if let failure {
            // The object is whole, so its deinit runs: it must find the client gone.
            state.withLock { $0.closed = true }
            faceoff_mosquitto_destroy(pointer)
            throw failure
        }
        // Every publish goes on the wire at once, however many await their acknowledgement
        // (libmosquitto holds back all past 20 by default): a reconnect's retained topics
        // (two dozen with discovery) never hold back an alert, or the last words of a stop.
        faceoff_mosquitto_max_inflight_messages_set(pointer, 0)
        // Publishes come from other threads than the one that drives the client.
        faceoff_mosquitto_threaded_set(pointer, true)
        MQTTCallbacks.install(on: pointer, for: self)
        let thread = Thread { [self] in
            drive()
            finished.signal()
        }
        thread.name = "faceoff-mqtt"
        thread.start()
    }

    /// Says goodbye to the broker (no last will) and ends the driving thread. `lastWords`
    /// are published first, in order, when connected (what the store says the broker should
    /// hold, then the daemon's "offline"), waiting up to 2 s for the last to be acknowledged:
    /// the broker takes a connection's messages in order, so the others are in by then.
    func close(lastWords: [MQTTMessage] = []) {
        let (first, connected) = state.withLock { state -> (Bool, Bool) in
            defer { state.closed = true }
            return (!state.closed, state.connected)
        }
        guard first else { return }
        if connected, !lastWords.isEmpty {
            var last: Int32?
            for message in lastWords {
                let bytes = Array(message.payload.utf8)
                var mid: Int32 = 0
                let code = faceoff_mosquitto_publish(handle.pointer, &mid, message.topic, Int32(bytes.count), bytes, 1, message.retain)
                last = code == MOSQ_ERR_SUCCESS.rawValue ? mid : nil
            }
            if let last { waitBlocking(for: last, timeout: .seconds(2)) }
        }
        state.withLock { $0.stopping = true }
        faceoff_mosquitto_disconnect(handle.pointer)
        wake.signal()
        finished.wait()
        MQTTCallbacks.remove(handle.pointer)
        faceoff_mosquitto_destroy(handle.pointer)
        changed.fire()
    }

    var isConnected: Bool { state.withLock { $0.connected && !$0.closed } }
    var generation: Int { state.withLock { $0.generation } }

    /// Why the client is not connected ("the broker refused the login..."), nil while it is.
    var problem: String? {
        state.withLock { $0.connected ? nil : ($0.problem ?? "not connected to the MQTT broker at \(options.broker.address) yet") }
    }

    /// Why the last attempt failed; nil while connected and before the first answer.
    var knownProblem: String? { state.withLock { $0.connected ? nil : $0.problem } }

    /// Waits up to `timeout` for the connection, or (`firstAnswer`) only until the first
    /// attempt has failed too; true when connected.
    func waitUntilConnected(timeout: Duration, firstAnswer: Bool = false) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while !Task.isCancelled {
            let version = changed.version
            if isConnected { return true }
            if state.withLock({ $0.closed || (firstAnswer && $0.problem != nil) }) || clock.now >= deadline { return false }
            await changed.wait(after: version, until: deadline, on: clock)
        }
        return isConnected
    }

    /// A change of connection (a connect, a loss) after `version`, or `deadline`.
    var changeVersion: Int { changed.version }
    func waitForChange(after version: Int, until deadline: ContinuousClock.Instant) async {
        await changed.wait(after: version, until: deadline, on: ContinuousClock())
    }

    /// Publishes with QoS 1 and waits up to `timeout` for the broker's acknowledgement.
    /// `key` names the message across retries: while an earlier publish of it is still with
    /// libmosquitto (to be resent after a reconnect), this waits for that one instead.
    func publish(_ topic: String, _ payload: [UInt8], retain: Bool, key: String, timeout: Duration) async throws(MQTTProblem) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        enum Start { case done, waiting, publish }
        let start = state.withLock { state -> Start in
            if state.done.remove(key) != nil { return .done }
            guard let pending = state.inFlight[key] else { return .publish }
            // libmosquitto resends after a reconnect; one still unacknowledged a minute on,
            // while connected, is lost: publish it again.
            if state.connected, pending.since.duration(to: clock.now) > .seconds(60) {
                state.inFlight[key] = nil
                state.keyOf[pending.mid] = nil
                return .publish
            }
            return .waiting
        }
        switch start {
        case .done: return
        case .waiting: break
        case .publish:
            guard await waitUntilConnected(timeout: timeout) else { throw MQTTProblem(problem ?? "not connected") }
            var mid: Int32 = 0
            let code = faceoff_mosquitto_publish(handle.pointer, &mid, topic, Int32(payload.count), payload, 1, retain)
            guard code == MOSQ_ERR_SUCCESS.rawValue else {
                throw MQTTProblem("the broker at \(options.broker.address) did not take the message on \(topic): \(Self.text(code))")
            }
            let acknowledged = state.withLock { state -> Bool in
                if state.acknowledged.remove(mid) != nil { return true }
                state.inFlight[key] = (mid, clock.now)
                state.keyOf[mid] = key
                return false
            }
            if acknowledged { return }
        }
        while !Task.isCancelled {
            let version = changed.version
            if state.withLock({ $0.done.remove(key) != nil }) { return }
            if state.withLock({ $0.closed }) { throw MQTTProblem("the connection was closed") }
            if clock.now >= deadline { break }
            await changed.wait(after: version, until: deadline, on: clock)
        }
        throw MQTTProblem(
            isConnected
                ? "the broker at \(options.broker.address) did not acknowledge the message on \(topic) within \(DurationText.format(timeout))"
                : (problem ?? "the connection was lost") + "; the message is resent when the broker is back")
    }

    /// For `close`, which may run where no task can wait.
    private func waitBlocking(for mid: Int32, timeout: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if state.withLock({ $0.acknowledged.remove(mid) != nil }) { return }
            usleep(10_000)
        }
    }

    // MARK: The driving thread

    /// Connects, keeps the connection up and reconnects, waiting 1 s before the first retry,
    /// doubling to 30 s, back to 1 s once connected. This thread drives libmosquitto
    /// (`mosquitto_loop`) rather than the library's own (`loop_start`), which in 2.0.11 ends
    /// for good on a TLS error, such as a broker restarting under a TLS connection.
    private func drive() {
        let broker = options.broker
        let pointer = handle.pointer
        var socket = false
        var backoff = 1
        while !state.withLock({ $0.stopping }) {
            if socket {
                let code = faceoff_mosquitto_loop(pointer, 1000, 1)
                if code == MOSQ_ERR_SUCCESS.rawValue {
                    if isConnected { backoff = 1 }
                    continue
                }
                socket = false
                let number = errno
                state.withLock { state in
                    // The disconnect callback said why, when the library called it.
                    if state.connected || state.problem == nil {
                        state.problem = Self.connectProblem(code, errno: number, broker: broker, log: state.lastLog)
                    }
                    state.connected = false
                }
                changed.fire()
            } else {
                // Each attempt says its own reason: an earlier one (a lost connection, a broker
                // that was down) is not why this one fails.
                state.withLock { state in
                    state.lastLog = nil
                    state.problem = nil
                }
                let code = faceoff_mosquitto_connect_async(pointer, broker.host, Int32(broker.port), Int32(options.keepalive))
                if code == MOSQ_ERR_SUCCESS.rawValue {
                    socket = true
                    continue
                }
                // The library may have logged the detail (a TLS failure) before returning.
                let number = errno
                state.withLock { state in
                    state.problem = Self.connectProblem(code, errno: number, broker: broker, log: state.lastLog)
                }
                changed.fire()
            }
            _ = wake.wait(timeout: .now() + .seconds(backoff))
            backoff = min(backoff * 2, 30)
        }
        // `close()` asked for a goodbye (a DISCONNECT, so no last will), said here again for a
        // connect this thread began after it: it goes out with the next turns of the loop,
        // which end when the library has closed the socket.
        if socket {
            faceoff_mosquitto_disconnect(pointer)
            for _ in 0..<20 where faceoff_mosquitto_loop(pointer, 100, 1) != MOSQ_ERR_SUCCESS.rawValue { break }
        }
    }

    // MARK: From the driving thread (libmosquitto's callbacks)

    func connected(_ code: Int32) {
        let broker = options.broker
        state.withLock { state in
            if code == 0 {
                state.connected = true
                state.generation += 1
                state.problem = nil
                // A clean session forgets subscriptions: each connect makes them again.
                for pattern in options.subscriptions {
                    var mid: Int32 = 0
                    _ = faceoff_mosquitto_subscribe(handle.pointer, &mid, pattern, 1)
                }
            } else {
                state.connected = false
                state.problem = Self.refusal(code, broker: broker)
            }
        }
        changed.fire()
    }

    func disconnected(_ code: Int32) {
        let broker = options.broker
        let number = errno
        state.withLock { state in
            let wasRefused = !state.connected && state.problem != nil
            // A connection that was up and went is lost, whatever TLS logged on the way
            // ("unexpected eof" is a broker restarting, not a port without TLS).
            let wasUp = state.connected
            state.connected = false
            if code != 0, !wasRefused {
                state.problem = Self.connectProblem(code, errno: number, broker: broker, log: wasUp ? nil : state.lastLog)
                if state.generation == 0, state.lastLog == nil, code == MOSQ_ERR_CONN_LOST.rawValue || code == MOSQ_ERR_PROTOCOL.rawValue {
                    state.problem =
                        "the broker at \(broker.address) closed the connection before answering; if that port speaks TLS, use mqtts://"
                }
            }
            state.lastLog = nil
        }
        changed.fire()
    }

    func published(_ mid: Int32) {
        state.withLock { state in
            if let key = state.keyOf.removeValue(forKey: mid) {
                state.inFlight[key] = nil
                state.done.insert(key)
            } else {
                state.acknowledged.insert(mid)
            }
        }
        changed.fire()
    }

    func received(_ topic: String, _ payload: String) {
        state.withLock { $0.inbox.append((topic, payload)) }
        changed.fire()
    }

    /// The messages that came on subscribed topics since the last call, oldest first.
    func received() -> [(topic: String, payload: String)] {
        state.withLock { state in
            defer { state.inbox.removeAll() }
            return state.inbox
        }
    }

    func logged(_ level: Int32, _ text: String) {
        guard level & Int32(MOSQ_LOG_ERR) != 0 else { return }
        let broker = options.broker
        state.withLock { state in
            state.lastLog = text
            // A TLS failure is logged, then reported to no callback while the library keeps
            // trying: it is the reason the client is not connected.
            if !state.connected, let tls = Self.tlsProblem(text, broker: broker) { state.problem = tls }
        }
        changed.fire()
    }
}
