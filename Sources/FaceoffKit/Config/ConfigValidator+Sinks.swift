import FaceoffBase
import Foundation
import TOMLKit

/// The `[[sink]]` tables: each kind with its own keys.
extension ConfigValidator {
    mutating func sinks(_ value: Node, _ path: [String]) -> [SinkConfig] {
        guard case .array(let items) = value else {
            if case .table = value {
                fail(path, "write sinks as [[sink]] (double brackets): each one is an entry in a list")
            } else {
                fail(path, "'sink' must be a list of [[sink]] tables")
            }
            return []
        }
        var sinks: [SinkConfig] = []
        var names: Set<String> = []
        // With an MQTT sink, each sink has a mute switch named by its slug: two alike would
        // share one topic.
        var slugs: [String: String] = [:]
        let mqtt = items.contains { item in
            guard case .table(let entries) = item, let type = entries.first(where: { $0.0 == "type" })?.1, case .string("mqtt") = type
            else { return false }
            return true
        }
        for (position, item) in items.enumerated() {
            let itemPath = path + [String(position)]
            guard case .table(let entries) = item else {
                fail(itemPath, "each sink must be a [[sink]] table")
                continue
            }
            // A sink whose kind is known is named even when its options are wrong, so that
            // one load reports a clash of names too.
            if let (name, sink) = sink(entries, itemPath) {
                if !names.insert(name).inserted {
                    fail(itemPath + ["name"], "two sinks are named '\(name)'; give each a different `name`")
                } else if mqtt, let other = slugs.updateValue(name, forKey: MQTTSlug.of(name)) {
                    fail(
                        itemPath + ["name"],
                        "sinks '\(other)' and '\(name)' would share one MQTT mute switch (\(MQTTSlug.of(name))); give one another `name`"
                    )
                }
                if let sink { sinks.append(sink) }
            }
        }
        return sinks
    }

    /// The sink's name (its `name`, else its kind) and the sink; nil when its kind is not
    /// known, and no sink when its options can't make one (each reason is an error).
    mutating func sink(_ entries: [(String, Node)], _ path: [String]) -> (String, SinkConfig?)? {
        guard let typeNode = entries.first(where: { $0.0 == "type" })?.1 else {
            fail(path, "this [[sink]] has no `type`; add type = \"stdout\", \"notify\", \"webhook\", \"exec\" or \"mqtt\"")
            return nil
        }
        guard let typeName = string(typeNode, path + ["type"], example: #""webhook""#) else { return nil }
        guard let kind = SinkConfig.Kind(rawValue: typeName) else {
            fail(
                path + ["type"],
                "unknown sink type '\(typeName)'\(Suggest.phrase(typeName, in: SinkConfig.Kind.allCases.map(\.rawValue))); use stdout, notify, webhook, exec or mqtt"
            )
            return nil
        }
        // The common keys go to `sink`, each kind's own to its options, made whole at the end.
        var sink = SinkConfig(.stdout(.init()))
        var stdout = SinkConfig.Stdout()
        var notify = SinkConfig.Notify()
        var webhook = SinkConfig.Webhook(url: "")
        var exec = SinkConfig.Exec(command: [])
        var mqtt = MQTTKeys()
        let common = ["type", "name", "events", "teams", "players", "delay", "quiet_hours", "held"]
        let specific: [SinkConfig.Kind: [String]] = [
            .webhook: ["url", "preset", "secret", "headers", "expiry", "edit"],
            .stdout: ["format"],
            .notify: ["urgency", "edit"],
            .exec: ["command", "timeout", "retry", "expiry"],
            .mqtt: ["url", "username", "password", "ca_file", "client_id", "topic_prefix", "discovery", "discovery_prefix", "expiry"],
        ]
        let allowed = common + specific[kind, default: []]
        for (key, value) in entries {
            let keyPath = path + [key]
            if !allowed.contains(key) {
                let owners = SinkConfig.Kind.allCases.filter { specific[$0, default: []].contains(key) }.map(\.rawValue)
                if !owners.isEmpty {
                    fail(
                        keyPath,
                        "'\(key)' applies to \(owners.joined(separator: " and ")) sinks only, and this one is type = \"\(kind.rawValue)\"")
                } else {
                    unknown(key, keyPath, allowed: allowed)
                }
                continue
            }
            switch key {
            case "type": break
            case "name":
                if let name = string(value, keyPath, example: #""discord""#) { sink.name = name }
            case "events":
                if let kinds = strings(value, keyPath, example: #"["goal", "final"]"#) {
                    for name in kinds where !EventKindName.all.contains(name) {
                        fail(
                            keyPath,
                            "unknown event kind '\(name)'\(Suggest.phrase(name, in: EventKindName.all)); kinds are \(EventKindName.all.joined(separator: ", "))"
                        )
                    }
                    sink.events = kinds.compactMap(GameEvent.Kind.init(rawValue:))
                }
            case "teams":
                if let names = strings(value, keyPath, example: #"["TOR"]"#) { sink.teams = teams(names, keyPath) }
            case "players":
                sink.players = playerIDs(value, keyPath)
            case "delay":
                sink.delay = duration(value, keyPath)
            case "quiet_hours":
                if let text = string(value, keyPath, example: #""23:00-07:00""#) {
                    if let quiet = QuietHours(text) {
                        sink.quietHours = quiet
                    } else {
                        fail(keyPath, "'quiet_hours' must be two times of day, from-to, like \"23:00-07:00\" (it may span midnight)")
                    }
                }
            case "edit":
                // Only where a message can be edited: desktop notifications, Discord, ntfy.
                let preset = entries.first { $0.0 == "preset" }.flatMap { entry -> String? in
                    if case .string(let name) = entry.1 { return name }
                    return nil
                }
                guard kind == .notify || preset == "discord" || preset == "ntfy" else {
                    fail(
                        keyPath,
                        "'edit' applies to notify sinks and webhooks with preset \"discord\" or \"ntfy\", which can edit a message")
                    continue
                }
                if case .bool(let flag) = value {
                    (notify.edit, webhook.edit) = (flag ? .on : .off, flag ? .on : .off)
                } else if case .string("both") = value {
                    (notify.edit, webhook.edit) = (.both, .both)
                } else {
                    fail(keyPath, "'edit' must be true, false or \"both\" (edit the first message and send a new one too)")
                }
            case "held":
                if let name = string(value, keyPath, example: #""digest""#) {
                    if let held = SinkConfig.Held(rawValue: name) {
                        sink.held = held
                    } else {
                        fail(keyPath, "unknown 'held' value '\(name)'; use \"drop\" or \"digest\"")
                    }
                }
            case "url":
                if kind == .mqtt {
                    if let url = string(value, keyPath, example: #""mqtt://localhost:1883""#) {
                        if MQTTBroker(url: url) != nil {
                            mqtt.url = url
                        } else {
                            fail(keyPath, "'url' must be mqtt://host[:port] or mqtts://host[:port], like \"mqtt://localhost:1883\"")
                        }
                    }
                } else if let url = string(value, keyPath, example: #""https://example.org/hook""#) {
                    if url.hasPrefix("https://") || url.hasPrefix("http://") {
                        webhook.url = url
                    } else {
                        fail(keyPath, "'url' must start with https:// or http://")
                    }
                }
            case "username":
                if let text = string(value, keyPath, example: #""faceoff""#) { mqtt.username = text }
            case "password":
                if let text = string(value, keyPath, example: #""...""#) { mqtt.password = text }
            case "ca_file":
                if let text = string(value, keyPath, example: #""/etc/ssl/certs/my-ca.pem""#) { mqtt.caFile = text }
            case "client_id":
                if let text = string(value, keyPath, example: #""faceoff-den""#) {
                    if text.isEmpty || text.utf8.count > 65535 {
                        fail(keyPath, "'client_id' must not be empty")
                    } else {
                        mqtt.clientID = text
                    }
                }
            case "topic_prefix", "discovery_prefix":
                if let text = string(value, keyPath, example: key == "topic_prefix" ? #""faceoff""# : #""homeassistant""#) {
                    if text.isEmpty || text.contains("+") || text.contains("#") || text.hasPrefix("/") || text.hasSuffix("/") {
                        fail(
                            keyPath,
                            "'\(key)' must be a topic without wildcards (+, #) or a leading or trailing /, like \(key == "topic_prefix" ? "\"faceoff\"" : "\"homeassistant\"")"
                        )
                    } else if key == "topic_prefix" {
                        mqtt.topicPrefix = text
                    } else {
                        mqtt.discoveryPrefix = text
                    }
                }
            case "discovery":
                if let flag = bool(value, keyPath) { mqtt.discovery = flag }
            case "preset":
                if let name = string(value, keyPath, example: #""discord""#) {
                    if let preset = SinkConfig.Preset(rawValue: name) {
                        webhook.preset = preset
                    } else {
                        fail(
                            keyPath,
                            "unknown preset '\(name)'\(Suggest.phrase(name, in: SinkConfig.Preset.allCases.map(\.rawValue))); use one of \(SinkConfig.Preset.allCases.map(\.rawValue).joined(separator: ", "))"
                        )
                    }
                }
            case "secret":
                if let secret = string(value, keyPath, example: #""whsec_...""#) {
                    if WebhookSecret.isValid(secret) {
                        webhook.secret = secret
                    } else {
                        fail(keyPath, "'secret' must be a Standard Webhooks key: \"whsec_\" followed by base64")
                    }
                }
            case "headers":
                if let pairs = table(value, keyPath) {
                    for (name, headerValue) in pairs {
                        if let text = string(headerValue, keyPath + [name], example: #""Bearer ...""#) { webhook.headers[name] = text }
                    }
                }
            case "expiry":
                if let expiry = duration(value, keyPath, minimum: .seconds(1)) {
                    (webhook.expiry, exec.expiry, mqtt.expiry) = (expiry, expiry, expiry)
                }
            case "format":
                if let name = string(value, keyPath, example: #""text""#) {
                    if let format = SinkConfig.Format(rawValue: name) {
                        stdout.format = format
                    } else {
                        fail(keyPath, "unknown format '\(name)'; use \"text\" or \"jsonl\"")
                    }
                }
            case "command":
                if let words = strings(value, keyPath, example: #"["~/bin/goal-light", "--team", "{{team}}"]"#) {
                    if words.first?.trimmingCharacters(in: .whitespaces).isEmpty ?? true {
                        fail(keyPath, "'command' needs the program first, like [\"~/bin/goal-light\", \"{{team}}\"]")
                    } else {
                        for (index, word) in words.enumerated() {
                            do { _ = try TemplateSet.parse(word, file: "command[\(index)]") } catch {
                                fail(keyPath, "argument \(index + 1) is not a valid template: \(error.message)")
                            }
                        }
                        exec.command = words
                    }
                }
            case "timeout":
                if let timeout = duration(value, keyPath, minimum: .seconds(1)) { exec.timeout = timeout }
            case "retry":
                if let flag = bool(value, keyPath) { exec.retry = flag }
            case "urgency":
                if let name = string(value, keyPath, example: #""normal""#) {
                    if let urgency = SinkConfig.Urgency(rawValue: name) {
                        notify.urgency = urgency
                    } else {
                        fail(keyPath, "unknown urgency '\(name)'; use \"critical\", \"normal\" or \"low\"")
                    }
                }
            default: break
            }
        }
        if kind == .webhook, !entries.contains(where: { $0.0 == "url" }) {
            fail(path, "this webhook sink has no `url`; add url = \"https://...\"")
        }
        if kind == .mqtt, !entries.contains(where: { $0.0 == "url" }) {
            fail(path, "this mqtt sink has no `url`; add url = \"mqtt://localhost:1883\"")
        }
        if kind == .exec, !entries.contains(where: { $0.0 == "command" }) {
            fail(path, "this exec sink has no `command`; add command = [\"~/bin/goal-light\", \"--team\", \"{{team}}\"]")
        }
        switch kind {
        case .stdout: sink.options = .stdout(stdout)
        case .notify: sink.options = .notify(notify)
        case .webhook: sink.options = .webhook(webhook)
        case .exec: sink.options = .exec(exec)
        case .mqtt:
            // A url that is not a broker's was refused above, with its line.
            guard let options = mqtt.options else { return (sink.name ?? kind.rawValue, nil) }
            sink.options = .mqtt(options)
        }
        return (sink.displayName, sink)
    }
}

/// An MQTT sink's keys as they are read, before its broker can be made from them. The keys
/// not written stay nil, so the defaults are `SinkConfig.MQTT`'s alone.
private struct MQTTKeys {
    var url: String?
    var username: String?
    var password: String?
    var caFile: String?
    var clientID: String?
    var topicPrefix: String?
    var discovery: Bool?
    var discoveryPrefix: String?
    var expiry: Duration?

    var options: SinkConfig.MQTT? {
        guard let url, var options = SinkConfig.MQTT(url: url, username: username, password: password, caFile: caFile) else {
            return nil
        }
        options.clientID = clientID
        if let topicPrefix { options.topicPrefix = topicPrefix }
        if let discovery { options.discovery = discovery }
        if let discoveryPrefix { options.discoveryPrefix = discoveryPrefix }
        if let expiry { options.expiry = expiry }
        return options
    }
}
