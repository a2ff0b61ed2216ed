import FaceoffBase
import FaceoffHTTP
import FaceoffKit
import FaceoffStore
import Foundation
import Logging
import Synchronization

/// Desktop notifications through `notify-send` (libnotify-bin). Goals of the followed teams
/// and finals are critical and stand on their own; every other alert of a game replaces that
/// game's one running notification in place, so a game leaves one live-score bubble behind.
/// A correction (a goal overturned, reinstated, its scorer changed) replaces its goal's
/// notification, unless `edit = false`.
public final class NotifySendSink: EditingSink {
    public let name: String
    let renderer: Renderer
    let urgency: SinkConfig.Urgency?
    let environment: [String: String]
    let logos: LogoCache?
    let timeout: Duration
    /// What a correction does to its goal's notification (`edit`).
    let edit: SinkConfig.Edit
    /// Each goal's notification id, for a correction after a restart (nil: this process only).
    let sent: SentMessages?
    let logger: Logger
    private let state = Mutex(State())

    struct State {
        var disabled: String?
        /// The game's running notification, to replace in place.
        var running: [Int: UInt32] = [:]
        /// The goals' notification ids this process sent.
        var goals: [String: UInt32] = [:]
    }

    public init(
        name: String = "notify", renderer: Renderer, urgency: SinkConfig.Urgency? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment, logos: LogoCache?, timeout: Duration = .seconds(5),
        edit: SinkConfig.Edit = .on, sent: SentMessages? = nil, logger: Logger = Logger(label: "faceoff.notify")
    ) {
        self.edit = edit
        self.sent = sent
        self.name = name
        self.renderer = renderer
        self.urgency = urgency
        self.environment = environment
        self.logos = logos
        self.timeout = timeout
        self.logger = logger
        if let problem = Self.unavailable(environment) { disable(problem) }
    }

    /// Why desktop notifications can't work here, if they can't: no notify-send, or no
    /// session bus to send them on.
    public static func unavailable(_ environment: [String: String]) -> String? {
        if ProcessRunner.locate("notify-send", environment: environment) == nil {
            return "notify-send is not installed (Debian: sudo apt-get install libnotify-bin)"
        }
        if environment["DBUS_SESSION_BUS_ADDRESS"].map({ !$0.isEmpty }) != true {
            let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(getuid())"
            if !FileManager.default.fileExists(atPath: runtime + "/bus") {
                return
                    "there is no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and \(runtime)/bus is missing); run Faceoff inside your desktop session"
            }
        }
        return nil
    }

    public var disabledReason: String? { state.withLock { $0.disabled } }

    /// Turns the sink off with one warning; the other sinks go on.
    private func disable(_ reason: String) {
        let first = state.withLock { state -> Bool in
            guard state.disabled == nil else { return false }
            state.disabled = reason
            return true
        }
        if first { logger.warning("desktop notifications are off", metadata: ["sink": "\(name)", "reason": "\(reason)"]) }
    }

    public func urgency(for event: GameEvent) -> SinkConfig.Urgency {
        urgency ?? (renderer.isImportant(event) ? .critical : .normal)
    }

    public func send(_ event: GameEvent) async -> Delivery {
        if let reason = disabledReason { return .skipped(reason) }
        // A correction turns its goal's notification into itself (and, with edit = "both",
        // comes as a new one too); a goal never shown here comes as a new one.
        if edit != .off, let goal = GameEvent.correctedGoal(of: event.id), let shown = goalNotification(goal) {
            let replaced = await notify(event, replacing: shown)
            guard edit == .both, !replaced.isFailure else { return replaced }
        }
        return await notify(event, replacing: nil)
    }

    public func edits(_ event: GameEvent) -> Bool {
        edit == .on && GameEvent.correctedGoal(of: event.id).flatMap(goalNotification) != nil
    }

    /// The notification id of `goal`'s alert, from this process or the store.
    func goalNotification(_ goal: String) -> UInt32? {
        state.withLock { $0.goals[goal] } ?? sent?.message(sink: name, event: goal).flatMap { UInt32($0) }
    }

    /// One notify-send: a new notification, the game's running one replaced, or (`replacing`)
    /// the goal notification a correction edits.
    private func notify(_ event: GameEvent, replacing goal: UInt32?) async -> Delivery {
        let text = renderer.text(event)
        let level = urgency(for: event)
        var arguments = ["--app-name=Faceoff", "--urgency=\(level.rawValue)", "--category=x-faceoff.\(event.kind.rawValue)", "--print-id"]
        if let team = event.team ?? (event.kind == .final ? event.details["winner"] : nil),
            let icon = await logos?.path(for: TeamKey(league: event.league ?? .nhl, abbrev: team))
        {
            arguments.append("--icon=\(icon)")
        }
        let standsAlone = level == .critical || goal != nil
        let replace = goal ?? (standsAlone ? nil : state.withLock { $0.running[event.gameId] })
        if let replace { arguments.append("--replace-id=\(replace)") }
        // The body is markup to most notification servers (<b>, <a href>, <img>, &): what the
        // API wrote is shown as text, never interpreted. The summary is plain text by the spec.
        arguments += ["--", text.title, Self.escapeMarkup(text.body)]
        do {
            let result = try await ProcessRunner.run("notify-send", arguments, environment: environment, timeout: timeout)
            if result.timedOut {
                logger.warning("notify-send hung and was killed", metadata: ["sink": "\(name)", "event": "\(event.id)"])
                return .failed("notify-send did not finish within \(timeout) and was killed")
            }
            guard result.status == 0 else {
                let message = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
                // No notification daemon, no bus: nothing later will work either.
                if message.contains("org.freedesktop") || message.localizedCaseInsensitiveContains("dbus") || message.contains("autolaunch")
                {
                    disable("notify-send could not reach a notification daemon: \(message)")
                    return .failed(message)
                }
                logger.warning("notify-send failed", metadata: ["sink": "\(name)", "status": "\(result.status)", "stderr": "\(message)"])
                return .failed("notify-send exited with \(result.status): \(message)")
            }
            let id = UInt32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            if !standsAlone, let id { state.withLock { $0.running[event.gameId] = id } }
            if event.kind == .final { state.withLock { _ = $0.running.removeValue(forKey: event.gameId) } }
            // Only a goal with a notification of its own: one that took over the game's running
            // bubble is no place for its correction (the next play replaces it).
            if event.kind == .goal, edit != .off, level == .critical, goal == nil, let id {
                state.withLock { $0.goals[event.id] = id }
                try? await sent?.record(sink: name, event: event.id, message: "\(id)", at: Date())
            }
            return .delivered(id.map { "notification \($0)" } ?? "")
        } catch {
            disable(error.description)
            return .failed(error.description)
        }
    }
}

/// Team logos for notification icons: each team's SVG logo (its league's, `LeagueDefinition.logo`)
/// fetched once into `$XDG_CACHE_HOME/faceoff/logos/` and passed as a path. A team whose
/// league has no SVG logo for it has no icon (the NBA's are PNGs from ESPN); a logo that
/// can't be had means no icon, and no second try in this process.
public final class LogoCache: Sendable {
    let directory: String
    let base: String?
    let http: any HTTPClient
    private let failed = Mutex<Set<TeamKey>>([])

    /// - Parameter base: a folder holding the logos under their own file names, in place of
    ///   where the league serves them (a `file://` folder in tests, `FACEOFF_LOGO_BASE`).
    public init(directory: String, base: String? = nil, http: any HTTPClient) {
        self.directory = directory
        self.base = base.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.http = http
    }

    public func path(for team: TeamKey) async -> String? {
        guard team.abbrev.allSatisfy({ $0.isLetter }), var url = team.league.definition.logo(team.abbrev), url.hasSuffix(".svg") else {
            return nil
        }
        if let base, let name = url.split(separator: "/").last { url = base + name }
        let path = "\(directory)/\(team.segment).svg"
        if FileManager.default.fileExists(atPath: path) { return path }
        if failed.withLock({ $0.contains(team) }) { return nil }
        do {
            var request = HTTPRequest(url: url, retry: nil, connectTimeout: .seconds(3), totalTimeout: .seconds(5))
            request.headers = [("Accept", "image/svg+xml")]
            let response = try await http.send(request)
            guard String(decoding: response.body.prefix(512), as: UTF8.self).contains("<svg") else {
                throw HTTPError(.transport, url: request.url, detail: "not an SVG image")
            }
            try AtomicFile.write(String(decoding: response.body, as: UTF8.self), to: path)
            return path
        } catch {
            failed.withLock { _ = $0.insert(team) }
            return nil
        }
    }
}

extension NotifySendSink {
    /// Text for a notification body that servers read as markup: &, < and > escaped.
    static func escapeMarkup(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }
}
