import FaceoffKit
import Foundation

/// Turns an event into what each output shows: title and body (notifications, the terminal),
/// the documented JSON, and webhook bodies from the preset templates.
public struct Renderer: Sendable {
    public let templates: TemplateSet
    /// The followed teams: their goals and finals are the important alerts.
    public let followed: Set<String>

    public init(templates: TemplateSet, followed: Set<String>) {
        self.templates = templates
        self.followed = followed
    }

    public struct Text: Sendable, Equatable {
        public var title: String
        public var body: String
        /// Title and body on one line, as the terminal and logs show an alert.
        public var line: String { body.isEmpty ? title : "\(title)  \(body)" }
    }

    public func text(_ event: GameEvent) -> Text {
        text(AlertContext.values(event, followed: followed))
    }

    private func text(_ values: [String: Any]) -> Text {
        Text(title: Self.oneLine(templates.render("alert-title", values)), body: Self.oneLine(templates.render("alert-body", values)))
    }

    public func line(_ event: GameEvent) -> String { text(event).line }

    /// The event's terminal line in its forms for a narrow pane, fullest first: the whole
    /// line, then the line the templates give with `narrow` set (no assists, no "drawn by").
    /// `DisplayWidth.fit` picks the first that fits and shortens the last.
    public func terminalForms(_ event: GameEvent) -> [String] {
        var values = AlertContext.values(event, followed: followed)
        let full = text(values).line
        values["narrow"] = true
        let narrow = text(values).line
        return narrow == full ? [full] : [full, narrow]
    }

    public func isImportant(_ event: GameEvent) -> Bool { AlertContext.isImportant(event, followed: followed) }

    /// A webhook body from a preset (or the user's copy of it), checked to be JSON: a template
    /// that makes broken JSON is an error, never a request.
    public func webhookBody(_ event: GameEvent, preset: SinkConfig.Preset, url: String? = nil) throws(RenderError) -> [UInt8] {
        // One context for the text and the body: building it is most of the cost.
        var values = AlertContext.values(event, followed: followed)
        let text = text(values)
        values["title"] = text.title
        values["body"] = text.body
        values["event_json"] = EventJSON(event, text: text).encoded()
        if let url, let topic = WebhookTarget.ntfyTopic(url) { values["ntfy_topic"] = topic }
        let name = "webhook-\(preset.rawValue)"
        let body = Array(templates.render(name, values).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        do {
            _ = try JSONSerialization.jsonObject(with: Data(body))
        } catch {
            throw RenderError(
                template: name, message: "it did not make valid JSON for a \(event.kind.rawValue) event (\(Self.reason(error)))")
        }
        return body
    }

    /// Collapses what a template rendered to one line: its lines joined, runs of spaces closed.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(
            separator: " ")
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
    }

    /// Renders every alert and webhook template for a sample of each kind, so a user's
    /// template that breaks JSON is found by `faceoff config validate`, not at the first goal.
    public func check() -> [RenderError] {
        var problems: [RenderError] = []
        for kind in GameEvent.Kind.allCases {
            let event = SampleEvent.make(kind, team: followed.sorted().first ?? "TOR")
            for preset in SinkConfig.Preset.allCases {
                do { _ = try webhookBody(event, preset: preset, url: "https://ntfy.invalid/topic") } catch { problems.append(error) }
            }
        }
        var seen: Set<String> = []
        return problems.filter { seen.insert($0.template).inserted }
    }
}

public struct RenderError: Error, Sendable, CustomStringConvertible {
    public let template: String
    public let message: String
    public var description: String { "\(template).mustache: \(message)" }
}

/// Where a webhook request goes: ntfy takes JSON at its root, with the topic in the body.
enum WebhookTarget {
    static func ntfyTopic(_ url: String) -> String? {
        guard let components = URLComponents(string: url) else { return nil }
        let topic = components.path.split(separator: "/").last.map(String.init)
        return topic?.isEmpty == false ? topic : nil
    }

    static func postURL(_ url: String, preset: SinkConfig.Preset) -> String {
        guard preset == .ntfy, var components = URLComponents(string: url), ntfyTopic(url) != nil else { return url }
        var parts = components.path.split(separator: "/")
        parts.removeLast()
        components.path = "/" + parts.joined(separator: "/")
        return components.string ?? url
    }
}

/// The documented JSON form of an event (one object per line on a jsonl stdout, the
/// `generic` webhook body): docs/json/event.schema.json.
public struct EventJSON: Encodable, Sendable {
    public let kind: String
    public let id: String
    public let game: Int
    public let away: String
    public let home: String
    public let team: String?
    /// "nba" for the NBA's games; absent for the NHL's.
    public let league: String?
    public let period: Int?
    public let periodLabel: String?
    public let periodType: String?
    public let clock: String?
    public let score: GameEvent.Score
    public let shots: GameEvent.Score?
    public let strength: String?
    public let emptyNet: Bool?
    public let penaltyShot: Bool?
    public let players: [GameEvent.Player]
    public let details: [String: String]
    public let series: GameEvent.Series?
    /// When Faceoff first saw it (ISO 8601, UTC).
    public let seenAt: String?
    /// The team's colours and logo (`team`'s), for lights and embeds.
    public let teamColors: TeamLook?
    public let title: String
    public let text: String

    public init(_ event: GameEvent, text: Renderer.Text) {
        kind = event.kind.rawValue
        id = event.id
        game = event.gameId
        away = event.away
        home = event.home
        team = event.team
        league = event.league?.rawValue
        period = event.period
        periodLabel = event.periodLabel
        periodType = event.periodType
        clock = event.clock
        score = event.score
        shots = event.shots
        strength = event.strength
        emptyNet = event.emptyNet
        penaltyShot = event.penaltyShot
        players = event.players
        details = event.details
        series = event.series
        seenAt = event.seenAt.map { $0.formatted(.iso8601) }
        // Where the league's facts have colours (the NHL's; an NBA team's come from ESPN's
        // answers, not a table).
        teamColors = event.team.flatMap { event.leagueDefinition.team($0)?.look }
        title = text.title
        self.text = text.body
    }

    public func encoded() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? "{}"
    }
}
