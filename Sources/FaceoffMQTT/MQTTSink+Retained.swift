import FaceoffBase
import FaceoffKit
import Foundation
import Logging
import Synchronization

/// The retained topics (team states, next games, discovery): kept up on every connection.
extension MQTTSink {
    /// On each (re)connect: the status, the discovery entries (and the clearing of those the
    /// config no longer wants), then every retained message again; every 10 minutes, the next
    /// games and the finals that have become `idle`.
    func maintain(_ connection: MQTTConnection) async {
        var upkeep = MQTTUpkeep(owner: owner)
        let began = ContinuousClock.now
        while !Task.isCancelled {
            let version = connection.changeVersion
            let poked = lookNow.withLock { state -> Bool in
                defer { state = false }
                return state
            }
            let steps = upkeep.look(
                connected: connection.isConnected, generation: connection.generation, problem: connection.knownProblem, poked: poked,
                at: began.duration(to: .now))
            for step in steps {
                switch step {
                case .connected:
                    logger.notice(
                        "connected to the MQTT broker",
                        metadata: ["sink": "\(name)", "broker": "\(broker.address)", "client_id": "\(clientID)"])
                    await noteConnection("connected to \(broker.address) as \(clientID)")
                    await publishRetained(on: connection) { republished() }
                case .lost(let problem):
                    logger.warning(
                        "MQTT broker not connected; alerts wait in the outbox", metadata: ["sink": "\(name)", "error": "\(problem)"])
                    await noteConnection("not connected: \(problem)")
                case .look:
                    await publishRetained(on: connection) { await looked() }
                }
            }
            let commands = connection.received()
            if !commands.isEmpty { await obey(commands) }
            if connection.isConnected {
                let moved = switchStates().filter { message in (try? retained?.payload(message.topic)) ?? nil != message.payload }
                if !moved.isEmpty { await publishRetained(on: connection) { moved } }
            }
            // With switches, a mute typed in a terminal shows on them within 5 s.
            let idle: Duration = switches.isEmpty ? .seconds(30) : .seconds(5)
            await connection.waitForChange(after: version, until: ContinuousClock.now.advanced(by: idle))
        }
    }

    /// What every connect says: the status and discovery (`run`), and what the store holds.
    func republished() -> [MQTTMessage] {
        var messages: [MQTTMessage] = []
        let stored = (try? retained?.all()) ?? []
        if owner {
            messages.append(MQTTMessage(topic: topics.status, payload: "online", retain: true))
            let wanted = options.discovery ? teams.flatMap(discovery.messages(for:)) + switches.map(discovery.muteSwitch) : []
            let wantedTopics = Set(wanted.map(\.topic))
            let stale = stored.filter { discovery.owns($0.topic) && !wantedTopics.contains($0.topic) }
            messages += wanted
            messages += stale.map { MQTTMessage(topic: $0.topic, payload: "", retain: true) }
            if !stale.isEmpty {
                logger.notice(
                    "removing discovery entries of teams no longer followed", metadata: ["sink": "\(name)", "topics": "\(stale.count)"])
            }
            // The state and next game of a team no longer followed: cleared too.
            let teamTopics = Set(teams.flatMap { [topics.state($0), topics.next($0)] })
            let gone = stored.filter {
                !discovery.owns($0.topic) && !teamTopics.contains($0.topic) && $0.topic.hasPrefix(topics.prefix + "/team/")
            }
            messages += gone.map { MQTTMessage(topic: $0.topic, payload: "", retain: true) }
            messages += stored.filter { teamTopics.contains($0.topic) }
            messages += switchStates()
            // A team with no state yet: idle.
            let date = now()
            for team in teams where !stored.contains(where: { $0.topic == topics.state(team) }) {
                messages.append(
                    MQTTMessage(topic: topics.state(team), payload: Self.json(MQTTTeamState.idle(team, at: date)), retain: true))
            }
        } else {
            messages = stored.filter { !discovery.owns($0.topic) }
        }
        return messages
    }

    /// The next games from the cached schedule, and finals older than `finalHold` as `idle`.
    func looked() async -> [MQTTMessage] {
        var messages: [MQTTMessage] = []
        let date = now()
        for team in teams {
            let state = storedState(team)
            // The cached schedule may not know yet that the game this sink saw end is over.
            let over: Set<Int> = state.flatMap { $0.state == "final" ? $0.gameId : nil }.map { [$0] } ?? []
            let next = Self.json(MQTTNextGame(team: team, game: MQTTNextGame.pick(await games(team), now: date, over: over)))
            if (try? retained?.payload(topics.next(team))) ?? nil != next {
                messages.append(MQTTMessage(topic: topics.next(team), payload: next, retain: true))
            }
            if let state, state.state == "final",
                let updated = try? Date(state.updated, strategy: .iso8601), date.timeIntervalSince(updated) >= finalHold.inSeconds
            {
                messages.append(
                    MQTTMessage(topic: topics.state(team), payload: Self.json(MQTTTeamState.idle(team, at: date)), retain: true))
            }
        }
        return messages
    }

    /// The mute switches' states, from the mutes in the store: `ON` while muted.
    func switchStates() -> [MQTTMessage] {
        guard !switches.isEmpty, let store = outbox?.store else { return [] }
        let muted = Set(((try? Holds(store: store).mutes(at: now())) ?? []).map(\.sink))
        return switches.map { MQTTMessage(topic: topics.muteState($0), payload: muted.contains($0) ? "ON" : "OFF", retain: true) }
    }

    /// What the switches were told: `ON` mutes the sink until unmuted, `OFF` unmutes it, for
    /// every process on the store (as `faceoff mute` does).
    func obey(_ commands: [(topic: String, payload: String)]) async {
        guard let store = outbox?.store else { return }
        let holds = Holds(store: store)
        for (topic, payload) in commands {
            guard let sink = switches.first(where: { topics.muteCommand($0) == topic }) else { continue }
            let on = payload.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
            do {
                switch on {
                case "ON": try await holds.mute([sink], until: nil, at: now())
                case "OFF": try await holds.unmute([sink], at: now())
                default:
                    logger.warning(
                        "a mute switch was sent neither ON nor OFF; ignored", metadata: ["sink": "\(name)", "topic": "\(topic)"])
                    continue
                }
                logger.notice("\(on == "ON" ? "muted" : "unmuted") from MQTT", metadata: ["sink": "\(name)", "muted_sink": "\(sink)"])
            } catch {
                logger.error("cannot record a mute from MQTT", metadata: ["sink": "\(name)", "error": "\(error)"])
            }
        }
    }

    func publishRetained(on connection: MQTTConnection, _ compose: () async -> [MQTTMessage]) async {
        do throws(MQTTProblem) {
            try await publishInTurn(key: "retained-\(UUID().uuidString)", on: connection, compose)
        } catch {
            // The next connect publishes them again (the store has them).
            logger.warning("retained MQTT topics not published", metadata: ["sink": "\(name)", "error": "\(error)"])
        }
    }
}
