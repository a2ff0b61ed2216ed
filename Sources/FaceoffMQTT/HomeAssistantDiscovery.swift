import FaceoffKit
import Foundation

/// Home Assistant MQTT discovery: one device per followed team, with three sensors and a
/// device trigger per `MQTTTrigger`. Topics are `<discovery_prefix>/<component>/faceoff_<TEAM>/<object>/config`.
public struct HomeAssistantDiscovery: Sendable {
    public let topics: MQTTTopics
    public let version: String

    public init(topics: MQTTTopics, version: String) {
        self.topics = topics
        self.version = version
    }

    func node(_ team: String) -> String { "faceoff_\(MQTTTopics.segment(team))" }

    /// Every discovery message for `team`, retained.
    public func messages(for team: String) -> [MQTTMessage] {
        let key = TeamKey(written: team)
        // A team written bare that no league knows is taken for the NHL's, as before leagues.
        let league = key?.league ?? .nhl
        let device: [String: Any] = [
            "identifiers": [node(team)],
            "name": key?.team?.name ?? team,
            "model": "\(league.name) team",
            "manufacturer": "Faceoff",
            "sw_version": version,
        ]
        let availability: [String: Any] = [
            "availability_topic": topics.status, "payload_available": "online", "payload_not_available": "offline",
        ]
        func sensor(_ object: String, _ name: String, topic: String, value: String, extra: [String: Any] = [:]) -> MQTTMessage {
            var config: [String: Any] = [
                "name": name,
                "unique_id": "\(node(team))_\(object)",
                "object_id": "\(node(team))_\(object)".lowercased(),
                "state_topic": topic,
                "value_template": value,
                "json_attributes_topic": topic,
                "icon": league.definition.icon,
                "device": device,
            ]
            config.merge(availability) { $1 }
            config.merge(extra) { $1 }
            return MQTTMessage(
                topic: "\(topics.discoveryPrefix)/sensor/\(node(team))/\(object)/config", payload: Self.json(config), retain: true)
        }
        var messages = [
            sensor("state", "Game state", topic: topics.state(team), value: "{{ value_json.state }}"),
            sensor("score", "Score", topic: topics.state(team), value: "{{ value_json.score if value_json.score is defined else None }}"),
            sensor(
                "next_game", "Next game", topic: topics.next(team),
                value: "{{ value_json.start if value_json.start is defined else None }}", extra: ["device_class": "timestamp"]),
        ]
        for trigger in MQTTTrigger.of(league) {
            let config: [String: Any] = [
                "automation_type": "trigger",
                "topic": topics.trigger(team, trigger),
                "type": trigger.rawValue,
                "subtype": team,
                "qos": 1,
                "device": device,
            ]
            messages.append(
                MQTTMessage(
                    topic: "\(topics.discoveryPrefix)/device_automation/\(node(team))/\(trigger.rawValue)/config",
                    payload: Self.json(config), retain: true))
        }
        return messages
    }

    /// A switch that mutes `sink` (`faceoff mute`), on a device of Faceoff's own.
    public func muteSwitch(_ sink: String) -> MQTTMessage {
        let id = "faceoff_mute_\(MQTTSlug.of(sink))"
        let config: [String: Any] = [
            "name": "Faceoff mute: \(sink)",
            "unique_id": id,
            "object_id": id,
            "command_topic": topics.muteCommand(sink),
            "state_topic": topics.muteState(sink),
            "payload_on": "ON",
            "payload_off": "OFF",
            "qos": 1,
            "icon": "mdi:bell-off",
            "availability_topic": topics.status, "payload_available": "online", "payload_not_available": "offline",
            "device": [
                "identifiers": ["faceoff"], "name": "Faceoff", "model": "NHL alerts", "manufacturer": "Faceoff", "sw_version": version,
            ] as [String: Any],
        ]
        return MQTTMessage(topic: "\(topics.discoveryPrefix)/switch/\(id)/config", payload: Self.json(config), retain: true)
    }

    /// Whether `topic` is one of this sink's discovery topics (for removing a team's).
    public func owns(_ topic: String) -> Bool {
        topic.hasPrefix(topics.discoveryPrefix + "/") && topic.contains("/faceoff_") && topic.hasSuffix("/config")
    }

    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
