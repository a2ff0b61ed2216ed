import FaceoffDelivery
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation
import Testing

/// The MQTT sink against a real Mosquitto broker on a loopback port, with `mosquitto_sub` as
/// the independent subscriber, and a replayed game served live.
@Suite("MQTT sink, the binary", .timeLimit(.minutes(10)), .enabled(if: Checkers.mosquitto, Checkers.noMosquitto))
struct MQTTTests {
    static let gameID = 2025020100  // BOS @ TOR, 1–3

    static func writeConfig(_ cli: CLI, teams: [String] = ["TOR"], sink: String) throws {
        try cli.writeConfig(
            """
            teams = [\(teams.map { "\"\($0)\"" }.joined(separator: ", "))]
            [watch]
            poll = "2s"
            [[sink]]
            type = "mqtt"
            \(sink)
            """)
    }

    /// The ids as published, without repeats, and how many repeats there were.
    static func once(_ ids: [String]) -> (ids: [String], repeats: Int) {
        var seen: Set<String> = []
        let unique = ids.filter { seen.insert($0).inserted }
        return (unique, ids.count - unique.count)
    }

    /// For the tests that run an `MQTTSink` in this process: a folder, a broker in it and a
    /// sink's options pointing at it.
    static func sinkOfOurOwn() throws -> (URL, Mosquitto, SinkConfig.MQTT) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-mqtt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let broker = try Mosquitto(directory: directory)
        let options = try #require(SinkConfig.MQTT(url: broker.url))
        return (directory, broker, options)
    }

    /// `run`'s sink for TOR (the owner: status, will, retained topics) on `store`.
    static func runSink(
        _ options: SinkConfig.MQTT, store: Store, alerts: SinkFilter = SinkFilter(teams: ["TOR"]), switches: [String] = []
    ) throws -> MQTTSink {
        MQTTSink(
            name: "mqtt", options: options, renderer: Renderer(templates: try TemplateSet(overrides: nil), followed: ["TOR"]),
            alerts: alerts,
            owner: true, store: store, finalHold: .seconds(3600), switches: switches)
    }

    /// An event of the BOS @ TOR game, 0–0.
    static func event(_ kind: GameEvent.Kind, period: Int) -> GameEvent {
        GameEvent(kind: kind, key: nil, gameId: 2025020100, away: "BOS", home: "TOR", period: period, score: .init(away: 0, home: 0))
    }

    /// `run`'s sink connecting with an alert already in the outbox (queued while the broker was
    /// away): what it says on connect (status, discovery, `idle` for a team with no state yet)
    /// and what the outbox delivers meet, and the retained state is the alert's, never an
    /// `idle` published after it. Several rounds, since the two used to race.
    @Test func aQueuedAlertIsNotOvertakenByTheStatesSaidOnConnect() async throws {
        let (directory, broker, config) = try Self.sinkOfOurOwn()
        defer { try? FileManager.default.removeItem(at: directory) }
        let renderer = Renderer(templates: try TemplateSet(overrides: nil), followed: ["TOR"])
        for round in 0..<5 {
            let team = ["TOR", "MTL", "OTT", "BUF", "DET"][round]
            let subscriber = try await broker.subscribe(["faceoff/team/\(team)/state"])
            let store = try Store(path: directory.appendingPathComponent("faceoff-\(round).sqlite").path)
            let sink = MQTTSink(
                name: "mqtt", options: config, renderer: renderer, alerts: SinkFilter(teams: [team]), owner: true, store: store,
                finalHold: .seconds(3600))
            let pregame = GameEvent(
                kind: .pregame, key: "\(round)", gameId: 2025020100 + round, away: "BOS", home: team, period: 0,
                score: .init(away: 0, home: 0))
            #expect(try await sink.enqueue(pregame, at: Date()) == .queued)
            await withDiscardingTaskGroup { group in
                group.addTask { await sink.run() }
                // The sink's connect under a whole suite on two cores has taken over 20 s: a
                // generous wait, not a timing (the test is of what comes last).
                _ = await eventually(within: .seconds(90)) {
                    subscriber.on("faceoff/team/\(team)/state").contains { $0.json["state"] as? String == "pregame" }
                }
                // What is said on connect has had time to go out too.
                try? await Task.sleep(for: .seconds(1))
                group.cancelAll()
            }
            let states = subscriber.on("faceoff/team/\(team)/state").compactMap { $0.json["state"] as? String }
            #expect(states.last == "pregame", "round \(round): \(states)")
            #expect(try await broker.retained("faceoff/team/\(team)/state").first?.json["state"] as? String == "pregame", "round \(round)")
        }
    }

    /// An alert whose state the broker never acknowledged (frozen, then killed): when it is back,
    /// what `run`'s sink says on connect and the alert tried again leave the broker on the
    /// alert's state, not on the one before it.
    @Test func aStateCutOffByALostConnectionIsTheOneRepublished() async throws {
        var (directory, broker, config) = try Self.sinkOfOurOwn()
        defer { try? FileManager.default.removeItem(at: directory) }
        config.discovery = false
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        // Goals only as alerts: a game start publishes nothing but the state, so the state is the
        // message that was in flight.
        let sink = try Self.runSink(config, store: store, alerts: SinkFilter(kinds: [.goal], teams: ["TOR"]))
        func state() async throws -> String? { try await broker.retained("faceoff/team/TOR/state").first?.json["state"] as? String }
        let subscriber = try await broker.subscribe(["faceoff/team/TOR/state"])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await sink.run() }
            #expect(try await sink.enqueue(Self.event(.pregame, period: 0), at: Date()) == .queued)
            // A generous wait, not a timing: under the whole suite on two cores the first
            // publish has gone unacknowledged for its 10 s and been tried again.
            var pregame = false
            for _ in 0..<900 where !pregame {
                pregame = try await state() == "pregame"
                if !pregame { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(pregame)
            // Frozen: the game start's state goes out and is never acknowledged; the attempt
            // gives up after 10 s. At that moment the broker goes and comes back, so the sink
            // reconnects while the alert waits for its next try (2 s later).
            broker.freeze()
            #expect(try await sink.enqueue(Self.event(.gameStart, period: 1), at: Date()) == .queued)
            let outbox = Outbox(store: store)
            var failed = false
            for _ in 0..<1000 where !failed {
                failed = try outbox.pending(sink: sink.name).contains { $0.attempts > 0 }
                if !failed { try await Task.sleep(for: .milliseconds(20)) }
            }
            try #require(failed)
            await broker.stop()
            try broker.start()
            #expect(await sink.settle(timeout: .seconds(60)), "the game start was not delivered")
            // What the connect said and the retry both done: the broker holds the game start's state.
            try await Task.sleep(for: .seconds(2))
            let states = subscriber.on("faceoff/team/TOR/state").compactMap { $0.json["state"] as? String }
            #expect(try await state() == "live", "\(states)")
            #expect(states.drop { $0 != "live" }.allSatisfy { $0 == "live" }, "a state older than the game start came after it: \(states)")
            group.cancelAll()
        }
    }

    /// Stopped while an alert waits for the broker's acknowledgement (the broker frozen), the
    /// sink still says the state the store recorded for that alert before its `offline`: the
    /// broker, once it answers again, holds the alert's state, not the one before it.
    @Test func theStateOfAnAlertCutOffByAStopIsSaidOnTheWayOut() async throws {
        var (directory, broker, config) = try Self.sinkOfOurOwn()
        defer { try? FileManager.default.removeItem(at: directory) }
        config.discovery = false
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let sink = try Self.runSink(config, store: store)
        func retained(_ topic: String) async throws -> String? { try await broker.retained(topic).first?.payload }
        let subscriber = try await broker.subscribe()
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await sink.run() }
            #expect(try await sink.enqueue(Self.event(.pregame, period: 0), at: Date()) == .queued)
            // Generous, as above: the first publish may have waited out its 10 s under load.
            #expect(await sink.settle(timeout: .seconds(90)), "the pregame was not delivered")
            // Everything before the game start has reached the broker (what the connect said,
            // the pregame's state, the next game its delivery asked for): only the game start
            // will be waiting for an acknowledgement.
            try #require(
                await eventually(within: .seconds(60)) {
                    subscriber.on("faceoff/status").last?.payload == "online"
                        && subscriber.on("faceoff/team/TOR/state").last?.payload.contains("\"state\":\"pregame\"") == true
                        && !subscriber.on("faceoff/team/TOR/next").isEmpty
                })
            // The game start's event goes out first and is never acknowledged: its state waits
            // behind it when the sink is told to stop.
            broker.freeze()
            #expect(try await sink.enqueue(Self.event(.gameStart, period: 1), at: Date()) == .queued)
            // Its attempt is under way once the state it will publish is recorded.
            let recorded = RetainedMessages(store: store, sink: sink.name)
            var underWay = false
            for _ in 0..<1000 where !underWay {
                underWay = try recorded.payload("faceoff/team/TOR/state")?.contains("\"state\":\"live\"") == true
                if !underWay { try await Task.sleep(for: .milliseconds(20)) }
            }
            try #require(underWay)
            try await Task.sleep(for: .milliseconds(300))
            group.cancelAll()
        }
        broker.thaw()
        // The broker reads what waited in the connection once it runs again.
        var state: String?
        for _ in 0..<50 where state?.contains("\"state\":\"live\"") != true {
            state = try await retained("faceoff/team/TOR/state")
            if state?.contains("\"state\":\"live\"") != true { try await Task.sleep(for: .milliseconds(200)) }
        }
        #expect(state?.contains("\"state\":\"live\"") == true, "\(state ?? "nothing retained")")
        #expect(try await retained("faceoff/status") == "offline")
    }

    /// `run`'s sink offers Home Assistant a switch per sink: discovered, its state retained,
    /// `ON` on its command topic mutes that sink in the store (for every process), `OFF`
    /// unmutes it, and a mute typed in a terminal shows on the switch within seconds.
    @Test func aSwitchPerSinkMutesItAndShowsTheMutesOfTheStore() async throws {
        let (directory, broker, config) = try Self.sinkOfOurOwn()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try Store(path: directory.appendingPathComponent("faceoff.sqlite").path)
        let holds = Holds(store: store)
        let sink = try Self.runSink(config, store: store, switches: ["Goal horn", "mqtt"])
        let subscriber = try await broker.subscribe()
        func state(_ slug: String) -> String? { subscriber.on("faceoff/mute/\(slug)/state").last?.payload }
        func send(_ slug: String, _ payload: String) async throws {
            let sent = try await CLI.execute(
                "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-t", "faceoff/mute/\(slug)/set", "-m", payload])
            #expect(sent.status == 0, "\(sent.stderr)")
        }
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await sink.run() }
            // The sink's start (connect, discovery, each retained topic acknowledged) under a
            // whole suite on two cores has taken most of 20 s: a generous wait, not a timing.
            #expect(await eventually(within: .seconds(90)) { state("goal_horn") == "OFF" && state("mqtt") == "OFF" })
            let entry = subscriber.on("homeassistant/switch/faceoff_mute_goal_horn/config").last?.json ?? [:]
            #expect(entry["name"] as? String == "Faceoff mute: Goal horn")
            #expect(entry["command_topic"] as? String == "faceoff/mute/goal_horn/set")
            #expect(entry["state_topic"] as? String == "faceoff/mute/goal_horn/state")
            #expect(entry["availability_topic"] as? String == "faceoff/status")
            #expect((entry["device"] as? [String: Any])?["identifiers"] as? [String] == ["faceoff"])

            try await send("goal_horn", "ON")
            #expect(await eventually(within: .seconds(60)) { state("goal_horn") == "ON" })
            #expect(try holds.mutes(at: Date()).map(\.sink) == ["Goal horn"])
            try await send("goal_horn", "OFF")
            #expect(await eventually(within: .seconds(60)) { state("goal_horn") == "OFF" })
            #expect(try holds.mutes(at: Date()).isEmpty)
            try await send("mqtt", "loud")
            // As `faceoff mute` in another process: the switch follows.
            try await holds.mute(["mqtt"], until: nil, at: Date())
            #expect(await eventually(within: .seconds(60)) { state("mqtt") == "ON" })
            group.cancelAll()
        }
        #expect(try await broker.retained("faceoff/mute/mqtt/state").first?.payload == "ON")
        #expect(try holds.mutes(at: Date()).map(\.sink) == ["mqtt"], "'loud' changed nothing")

        // A command left retained on the broker is not said again at the next connect.
        let kept = try await CLI.execute(
            "/usr/bin/mosquitto_pub", ["-p", "\(broker.port)", "-q", "1", "-r", "-t", "faceoff/mute/goal_horn/set", "-m", "ON"])
        #expect(kept.status == 0, "\(kept.stderr)")
        let again = try Self.runSink(config, store: store, switches: ["Goal horn", "mqtt"])
        let before = subscriber.on("faceoff/status").count
        await withDiscardingTaskGroup { group in
            group.addTask { await again.run() }
            #expect(
                await eventually(within: .seconds(60)) {
                    subscriber.on("faceoff/status").dropFirst(before).contains { $0.payload == "online" }
                })
            try? await Task.sleep(for: .seconds(1))
            group.cancelAll()
        }
        #expect(try holds.mutes(at: Date()).map(\.sink) == ["mqtt"], "a retained ON muted the horn again")
    }

    /// The broker killed mid-game, down for 30 s and started again: every alert arrives after it
    /// is back, in order, once per event id, and the retained state is the game's last.
    @Test func aBrokerDownForThirtySecondsLosesNothing() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        let (replay, base) = try await Replays.serve(cli)
        defer { replay.kill() }
        try Self.writeConfig(cli, sink: "url = \"\(broker.url)\"\ndiscovery = false")
        let run = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: base))
        defer { run.kill() }
        try #require(await eventually(within: .seconds(90)) { subscriber.ids().count >= 3 }, "\(run.stderr.suffix(800))")
        await broker.stop()
        #expect(!Mosquitto.accepts(broker.port), "the broker did not stop")
        let down = subscriber.ids().count
        try await Task.sleep(for: .seconds(30))
        try broker.start()
        try #require(
            await eventually(within: .seconds(120)) { subscriber.ids().contains("\(Self.gameID):final") }, "\(run.stderr.suffix(1200))")
        #expect(run.stderr.contains("MQTT broker not connected; alerts wait in the outbox"))
        let reference = try #require(try Replays.reference()[Self.gameID])
        let (ids, repeats) = Self.once(subscriber.ids())
        #expect(repeats <= 1, "\(subscriber.ids())")
        #expect(ids.filter { !$0.contains(":pregame:") } == reference)
        #expect(ids.count - down >= 5, "most of the game came while the broker was down")
        // No discovery when it is off.
        #expect(!subscriber.messages.contains { $0.topic.hasPrefix("homeassistant/") })
        let state = try await broker.retained("faceoff/team/TOR/state").first?.json
        #expect(state?["state"] as? String == "final" && state?["score"] as? String == "3–1", "\(String(describing: state))")
    }

    /// The broker down when `run` starts and up 20 s later (a home server booting after the
    /// desktop): `run` reaches it within its backoff, publishes what it holds, and `doctor`
    /// says what run's own connection is doing, before and after.
    @Test func aBrokerThatStartsAfterRunIsReached() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        await broker.stop()
        let (replay, base) = try await Replays.serve(cli)
        defer { replay.kill() }
        try Self.writeConfig(cli, sink: "url = \"\(broker.url)\"\ndiscovery = false")
        let run = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: base))
        defer { run.kill() }
        try #require(
            await eventually(within: .seconds(30)) { run.stderr.contains("MQTT broker not connected") }, "\(run.stderr.suffix(800))")
        let down = try await cli.run(["doctor"], environment: Replays.environment(cli, base: base))
        #expect(
            down.stdout.contains("✗ mqtt mqtt, run's connection: not connected: nothing answers at 127.0.0.1:\(broker.port)"),
            "\(down.stdout)")
        try await Task.sleep(for: .seconds(20))
        try broker.start()
        // libmosquitto's backoff is 30 s at most.
        #expect(
            await eventually(within: .seconds(45)) { subscriber.on("faceoff/status").contains { $0.payload == "online" } },
            "\(run.stderr.suffix(1200))")
        try #require(
            await eventually(within: .seconds(120)) { subscriber.ids().contains("\(Self.gameID):final") }, "\(run.stderr.suffix(1200))")
        let reference = try #require(try Replays.reference()[Self.gameID])
        #expect(Self.once(subscriber.ids()).ids.filter { !$0.contains(":pregame:") } == reference)
        let up = try await cli.run(["doctor"], environment: Replays.environment(cli, base: base))
        #expect(up.stdout.contains("✓ mqtt mqtt, run's connection: connected to 127.0.0.1:\(broker.port)"), "\(up.stdout)")
    }

    /// docs/CONFIGURATION.md's `client_id = "faceoff-den"` with `run` and, beside it, `test-alert` and
    /// `doctor --send`: run keeps its connection (a broker drops a client when another
    /// connects with its id, and the status went offline each time).
    @Test func aConfiguredClientIDIsRunsAlone() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe(["faceoff/status", "faceoff/test"])
        try Self.writeConfig(cli, sink: "url = \"\(broker.url)\"\ndiscovery = false\nclient_id = \"faceoff-den\"")
        let environment = Replays.environment(cli, base: "file://\(CLI.mirror.path)/")
        let run = try Background(CLI.binary.path, ["run"], environment: environment)
        defer { run.kill() }
        try #require(
            await eventually(within: .seconds(30)) { subscriber.on("faceoff/status").last?.payload == "online" },
            "\(run.stderr.suffix(800))")
        #expect(try await cli.run(["test-alert"], environment: environment).status == 0)
        #expect(try await cli.run(["doctor", "--send"], environment: environment).stdout.contains("✓ mqtt mqtt:"))
        try await Task.sleep(for: .seconds(3))
        #expect(subscriber.on("faceoff/test").count >= 2)
        #expect(subscriber.on("faceoff/status").map(\.payload) == ["online"], "\(subscriber.on("faceoff/status"))")
        #expect(run.stderr.components(separatedBy: "connected to the MQTT broker").count == 2, "\(run.stderr.suffix(1200))")
    }
}
