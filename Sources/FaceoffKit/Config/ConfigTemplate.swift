import FaceoffBase
import Foundation

/// The commented starting file `faceoff config init` writes.
public enum ConfigTemplate {
    public static func text(teams: [String] = [], players: [Int] = []) -> String {
        let teamList = teams.map { "\"\($0)\"" }.joined(separator: ", ")
        let playerList = players.map(String.init).joined(separator: ", ")
        return """
            # Faceoff configuration. Every key is optional; the commented lines show the defaults.
            # `faceoff config validate` checks this file; `faceoff follow TOR` edits the lists below.

            # NHL teams by abbreviation (TOR), NBA teams as nba:TEAM (nba:LAL).
            teams = [\(teamList)]
            players = [\(playerList)]
            # timezone = "America/Toronto"          # default: the system's
            # api_base = "https://api-web.nhle.com/v1/"
            # espn_base = "https://site.api.espn.com/"   # ESPN's site API, for the NBA

            [calendar]
            # dir = "~/.local/share/faceoff/calendars"
            # season = "current"                  # or 20252026
            # game_types = ["regular", "playoffs"]  # add "preseason" if you like
            # reminders = ["1h", "15m"]           # alarms before each game; none by default
            # duration = "3h"
            # refresh = "6h"
            # scores = true                       # false keeps the feeds spoiler-free

            [watch]
            # poll = "5s"                         # live poll interval, at least 2s
            # pregame = "30m"                     # start watching (and remind) this long before puck drop;
            #                                     # a list reminds at each: ["1h", "10m"]
            # delay = "0s"                        # hold alerts back to match a delayed broadcast
            # final_hold = "6h"                   # how long `faceoff status` shows a final

            [serve]
            # enabled = false
            # listen = "127.0.0.1:8765"
            # token = ""
            # public_url = ""

            # Where alerts go. Without any [[sink]], `faceoff watch` prints to the terminal and
            # `faceoff run` sends desktop notifications.
            #
            # [[sink]]
            # type = "webhook"                    # stdout | notify | webhook | exec | mqtt
            # name = "discord"
            # events = ["goal", "final"]
            # url = "https://discord.com/api/webhooks/..."
            # preset = "discord"

            """
    }
}

/// The effective configuration as TOML, defaults filled in, for `faceoff config show`.
public enum ConfigRenderer {
    public static let redacted = "\"<redacted>\""

    public static func render(_ config: Config, paths: Paths, redactSecrets: Bool = true) -> String {
        func quote(_ text: String) -> String { "\"" + StringEscaping.quotedBody(text) + "\"" }
        func secret(_ text: String) -> String { redactSecrets && !text.isEmpty ? redacted : quote(text) }
        func list(_ items: [String]) -> String { "[" + items.map(quote).joined(separator: ", ") + "]" }
        func duration(_ value: Duration) -> String { quote(DurationText.format(value)) }

        var lines: [String] = []
        lines.append("teams = \(list(config.teams))")
        lines.append("players = [\(config.players.map(String.init).joined(separator: ", "))]")
        lines.append("timezone = \(quote(config.timeZone.identifier))\(config.timezone == nil ? "  # the system's" : "")")
        lines.append("api_base = \(quote(config.apiBase))")
        lines.append("espn_base = \(quote(config.espnBase))")
        lines.append("")
        lines.append("[calendar]")
        lines.append("dir = \(quote(config.calendar.dir ?? paths.calendarDirectory))")
        lines.append("season = \(quote(config.calendar.season))")
        lines.append("game_types = \(list(config.calendar.gameTypes.map(\.rawValue)))")
        lines.append("reminders = \(list(config.calendar.reminders.map(DurationText.format)))")
        lines.append("duration = \(duration(config.calendar.duration))")
        lines.append("refresh = \(duration(config.calendar.refresh))")
        lines.append("scores = \(config.calendar.scores)")
        lines.append("")
        lines.append("[watch]")
        lines.append("poll = \(duration(config.watch.poll))")
        lines.append(
            "pregame = "
                + (config.watch.remindersListed
                    ? list(config.watch.reminders.map(DurationText.format)) : duration(config.watch.pregame)))
        lines.append("delay = \(duration(config.watch.delay))")
        lines.append("final_hold = \(duration(config.watch.finalHold))")
        lines.append("")
        lines.append("[serve]")
        lines.append("enabled = \(config.serve.enabled)")
        lines.append("listen = \(quote(config.serve.listen))")
        lines.append("token = \(secret(config.serve.token))")
        lines.append("public_url = \(quote(config.serve.publicURL))")
        for sink in config.sinks {
            lines.append("")
            lines.append("[[sink]]")
            lines.append("type = \(quote(sink.type.rawValue))")
            if let name = sink.name { lines.append("name = \(quote(name))") }
            lines.append("events = \(list(sink.events?.map(\.rawValue) ?? EventKindName.byDefault))")
            lines.append("teams = \(list(sink.teams ?? config.teams))")
            if !sink.players.isEmpty { lines.append("players = [\(sink.players.map(String.init).joined(separator: ", "))]") }
            lines.append("delay = \(duration(sink.delay ?? config.watch.delay))")
            if let quiet = sink.quietHours { lines.append("quiet_hours = \(quote(quiet.description))") }
            lines.append("held = \(quote(sink.heldAlerts.rawValue))")
            switch sink.options {
            case .webhook(let webhook):
                // A webhook URL often carries its own credential (Discord, Slack), so it is a secret too.
                lines.append("url = \(redactSecrets ? quote(SinkConfig.Webhook.shown(webhook.url)) : quote(webhook.url))")
                lines.append("preset = \(quote(webhook.preset.rawValue))")
                if sink.editsCorrections || webhook.edit != .on {
                    lines.append("edit = \(webhook.edit == .both ? "\"both\"" : "\(webhook.edit == .on)")")
                }
                if let value = webhook.secret { lines.append("secret = \(secret(value))") }
                if !webhook.headers.isEmpty {
                    let pairs = webhook.headers.sorted { $0.key < $1.key }.map { "\(quote($0.key)) = \(secret($0.value))" }
                    lines.append("headers = { \(pairs.joined(separator: ", ")) }")
                }
                lines.append("expiry = \(duration(webhook.expiry))")
            case .stdout(let stdout):
                lines.append("format = \(quote(stdout.format.rawValue))")
            case .notify(let notify):
                if let urgency = notify.urgency { lines.append("urgency = \(quote(urgency.rawValue))") }
                lines.append("edit = \(notify.edit == .both ? "\"both\"" : "\(notify.edit == .on)")")
            case .exec(let exec):
                lines.append("command = \(list(exec.command))")
                lines.append("timeout = \(duration(exec.timeout))")
                lines.append("retry = \(exec.retry)")
                lines.append("expiry = \(duration(exec.expiry))")
            case .mqtt(let mqtt):
                // A login in the URL is a secret; the broker's address alone is not.
                lines.append("url = \(mqtt.url.contains("@") ? secret(mqtt.url) : quote(mqtt.url))")
                if let username = mqtt.username { lines.append("username = \(quote(username))") }
                if let password = mqtt.password { lines.append("password = \(secret(password))") }
                if let caFile = mqtt.caFile { lines.append("ca_file = \(quote(caFile))") }
                if let clientID = mqtt.clientID { lines.append("client_id = \(quote(clientID))") }
                lines.append("topic_prefix = \(quote(mqtt.topicPrefix))")
                lines.append("discovery = \(mqtt.discovery)")
                lines.append("discovery_prefix = \(quote(mqtt.discoveryPrefix))")
                lines.append("expiry = \(duration(mqtt.expiry))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ConfigRenderer {
    /// The same settings as `render`, as one JSON object with the config file's key names.
    public static func json(_ config: Config, paths: Paths, redactSecrets: Bool = true) -> String {
        func secret(_ text: String) -> String { redactSecrets && !text.isEmpty ? "<redacted>" : text }
        func duration(_ value: Duration) -> String { DurationText.format(value) }
        var sinks: [[String: Any]] = []
        for sink in config.sinks {
            var object: [String: Any] = [
                "type": sink.type.rawValue,
                "events": sink.events?.map(\.rawValue) ?? EventKindName.byDefault,
                "teams": sink.teams ?? config.teams,
                "players": sink.players,
                "delay": duration(sink.delay ?? config.watch.delay),
            ]
            if let name = sink.name { object["name"] = name }
            if let quiet = sink.quietHours { object["quiet_hours"] = quiet.description }
            object["held"] = sink.heldAlerts.rawValue
            switch sink.options {
            case .webhook(let webhook):
                object["url"] = redactSecrets ? SinkConfig.Webhook.shown(webhook.url) : webhook.url
                object["preset"] = webhook.preset.rawValue
                if sink.editsCorrections || webhook.edit != .on {
                    object["edit"] = webhook.edit == .both ? "both" : (webhook.edit == .on) as Any
                }
                if let value = webhook.secret { object["secret"] = secret(value) }
                object["headers"] = webhook.headers.mapValues(secret)
                object["expiry"] = duration(webhook.expiry)
            case .stdout(let stdout):
                object["format"] = stdout.format.rawValue
            case .notify(let notify):
                if let urgency = notify.urgency { object["urgency"] = urgency.rawValue }
                object["edit"] = notify.edit == .both ? "both" : (notify.edit == .on) as Any
            case .exec(let exec):
                object["command"] = exec.command
                object["timeout"] = duration(exec.timeout)
                object["retry"] = exec.retry
                object["expiry"] = duration(exec.expiry)
            case .mqtt(let mqtt):
                object["url"] = mqtt.url.contains("@") ? secret(mqtt.url) : mqtt.url
                if let username = mqtt.username { object["username"] = username }
                if let password = mqtt.password { object["password"] = secret(password) }
                if let caFile = mqtt.caFile { object["ca_file"] = caFile }
                if let clientID = mqtt.clientID { object["client_id"] = clientID }
                object["topic_prefix"] = mqtt.topicPrefix
                object["discovery"] = mqtt.discovery
                object["discovery_prefix"] = mqtt.discoveryPrefix
                object["expiry"] = duration(mqtt.expiry)
            }
            sinks.append(object)
        }
        let root: [String: Any] = [
            "teams": config.teams,
            "players": config.players,
            "timezone": config.timeZone.identifier,
            "api_base": config.apiBase,
            "espn_base": config.espnBase,
            "calendar": [
                "dir": config.calendar.dir ?? paths.calendarDirectory,
                "season": config.calendar.season,
                "game_types": config.calendar.gameTypes.map(\.rawValue),
                "reminders": config.calendar.reminders.map(duration),
                "duration": duration(config.calendar.duration),
                "refresh": duration(config.calendar.refresh),
                "scores": config.calendar.scores,
            ] as [String: Any],
            "watch": [
                "poll": duration(config.watch.poll),
                "pregame": config.watch.remindersListed
                    ? config.watch.reminders.map(duration) as Any : duration(config.watch.pregame) as Any,
                "delay": duration(config.watch.delay),
                "final_hold": duration(config.watch.finalHold),
            ],
            "serve": [
                "enabled": config.serve.enabled,
                "listen": config.serve.listen,
                "token": secret(config.serve.token),
                "public_url": config.serve.publicURL,
            ] as [String: Any],
            "sink": sinks,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}
