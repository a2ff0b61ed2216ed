import FaceoffAPI
import FaceoffDaemon
import FaceoffDelivery
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffServer
import FaceoffStore
import Foundation
import HummingbirdCore
import Logging
import Synchronization

// Alert latency end to end, and the per-event cost of rendering and fan-out. Run it with
// bench/run.sh, in a release build.
//
//   AlertBench [--speed 60] [--poll 2] [--outage 0] [--fixed-retries] [--mqtt] [FILE]
//                                                  (default: the demo game built into the binary)
//
// A game is served by ReplayServer (NHLReplayAPI) as if live; a GameWatcher polls it and delivers through
// the AlertRouter to a WebhookSink (outbox in a real SQLite store, signed POSTs) aimed at a
// receiver (HummingbirdCore) on 127.0.0.1. Latency is each event's arrival at the receiver minus
// the moment the served feed first showed the play that caused it. With --outage N the
// receiver answers 503 for the first N seconds (wall time) from puck drop, then recovers:
// it reports how soon after recovery the backlog arrived. --fixed-retries retries on the
// schedule webhooks had until 2026-11-24 (5 s, 30 s, 2 min, 10 min by attempt, no early
// minute, no retry on a new alert), for a side-by-side comparison. With --mqtt the sink is an
// MQTTSink instead, publishing to a Mosquitto broker the benchmark starts on 127.0.0.1, and
// `mosquitto_sub` stamps each event's arrival (its own clock, %U). Besides the latency from
// the feed, it reports the delivery part alone: from the router queueing the alert in the
// outbox to its arrival, and the process's CPU time per alert.

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String, _ fallback: Double) -> Double {
    guard let index = arguments.firstIndex(of: name), arguments.indices.contains(index + 1) else { return fallback }
    defer { arguments.removeSubrange(index...(index + 1)) }
    return Double(arguments[index + 1]) ?? fallback
}
let speed = option("--speed", 60)
let poll = option("--poll", 2)
let outage = option("--outage", 0)
let fixedRetries = arguments.contains("--fixed-retries")
let mqtt = arguments.contains("--mqtt")
arguments.removeAll { $0 == "--fixed-retries" || $0 == "--mqtt" }
let gameData: Data
if let path = arguments.first, let data = FileManager.default.contents(atPath: path) {
    gameData = data
} else {
    gameData = Data(DemoData.game!.utf8)
}
let game = try JSONDecoder().decode(PlayByPlay.self, from: gameData)
let replay = ReplayFeed(game)
let gameID = game.id ?? 0

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
}

// Which play made each event: the detector run over every prefix of the feed.
var cause: [String: Int] = [:]
do {
    var detector = EventDetector()
    for count in 1...replay.count {
        for event in detector.process(GameSnapshot(replay.prefix(count))).events where cause[event.id] == nil { cause[event.id] = count }
    }
}

// The receiver, down from puck drop for `outage` seconds once the replay has started.
let arrivals = Mutex<[(id: String, at: Date)]>([])
let downWindow = Mutex<ClosedRange<Date>?>(nil)
let refused = Mutex(0)
let receiverAddress = Mutex<String?>(nil)
let receiver = HTTPServer(host: "127.0.0.1", port: 0, name: "AlertBench") { request in
    let now = Date()
    guard request.method == .post, request.uri.path == "/hook" else { return Response(status: .notFound) }
    if let window = downWindow.withLock({ $0 }), window.contains(now) {
        refused.withLock { $0 += 1 }
        return Response(status: .serviceUnavailable)
    }
    if let id = request.headers.first(where: { $0.name.canonicalName == "webhook-id" })?.value {
        arrivals.withLock { $0.append((id, now)) }
    }
    return Response(status: .noContent)
}
let receiverTask = Task {
    try await receiver.run(logger: Logger(label: "alertbench.receiver")) { address in receiverAddress.withLock { $0 = address } }
}
while receiverAddress.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }

// The live API.
let served = NHLReplayAPI(games: [game], speed: speed, startDelay: 3)
let puckDrop = served.visibleAt(game: 0, plays: 1)
if outage > 0 { downWindow.withLock { $0 = puckDrop...puckDrop.addingTimeInterval(outage) } }
let base = Mutex<String?>(nil)
let serverTask = Task { try await ReplayServer(apis: [served]).run(host: "127.0.0.1", port: 0) { urls in base.withLock { $0 = urls[0] } } }
while base.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(20)) }

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-alertbench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: directory) }
let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: [GameSnapshot(game).home.abbrev])
var webhook = SinkConfig.Webhook(url: "http://\(receiverAddress.withLock { $0 }!)/hook")
webhook.secret = "whsec_" + Data("alert-bench-signing-key-0123456".utf8).base64EncodedString()
let schedule =
    fixedRetries
    ? RetrySchedule(
        early: .zero, earlyFor: .zero, delays: [.seconds(5), .seconds(30), .seconds(120), .seconds(600)], jitter: 0.2,
        idleCheck: .seconds(30))
    : .standard
let snapshot = GameSnapshot(game)
let teams: Set<String> = [snapshot.away.abbrev, snapshot.home.abbrev]
let sink: any Sink
var broker: Process?
var subscriber: (process: Process, output: Pipe)?
if mqtt {
    // A broker of its own on a free port, and a subscriber stamping arrivals.
    let port = 20000 + Int.random(in: 0..<20000)
    let conf = directory.appendingPathComponent("mosquitto.conf")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try "listener \(port) 127.0.0.1\nallow_anonymous true\nuser \(String(cString: getpwuid(geteuid()).pointee.pw_name))\n".write(
        to: conf, atomically: true, encoding: .utf8)
    let server = Process()
    server.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
    server.arguments = ["-c", conf.path]
    server.standardError = FileHandle.nullDevice
    try server.run()
    broker = server
    try await Task.sleep(for: .milliseconds(300))
    let sub = Process()
    sub.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
    sub.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-q", "1", "-t", "faceoff/event", "-F", "%U\t%p"]
    let pipe = Pipe()
    sub.standardOutput = pipe
    try sub.run()
    subscriber = (sub, pipe)
    try await Task.sleep(for: .milliseconds(300))
    guard var options = SinkConfig.MQTT(url: "mqtt://127.0.0.1:\(port)") else { fatalError("not a broker's url") }
    options.discovery = false
    sink = MQTTSink(
        name: "bench", options: options, renderer: renderer, alerts: SinkFilter(teams: teams), owner: false, store: store,
        finalHold: .seconds(3600))
} else {
    sink = WebhookSink(
        name: "bench", options: webhook, renderer: renderer, http: CurlHTTPClient(), outbox: Outbox(store: store), schedule: schedule)
}
let queuedAt = Mutex<[String: Date]>([:])
let alerts = AlertRouter(
    routes: [SinkRoute(sink: sink, filter: mqtt ? MQTTSink.routeFilter(SinkFilter(teams: teams)) : SinkFilter(teams: teams))],
    ledger: Ledger(store: store), clock: ContinuousClock(),
    onDelivery: { _, event, delivery in
        if delivery == .queued { queuedAt.withLock { $0[event.id] = Date() } }
    })
let client = APIClient(service: .nhl, base: base.withLock { $0 }!, http: CurlHTTPClient(), cache: nil)
let watcher = GameWatcher(
    gameID: gameID, scheduledStart: nil, client: client, ledger: Ledger(store: store),
    settings: .init(poll: .milliseconds(Int(poll * 1000))),
    clock: ContinuousClock(), router: alerts)
var usage = rusage()
let wall = ContinuousClock.now
var elapsed = Duration.zero
try await alerts.serving {
    try await watcher.run()
    await alerts.settle()
    _ = await alerts.settleDurable(timeout: .seconds(30))
    elapsed = ContinuousClock.now - wall
}

if let subscriber {
    // mosquitto_sub's own arrival stamps.
    // SIGKILL: the children inherit a signal mask with SIGTERM blocked.
    kill(subscriber.process.processIdentifier, SIGKILL)
    subscriber.process.waitUntilExit()
    let text = String(decoding: subscriber.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    for line in text.split(separator: "\n") {
        let parts = line.split(separator: "\t", maxSplits: 1)
        guard parts.count == 2, let stamp = Double(parts[0]),
            let object = try? JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any], let id = object["id"] as? String
        else { continue }
        arrivals.withLock { $0.append((id, Date(timeIntervalSince1970: stamp))) }
    }
    if let broker { kill(broker.processIdentifier, SIGKILL) }
}
let got = arrivals.withLock { $0 }
let latencies = got.compactMap { arrival -> Double? in
    guard let count = cause[arrival.id] else { return nil }
    return arrival.at.timeIntervalSince(served.visibleAt(game: 0, plays: count)) * 1000
}
if ProcessInfo.processInfo.environment["ALERTBENCH_DEBUG"] != nil {
    for arrival in got {
        let count = cause[arrival.id] ?? 0
        print(
            arrival.id, count,
            String(
                format: "visible +%.1f s, arrived +%.1f s", served.visibleAt(game: 0, plays: count).timeIntervalSince(served.start),
                arrival.at.timeIntervalSince(served.start)))
    }
}
getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
let queued = queuedAt.withLock { $0 }
let delivery = got.compactMap { arrival in queued[arrival.id].map { arrival.at.timeIntervalSince($0) * 1000 } }
print(
    "game \(gameID): \(replay.count) plays, \(cause.count) events, replayed at \(Int(speed))x in \(Int(milliseconds(elapsed) / 1000)) s, poll \(poll) s, sink: \(mqtt ? "mqtt (QoS 1, local mosquitto)" : "webhook")"
)
print("  delivered \(got.count) of \(cause.count); ids unique: \(Set(got.map(\.id)).count == got.count)")
print(
    String(
        format: "  visible in feed -> at receiver: median %.0f ms, p95 %.0f ms, max %.0f ms (target: poll + 250 = %.0f ms)",
        percentile(latencies, 0.5), percentile(latencies, 0.95), latencies.max() ?? 0, poll * 1000 + 250))
print(
    String(
        format:
            "  queued in the outbox -> at receiver: median %.1f ms, p95 %.1f ms; process CPU %.1f ms per alert (whole run: polls, detection, delivery)",
        percentile(delivery, 0.5), percentile(delivery, 0.95), cpu / Double(max(1, got.count))))
if outage > 0 {
    // The backlog: what became visible while the receiver was down, and when it arrived.
    let recovery = puckDrop.addingTimeInterval(outage)
    let backlog = got.filter { arrival in cause[arrival.id].map { served.visibleAt(game: 0, plays: $0) < recovery } ?? false }
    let last = backlog.map(\.at).max().map { $0.timeIntervalSince(recovery) } ?? 0
    print(
        String(
            format:
                "  receiver down %.0f s from puck drop (%d requests refused): backlog of %d arrived by %.2f s after recovery (target: 5 s)",
            outage, refused.withLock { $0 }, backlog.count, last))
}

// Per-event cost: rendering (title, body, a webhook body) and fan-out through the router.
struct NullSink: Sink {
    let name: String
    func send(_ event: GameEvent) async -> Delivery { .delivered("") }
}
let samples = GameEvent.Kind.allCases.map { SampleEvent.make($0, team: "TOR") }
var renderTimes: [Double] = []
for _ in 0..<5 {
    let start = ContinuousClock.now
    for _ in 0..<200 {
        for event in samples {
            _ = renderer.text(event)
            _ = try renderer.webhookBody(event, preset: .discord)
        }
    }
    renderTimes.append(milliseconds(ContinuousClock.now - start) / Double(200 * samples.count))
}
var fanoutTimes: [Double] = []
for _ in 0..<5 {
    let fan = AlertRouter(
        routes: (0..<3).map { SinkRoute(sink: NullSink(name: "null\($0)"), filter: SinkFilter(teams: ["TOR"])) }, ledger: nil,
        clock: ContinuousClock())
    try await fan.serving {
        let start = ContinuousClock.now
        for _ in 0..<1000 { for event in samples { fan.route(event) } }
        await fan.settle()
        fanoutTimes.append(milliseconds(ContinuousClock.now - start) / Double(1000 * samples.count))
    }
}
print(
    String(
        format: "  per event: render title+body+webhook body median %.1f µs; route to 3 sinks median %.1f µs",
        percentile(renderTimes, 0.5) * 1000, percentile(fanoutTimes, 0.5) * 1000))
serverTask.cancel()
receiverTask.cancel()
exit(0)
