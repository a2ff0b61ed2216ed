import FaceoffBase
import FaceoffNHL
import Foundation
import TOMLKit

/// Checks the TOML values against the configuration reference and builds the `Config`,
/// collecting every problem with its line.
struct ConfigValidator {
    let file: String
    let index: KeyLineIndex
    var errors: [ConfigError] = []

    mutating func fail(_ path: [String], _ message: String) {
        errors.append(ConfigError(file: file, line: index.line(of: path), message: message))
    }

    mutating func config(from root: [(String, Node)]) -> Config {
        var config = Config()
        for (key, value) in root {
            let path = [key]
            switch key {
            case "teams":
                if let names = strings(value, path, example: #"["TOR", "MTL"]"#) {
                    config.teams = teams(names, path)
                }
            case "players":
                config.players = playerIDs(value, path)
            case "timezone":
                if let name = string(value, path, example: #""America/Toronto""#) {
                    // IANA names are short ("America/Argentina/ComodRivadavia" is among the longest).
                    if name.utf8.count > 64 {
                        fail(
                            path,
                            "'timezone' is \(name.utf8.count) characters long, not a time zone name; use an IANA name like \"America/Toronto\""
                        )
                    } else if TimeZone(identifier: name) == nil {
                        let known = TimeZone.knownTimeZoneIdentifiers
                        fail(
                            path,
                            "unknown time zone '\(name)'\(Suggest.phrase(name, in: known)); use an IANA name like \"America/Toronto\" (`timedatectl list-timezones` lists them)"
                        )
                    } else {
                        config.timezone = name
                    }
                }
            case "api_base":
                if let base = string(value, path, example: #""https://api-web.nhle.com/v1/""#) {
                    switch APIBase.normalize(base) {
                    case .success(let normalized): config.apiBase = normalized
                    case .failure(let problem): fail(path, "'api_base' \(problem.reason)")
                    }
                }
            case "espn_base":
                if let base = string(value, path, example: #""https://site.api.espn.com/""#) {
                    switch APIBase.normalizeESPN(base) {
                    case .success(let normalized): config.espnBase = normalized
                    case .failure(let problem): fail(path, "'espn_base' \(problem.reason)")
                    }
                }
            case "calendar":
                if let entries = table(value, path) { config.calendar = calendar(entries, path) }
            case "watch":
                if let entries = table(value, path) { config.watch = watch(entries, path) }
            case "serve":
                if let entries = table(value, path) { config.serve = serve(entries, path) }
            case "sink":
                config.sinks = sinks(value, path)
            default:
                unknown(
                    key, path, allowed: ["teams", "players", "timezone", "api_base", "espn_base", "calendar", "watch", "serve", "sink"])
            }
        }
        // Reminders chosen as a list are the calendars' alarms too, unless the calendar says.
        let calendarSaysReminders = root.contains { key, value in
            guard key == "calendar", case .table(let entries) = value else { return false }
            return entries.contains { $0.0 == "reminders" }
        }
        if config.watch.remindersListed, !calendarSaysReminders { config.calendar.reminders = config.watch.reminders }
        return config
    }

    mutating func calendar(_ entries: [(String, Node)], _ parent: [String]) -> CalendarSettings {
        var settings = CalendarSettings()
        for (key, value) in entries {
            let path = parent + [key]
            switch key {
            case "dir":
                if let dir = string(value, path, example: #""~/.local/share/faceoff/calendars""#) {
                    if dir.isEmpty { fail(path, "'dir' is empty; remove the line to use the default") } else { settings.dir = dir }
                }
            case "season":
                if case .int(let number) = value {
                    settings.season = season(String(number), path) ?? settings.season
                } else if let text = string(value, path, example: #""current" or 20252026"#) {
                    settings.season = season(text, path) ?? settings.season
                }
            case "game_types":
                if let names = strings(value, path, example: #"["regular", "playoffs"]"#) {
                    var types: [GameTypeName] = []
                    for name in names {
                        if let type = GameTypeName(rawValue: name) {
                            types.append(type)
                        } else {
                            fail(
                                path,
                                "unknown game type '\(name)'\(Suggest.phrase(name, in: GameTypeName.allCases.map(\.rawValue))); use preseason, regular or playoffs"
                            )
                        }
                    }
                    settings.gameTypes = types
                }
            case "reminders":
                if let texts = strings(value, path, example: #"["1h", "15m"]"#) {
                    settings.reminders = leads(texts, path, name: "reminders", minimum: .zero)
                }
            case "duration":
                if let value = duration(value, path, minimum: CalendarSettings.minimumDuration) { settings.duration = value }
            case "refresh":
                if let value = duration(value, path, minimum: .seconds(15 * 60)) { settings.refresh = value }
            case "scores":
                if let flag = bool(value, path) { settings.scores = flag }
            case "home_only":
                if let flag = bool(value, path) { settings.homeOnly = flag }
            case "away_only":
                if let flag = bool(value, path) { settings.awayOnly = flag }
            case "future_only":
                if let flag = bool(value, path) { settings.futureOnly = flag }
            case "allow_empty":
                if let flag = bool(value, path) { settings.allowEmpty = flag }
            default:
                unknown(
                    key, path,
                    allowed: [
                        "dir", "season", "game_types", "reminders", "duration", "refresh", "scores", "home_only", "away_only",
                        "future_only", "allow_empty",
                    ])
            }
        }
        if settings.homeOnly && settings.awayOnly {
            fail(parent + ["away_only"], "'home_only' and 'away_only' can't both be true")
        }
        return settings
    }

    mutating func watch(_ entries: [(String, Node)], _ parent: [String]) -> WatchSettings {
        var settings = WatchSettings()
        for (key, value) in entries {
            let path = parent + [key]
            switch key {
            case "poll":
                if let poll = duration(value, path, minimum: WatchSettings.minimumPoll) { settings.poll = poll }
            case "pregame":
                if case .array = value {
                    if let texts = strings(value, path, example: #"["1h", "10m"]"#) {
                        let leads = Set(leads(texts, path, name: "pregame")).sorted(by: >)
                        if texts.isEmpty {
                            fail(path, "'pregame' lists no reminder; give one or more, like [\"1h\", \"10m\"], or one value like \"30m\"")
                        } else if !leads.isEmpty {
                            settings.reminders = leads
                            settings.pregame = leads[0]
                            settings.remindersListed = true
                        }
                    }
                } else if let pregame = duration(value, path) {
                    settings.pregame = pregame
                    settings.reminders = [pregame]
                }
            case "delay":
                if let delay = duration(value, path) { settings.delay = delay }
            case "final_hold":
                if let hold = duration(value, path) { settings.finalHold = hold }
            default:
                unknown(key, path, allowed: ["poll", "pregame", "delay", "final_hold"])
            }
        }
        return settings
    }

    mutating func serve(_ entries: [(String, Node)], _ parent: [String]) -> ServeSettings {
        var settings = ServeSettings()
        for (key, value) in entries {
            let path = parent + [key]
            switch key {
            case "enabled":
                if let flag = bool(value, path) { settings.enabled = flag }
            case "listen":
                if let listen = string(value, path, example: #""127.0.0.1:8765""#) {
                    if ListenAddress(listen) == nil {
                        fail(path, "'listen' must be host:port, like \"127.0.0.1:8765\" or \"[::1]:8765\"")
                    } else {
                        settings.listen = listen
                    }
                }
            case "token":
                if let token = string(value, path, example: #""a-long-random-string""#) { settings.token = token }
            case "public_url":
                if let url = string(value, path, example: #""https://hockey.example.org/""#) {
                    if !url.isEmpty, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
                        fail(path, "'public_url' must start with http:// or https://")
                    } else {
                        settings.publicURL = url
                    }
                }
            default:
                unknown(key, path, allowed: ["enabled", "listen", "token", "public_url"])
            }
        }
        return settings
    }

    // MARK: Values

    mutating func unknown(_ key: String, _ path: [String], allowed: [String]) {
        fail(path, "unknown key '\(key)'\(Suggest.phrase(key, in: allowed))")
    }

    mutating func string(_ value: Node, _ path: [String], example: String) -> String? {
        if case .string(let text) = value { return text }
        fail(path, "'\(path.last ?? "")' must be a string like \(example), not \(value.typeName)")
        return nil
    }

    mutating func bool(_ value: Node, _ path: [String]) -> Bool? {
        if case .bool(let flag) = value { return flag }
        fail(path, "'\(path.last ?? "")' must be true or false, not \(value.typeName)")
        return nil
    }

    mutating func table(_ value: Node, _ path: [String]) -> [(String, Node)]? {
        if case .table(let entries) = value { return entries }
        fail(path, "'\(path.last ?? "")' must be a table ([\(path.joined(separator: "."))] or { key = value })")
        return nil
    }

    mutating func strings(_ value: Node, _ path: [String], example: String) -> [String]? {
        if case .string(let single) = value {
            fail(path, "'\(path.last ?? "")' must be a list like \(example); put the value in brackets: [\"\(single)\"]")
            return nil
        }
        guard case .array(let items) = value else {
            fail(path, "'\(path.last ?? "")' must be a list like \(example), not \(value.typeName)")
            return nil
        }
        var result: [String] = []
        for item in items {
            guard case .string(let text) = item else {
                fail(path, "'\(path.last ?? "")' must list strings like \(example), not \(item.typeName)")
                return nil
            }
            result.append(text)
        }
        return result
    }

    mutating func teams(_ names: [String], _ path: [String]) -> [String] {
        var result: [String] = []
        for name in names {
            do {
                let team = try TeamInput.followed(name).written
                if !result.contains(team) { result.append(team) }
            } catch {
                fail(path, error.description)
            }
        }
        return result
    }

    mutating func playerIDs(_ value: Node, _ path: [String]) -> [Int] {
        guard case .array(let items) = value else {
            fail(path, "'\(path.last ?? "")' must be a list of NHL player ids like [8479318], not \(value.typeName)")
            return []
        }
        var ids: [Int] = []
        for item in items {
            switch item {
            case .int(let id) where id > 0:
                if !ids.contains(id) { ids.append(id) }
            case .string(let text):
                fail(path, "player ids are numbers, not names: '\(text)'; `faceoff follow --player \"\(text)\"` looks the id up")
            default:
                fail(path, "'\(path.last ?? "")' must list NHL player ids like 8479318")
            }
        }
        return ids
    }

    mutating func season(_ text: String, _ path: [String]) -> String? {
        if text == "current" { return text }
        if let season = Season(text) { return season.id }
        fail(path, "'season' must be \"current\" or a season like 20252026 (two consecutive years)")
        return nil
    }

    mutating func duration(_ value: Node, _ path: [String], minimum: Duration = .zero) -> Duration? {
        guard case .string(let text) = value else {
            fail(path, "'\(path.last ?? "")' must be a duration like \"5s\", \"30m\" or \"6h\", not \(value.typeName)")
            return nil
        }
        return durationText(text, path, name: path.last ?? "", minimum: minimum)
    }

    /// Reminders' leads: at most `WatchSettings.maximumReminders`, each at least `minimum`
    /// before (a pregame alert at the start is none; a calendar alarm at the start is one).
    mutating func leads(_ texts: [String], _ path: [String], name: String, minimum: Duration = .seconds(60)) -> [Duration] {
        guard texts.count <= WatchSettings.maximumReminders else {
            fail(path, "'\(name)' lists \(texts.count) reminders; give at most \(WatchSettings.maximumReminders), like [\"1h\", \"10m\"]")
            return []
        }
        return texts.compactMap { durationText($0, path, name: name, minimum: minimum) }
    }

    mutating func durationText(_ text: String, _ path: [String], name: String, minimum: Duration = .zero) -> Duration? {
        guard let duration = DurationText.parse(text) else {
            fail(path, "'\(name)' must be a duration like \"5s\", \"30m\" or \"6h\", not \"\(text)\"")
            return nil
        }
        if duration < minimum {
            fail(path, "'\(name)' must be at least \(DurationText.format(minimum)), not \"\(text)\"")
            return nil
        }
        return duration
    }
}
