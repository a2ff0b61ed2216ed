import FaceoffKit
import FaceoffMQTT
import Foundation
import Testing

/// One whole game through `faceoff run`'s MQTT sink, recorded once, each behaviour a test.
extension MQTTTests {
    /// What `faceoff run` following TOR published over one replayed game: killed (-9) mid-game,
    /// started again, then stopped. Recorded once; each test below checks one part of it.
    struct GameRun: Sendable {
        /// The discovery entries and the mute switch, once all were out.
        var discovery: [Subscriber.Message]
        var discoveryComplete: Bool
        /// Everything the subscriber saw, from before the first start to after the stop.
        var messages: [Subscriber.Message]
        var onlineAtStart: Bool
        var offlineWhenKilled: Bool
        var onlineAgain: Bool
        var offlineWhenStopped: Bool
        var exitStatus: Int32?
        var nextGameBeforePuckDrop: Bool
        var nextGameGoneAfterFinal: Bool
        /// What the broker holds retained once it is over.
        var retainedStatus: String?
        var retainedNext: Subscriber.Message?
        var retainedState: Subscriber.Message?
        var log: String

        func on(_ topic: String) -> [Subscriber.Message] { messages.filter { $0.topic == topic } }
        func ids(_ topic: String = "faceoff/event") -> [String] { on(topic).compactMap { $0.json["id"] as? String } }
        /// The events by id, as published.
        var events: [String: [String: Any]] {
            Dictionary(on("faceoff/event").map { ($0.json["id"] as? String ?? "", $0.json) }) { first, _ in first }
        }
    }

    static let gameRun = Shared<GameRun>(recordGameRun)

    static func recordGameRun() async throws -> GameRun {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let broker = try Mosquitto(directory: cli.home)
        let subscriber = try await broker.subscribe()
        let (replay, base) = try await Replays.serve(cli)
        defer { replay.kill() }
        try MQTTTests.writeConfig(cli, sink: "url = \"\(broker.url)\"")
        let first = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: base))
        defer { first.kill() }
        func status() -> String? { subscriber.on("faceoff/status").last?.payload }
        let onlineAtStart = await eventually(within: .seconds(60)) { status() == "online" }
        let discoveryComplete = await eventually(within: .seconds(60)) {
            subscriber.messages.filter { $0.topic.hasPrefix("homeassistant/") }.count == 3 + MQTTTrigger.of(.nhl).count + 1
        }
        let discovery = subscriber.messages
        // The next game, from the schedule the daemon read (by its pregame at the latest).
        let nextGameBeforePuckDrop = await eventually(within: .seconds(60)) {
            subscriber.on("faceoff/team/TOR/next").contains {
                $0.json["gameId"] as? Int == MQTTTests.gameID && $0.json["start"] as? String != nil
            }
        }
        // Killed mid-game: the broker publishes the last will.
        try #require(await eventually(within: .seconds(90)) { subscriber.ids().count >= 8 }, "\(first.stderr.suffix(800))")
        first.kill()
        let offlineWhenKilled = await eventually(within: .seconds(60)) { status() == "offline" }
        let again = try Background(CLI.binary.path, ["run"], environment: Replays.environment(cli, base: base))
        defer { again.kill() }
        let onlineAgain = await eventually(within: .seconds(60)) { status() == "online" }
        try #require(
            await eventually(within: .seconds(150)) { subscriber.ids().contains("\(MQTTTests.gameID):final") },
            "\(again.stderr.suffix(800))")
        // Once it is over, it is no longer the next game (the replay has no other): the final's
        // delivery makes the sink look again.
        let nextGameGoneAfterFinal = await eventually(within: .seconds(60)) {
            subscriber.on("faceoff/team/TOR/next").last.map { $0.json["gameId"] == nil && !$0.payload.isEmpty } == true
        }
        again.signal(SIGTERM)
        let exitStatus = await again.exit(within: 10)
        let offlineWhenStopped = await eventually(within: .seconds(5)) { status() == "offline" }
        return GameRun(
            discovery: discovery, discoveryComplete: discoveryComplete, messages: subscriber.messages, onlineAtStart: onlineAtStart,
            offlineWhenKilled: offlineWhenKilled, onlineAgain: onlineAgain, offlineWhenStopped: offlineWhenStopped,
            exitStatus: exitStatus, nextGameBeforePuckDrop: nextGameBeforePuckDrop, nextGameGoneAfterFinal: nextGameGoneAfterFinal,
            retainedStatus: try await broker.retained("faceoff/status").first?.payload,
            retainedNext: try await broker.retained("faceoff/team/TOR/next").first,
            retainedState: try await broker.retained("faceoff/team/TOR/state").first,
            log: String(first.stderr.suffix(800)) + "\n---\n" + String(again.stderr.suffix(1500)))
    }

    /// Online while it runs; killed, the broker says offline for it (its last will); started
    /// again, online; stopped, it says offline itself and exits 0.
    @Test func runSaysOnlineAndLeavesALastWill() async throws {
        let run = try await Self.gameRun.value
        #expect(run.onlineAtStart, "\(run.log)")
        #expect(run.offlineWhenKilled)
        #expect(run.onlineAgain)
        #expect(run.exitStatus == 0, "\(run.log)")
        #expect(run.offlineWhenStopped)
        #expect(run.retainedStatus == "offline")
    }

    /// Discovery: one device for the team, its three sensors and a trigger per type, field by
    /// field, and the sink's mute switch, off.
    @Test func discoveryDescribesTheTeamsDevice() async throws {
        let run = try await Self.gameRun.value
        #expect(run.discoveryComplete, "\(run.discovery.map(\.topic))")
        #expect(run.discovery.last { $0.topic == "faceoff/mute/mqtt/state" }?.payload == "OFF")
        func config(_ topic: String) -> [String: Any] { run.discovery.last { $0.topic == topic }?.json ?? [:] }
        let device: (Any?) -> Bool = { value in
            guard let device = value as? [String: Any] else { return false }
            return device["identifiers"] as? [String] == ["faceoff_TOR"] && device["name"] as? String == "Toronto Maple Leafs"
                && device["model"] as? String == "NHL team" && device["manufacturer"] as? String == "Faceoff"
        }
        for (object, topic) in [
            ("state", "faceoff/team/TOR/state"), ("score", "faceoff/team/TOR/state"), ("next_game", "faceoff/team/TOR/next"),
        ] {
            let sensor = config("homeassistant/sensor/faceoff_TOR/\(object)/config")
            #expect(sensor["state_topic"] as? String == topic, "\(object)")
            #expect(sensor["json_attributes_topic"] as? String == topic, "\(object)")
            #expect(sensor["unique_id"] as? String == "faceoff_TOR_\(object)")
            #expect((sensor["name"] as? String)?.isEmpty == false)
            #expect((sensor["value_template"] as? String)?.contains("value_json.") == true)
            #expect(sensor["availability_topic"] as? String == "faceoff/status")
            #expect(sensor["payload_available"] as? String == "online" && sensor["payload_not_available"] as? String == "offline")
            #expect(device(sensor["device"]), "\(object)")
            #expect((sensor["device_class"] as? String) == (object == "next_game" ? "timestamp" : nil))
        }
        for trigger in MQTTTrigger.of(.nhl) {
            let entry = config("homeassistant/device_automation/faceoff_TOR/\(trigger.rawValue)/config")
            #expect(entry["automation_type"] as? String == "trigger")
            #expect(entry["topic"] as? String == "faceoff/team/TOR/trigger/\(trigger.rawValue)")
            #expect(entry["type"] as? String == trigger.rawValue)
            #expect(entry["subtype"] as? String == "TOR")
            #expect(device(entry["device"]), "\(trigger)")
        }
    }

    /// The next game is published from the schedule before puck drop, and is gone (retained
    /// too) once its final is out.
    @Test func theNextGameIsPublishedUntilItsFinal() async throws {
        let run = try await Self.gameRun.value
        #expect(run.nextGameBeforePuckDrop, "\(run.on("faceoff/team/TOR/next"))")
        #expect(run.nextGameGoneAfterFinal, "\(run.on("faceoff/team/TOR/next"))")
        #expect(run.retainedNext?.json["gameId"] == nil)
    }

    /// Every alert once by id, in the engine's order, across the kill; one repeat allowed (the
    /// alert the broker may have acknowledged as the first process was killed).
    @Test func everyAlertArrivesOnceInTheEnginesOrder() async throws {
        let run = try await Self.gameRun.value
        let reference = try #require(try Replays.reference()[Self.gameID])
        let (ids, repeats) = Self.once(run.ids())
        #expect(repeats <= 1, "\(run.ids())")
        #expect(ids.filter { !$0.contains(":pregame:") } == reference)
        #expect(ids.first?.contains(":pregame:") == true, "the first poll was before puck drop")
    }

    /// The triggers: TOR's goals and the goals against it, from TOR's side; BOS is not
    /// followed: no device, no state, no triggers.
    @Test func theTriggersFireFromTheFollowedTeamsSide() async throws {
        let run = try await Self.gameRun.value
        let events = run.events
        let goals = Self.once(run.ids()).ids.filter { $0.contains(":goal:") }
        let torGoals = goals.filter { events[$0]?["team"] as? String == "TOR" }
        #expect(torGoals.count == 3 && goals.count == 4)
        #expect(Self.once(run.ids("faceoff/team/TOR/trigger/goal")).ids == torGoals)
        #expect(Self.once(run.ids("faceoff/team/TOR/trigger/goal_against")).ids == goals.filter { !torGoals.contains($0) })
        #expect(Self.once(run.ids("faceoff/team/TOR/trigger/final")).ids == ["\(Self.gameID):final"])
        #expect(Self.once(run.ids("faceoff/team/TOR/trigger/win")).ids == ["\(Self.gameID):final"])
        #expect(run.on("faceoff/team/TOR/trigger/loss").isEmpty)
        #expect(!run.messages.contains { $0.topic.contains("BOS") })
    }

    /// The state: pregame → live → intermission → live → intermission → live → final, each
    /// goal's state with that goal's score; the final state stays retained.
    @Test func theStateWalksThroughTheGame() async throws {
        let run = try await Self.gameRun.value
        let events = run.events
        let states = run.on("faceoff/team/TOR/state").map(\.json)
        var walk: [String] = []
        for state in states.compactMap({ $0["state"] as? String }) where walk.last != state { walk.append(state) }
        #expect(walk == ["idle", "pregame", "live", "intermission", "live", "intermission", "live", "final"], "\(walk)")
        for state in states {
            guard let goal = state["lastEvent"] as? String, goal.contains(":goal:"), let score = events[goal]?["score"] as? [String: Int]
            else { continue }
            #expect(state["teamScore"] as? Int == score["home"] && state["opponentScore"] as? Int == score["away"], "\(state)")
        }
        let final = try #require(run.retainedState).json
        #expect(
            final["state"] as? String == "final" && final["score"] as? String == "3–1" && final["opponent"] as? String == "BOS", "\(final)")
    }
}
