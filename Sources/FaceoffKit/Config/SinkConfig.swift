import Foundation

/// One `[[sink]]`: which alerts it takes and when (the keys every kind has), and its kind's
/// own options. A kind's options exist only in its case, so a webhook has a url and an MQTT
/// sink a broker by construction, and nothing falls back to a default address.
public struct SinkConfig: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case stdout, notify, webhook, exec, mqtt
    }

    public enum Preset: String, Sendable, CaseIterable {
        case generic, discord, slack, ntfy, gotify, homeassistant
    }

    public enum Format: String, Sendable, CaseIterable {
        case text, jsonl
    }

    public enum Urgency: String, Sendable, CaseIterable {
        case critical, normal, low
    }

    /// What a correction (a goal overturned, reinstated, its scorer changed) does to the goal's
    /// message where the receiver can edit it (notify, Discord, ntfy).
    public enum Edit: String, Sendable, CaseIterable {
        /// The goal's message becomes the correction.
        case on
        /// A new message, as at receivers that can't edit.
        case off
        /// Both: the goal's message edited, and a new one.
        case both
    }

    /// What becomes of the alerts a sink holds while muted or quiet.
    public enum Held: String, Sendable, CaseIterable {
        /// Gone: claimed in the ledger, never sent.
        case drop
        /// One message when the hold ends, summing them up.
        case digest
    }

    /// A kind and the options only it has.
    public enum Options: Sendable, Equatable {
        case stdout(Stdout)
        case notify(Notify)
        case webhook(Webhook)
        case exec(Exec)
        case mqtt(MQTT)
    }

    public struct Stdout: Sendable, Equatable {
        public var format: Format = .text

        public init(format: Format = .text) { self.format = format }
    }

    public struct Notify: Sendable, Equatable {
        /// nil means the default rule: critical for a followed team's goal and the final.
        public var urgency: Urgency?
        public var edit: Edit = .on

        public init(urgency: Urgency? = nil, edit: Edit = .on) {
            self.urgency = urgency
            self.edit = edit
        }
    }

    public struct Webhook: Sendable, Equatable {
        /// http:// or https:// (checked at load).
        public var url: String
        public var preset: Preset = .generic
        public var secret: String?
        public var headers: [String: String] = [:]
        public var expiry: Duration = .seconds(3600)
        /// Only the discord and ntfy presets can edit a message.
        public var edit: Edit = .on

        public init(url: String) { self.url = url }

        /// Whether corrections edit the goal's message: a receiver that can, and `edit` not off.
        public var editsCorrections: Bool { edit != .off && [.discord, .ntfy].contains(preset) }
    }

    public struct Exec: Sendable, Equatable {
        /// The program and its arguments, each a template over the event's keys.
        public var command: [String]
        /// How long the program may run before its process group is killed.
        public var timeout: Duration = .seconds(10)
        /// At-least-once (retried on the outbox's schedule until `expiry`, also after a crash)
        /// rather than at-most-once.
        public var retry = false
        public var expiry: Duration = .seconds(3600)

        public init(command: [String]) { self.command = command }
    }

    public struct MQTT: Sendable, Equatable {
        /// Where to connect and how to log in: `url` with the login keys and `ca_file`.
        public private(set) var broker: MQTTBroker
        /// The keys as written, for `faceoff config show` (`url` may carry a login too).
        public private(set) var url: String
        public private(set) var username: String?
        public private(set) var password: String?
        /// nil means `faceoff-<host>-<pid>`, unique per process.
        public var clientID: String?
        public var topicPrefix = "faceoff"
        public var discovery = true
        public var discoveryPrefix = "homeassistant"
        public var expiry: Duration = .seconds(3600)

        /// nil unless `url` is mqtt://host[:port] or mqtts://host[:port].
        public init?(url: String, username: String? = nil, password: String? = nil, caFile: String? = nil) {
            guard let broker = MQTTBroker(url: url, caFile: caFile, username: username, password: password) else { return nil }
            self.broker = broker
            self.url = url
            self.username = username
            self.password = password
        }

        /// The PEM file of the CA that signed the broker's certificate; nil means the system's
        /// CA store.
        public var caFile: String? {
            get { broker.caFile }
            set { broker.caFile = newValue }
        }
    }

    public var name: String?
    /// The kinds it gets, as the config lists them (checked at load: an unknown name is a
    /// config error with its line); nil means every kind but the opt-in ones.
    public var events: [GameEvent.Kind]?
    /// nil means the followed teams.
    public var teams: [String]?
    public var players: [Int] = []
    /// nil means `[watch] delay`.
    public var delay: Duration?
    /// The nightly quiet, in the configured time zone.
    public var quietHours: QuietHours?
    /// nil means `heldAlerts`' default.
    public var held: Held?
    public var options: Options

    public init(_ options: Options, name: String? = nil) {
        self.options = options
        self.name = name
    }

    public var type: Kind {
        switch options {
        case .stdout: .stdout
        case .notify: .notify
        case .webhook: .webhook
        case .exec: .exec
        case .mqtt: .mqtt
        }
    }

    /// What becomes of held alerts: as configured, else dropped at a desktop or exec sink (a
    /// horn at 7 am for a goal at midnight is wrong) and summed up in a digest elsewhere.
    public var heldAlerts: Held { held ?? Self.defaultHeld(type) }

    /// A kind's `held` when its sink sets none.
    public static func defaultHeld(_ kind: Kind) -> Held { [.notify, .exec].contains(kind) ? .drop : .digest }

    /// Whether corrections edit the goal's message here: a receiver that can, and `edit` not off.
    public var editsCorrections: Bool {
        switch options {
        case .notify(let notify): notify.edit != .off
        case .webhook(let webhook): webhook.editsCorrections
        case .stdout, .exec, .mqtt: false
        }
    }

    /// How logs and errors name this sink.
    public var displayName: String { name ?? type.rawValue }
}

extension SinkConfig.Webhook {
    /// The URL as logs, errors and `config show` show it: its scheme, host and port, the path
    /// cut (a webhook URL's path is often its own credential).
    public static func shown(_ url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else {
            return "<webhook url>"
        }
        let port = components.port.map { ":\($0)" } ?? ""
        let path = components.path.isEmpty || components.path == "/" ? "/" : "/…"
        return "\(scheme)://\(host)\(port)\(path)"
    }
}
