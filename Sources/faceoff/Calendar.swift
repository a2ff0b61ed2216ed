import ArgumentParser
import FaceoffBase
import FaceoffCalendar
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import Foundation

extension GameTypeName: ExpressibleByArgument {}

extension Faceoff {
    /// The `[calendar]` options as flags; each replaces its config key for this run.
    struct CalendarFlags: ParsableArguments {
        @Option(help: ArgumentHelp("A season such as 20252026 (default: [calendar] season, or the current one).", valueName: "season"))
        var season: String?

        @Option(help: ArgumentHelp("Game types, comma-separated: preseason, regular, playoffs.", valueName: "types"))
        var types: String?

        @Flag(help: "Only home games.")
        var homeOnly = false

        @Flag(help: "Only away games.")
        var awayOnly = false

        @Flag(help: "Leave out games that are over.")
        var futureOnly = false

        @Option(help: ArgumentHelp("An alarm this long before each game, e.g. 1h (repeatable).", valueName: "duration"))
        var reminder: [String] = []

        @Option(help: ArgumentHelp("How long each event lasts (default 3h).", valueName: "duration"))
        var duration: String?

        @Flag(help: "Spoiler-free: no scores or records written into the feeds.")
        var noScores = false

        func validate() throws {
            if homeOnly && awayOnly { throw ValidationError("--home-only and --away-only can't be used together") }
            if let season, Season(season) == nil { throw ValidationError("--season must look like 20252026") }
            _ = try gameTypes()
            for text in reminder + [duration].compactMap({ $0 }) where DurationText.parse(text) == nil {
                throw ValidationError("'\(text)' is not a duration like 1h, 15m or 3h")
            }
            if let duration, let value = DurationText.parse(duration), value < CalendarSettings.minimumDuration {
                throw ValidationError(
                    "--duration must be at least \(DurationText.format(CalendarSettings.minimumDuration)), not \(duration)")
            }
        }

        func gameTypes() throws -> [GameTypeName]? {
            guard let types else { return nil }
            return try types.split(separator: ",").map { name in
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let type = GameTypeName(rawValue: trimmed) else {
                    throw ValidationError("unknown game type '\(trimmed)'; use preseason, regular or playoffs")
                }
                return type
            }
        }

        /// The config's `[calendar]` settings with these flags applied.
        func options(_ settings: CalendarSettings) throws -> CalendarSettings {
            var options = settings
            if let season { options.season = season }
            if let types = try gameTypes() { options.gameTypes = types }
            if homeOnly {
                options.homeOnly = true
                options.awayOnly = false
            }
            if awayOnly {
                options.awayOnly = true
                options.homeOnly = false
            }
            if futureOnly { options.futureOnly = true }
            if !reminder.isEmpty { options.reminders = reminder.compactMap(DurationText.parse) }
            if let duration { options.duration = DurationText.parse(duration) ?? options.duration }
            if noScores { options.scores = false }
            return options
        }
    }
}

extension Faceoff {
    struct CalendarCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "calendar",
            abstract: "Write iCalendar (.ics) feeds of your teams' seasons.",
            discussion: """
                With no team, writes one feed per followed team and favourites.ics (every game
                of the followed teams, once) to the calendar directory. Subscribe to the
                files, or serve them with `faceoff serve`.

                Examples:
                  faceoff calendar
                  faceoff calendar MTL --home-only --reminder 1h
                  faceoff calendar TOR -o -            # to stdout
                  faceoff calendar --all --no-scores   # the whole league, spoiler-free
                """)

        @OptionGroup var flags: CalendarFlags

        @Argument(help: "Teams (default: the followed teams and favourites.ics).")
        var teams: [String] = []

        @Flag(help: "A league-wide feed (all.ics).")
        var all = false

        @Option(name: .shortAndLong, help: ArgumentHelp("Write one feed to this file, or - for stdout.", valueName: "path"))
        var output: String?

        @Option(help: ArgumentHelp("The calendar directory (default: [calendar] dir).", valueName: "dir"))
        var dir: String?

        @Flag(help: "Write a feed even if it would drop from some games to none.")
        var allowEmpty = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try global.refuseJSON("calendar")
        }

        func run() async throws {
            let session = try global.session()
            var kinds: [FeedKind] = try teams.map { team throws(UnknownTeamError) in .team(try TeamInput.followed(team).written) }
            if all { kinds.append(.all) }
            if kinds.isEmpty {
                guard !session.config.teams.isEmpty else {
                    throw UsageError(message: "name a team (faceoff calendar TOR), use --all, or follow one (faceoff follow TOR)")
                }
                kinds = FeedPlan(teams: session.config.teams).written
                if output != nil, session.config.teams.count == 1 { kinds = [.team(session.config.teams[0])] }
            }
            if output != nil, kinds.count != 1 {
                throw UsageError(message: "-o writes one feed: name one team, or use --all alone")
            }

            // Feeds need their state (SEQUENCE, LAST-MODIFIED, cancelled games): no store, no feeds.
            let store = try session.openStore()
            let templates = try session.templates()
            let service = CalendarService(
                clients: [session.nhlClient(store: store), session.espnClient(store: store)], state: CalendarState(store: store),
                templates: templates, options: try flags.options(session.config.calendar), now: { [now = session.now] in now })
            let directory = dir.map(session.paths.expand) ?? session.calendarDirectory
            let allowEmpty = allowEmpty || session.config.calendar.allowEmpty
            let publisher = CalendarPublisher(service: service, directory: directory, allowEmpty: allowEmpty)

            if let output {
                let kind = kinds[0]
                let (text, feed, notes, warnings) = try await publisher.render(kind)
                for note in notes { printError("note: \(note)") }
                for warning in warnings { printError("warning: \(warning)") }
                if output == "-" {
                    FileHandle.standardOutput.write(Data(text.utf8))
                    return
                }
                let path = session.paths.expand(output)
                switch try FeedWriter.write(text, to: path, allowEmpty: allowEmpty) {
                case .refusedEmpty(let previous):
                    throw RuntimeError(
                        message: "\(path) not written: it would go from \(previous) games to none (--allow-empty writes it anyway)")
                case .written, .unchanged:
                    print("\(path): \(counted(feed.events.count, "game"))")
                }
                return
            }

            var failed = false
            // A note names its team; feeds that share a team share its note: say it once.
            var noted: Set<String> = []
            for report in await publisher.publish(kinds) {
                for note in report.notes where noted.insert(note).inserted { printError("note: \(note)") }
                for warning in report.warnings where noted.insert(warning).inserted { printError("warning: \(warning)") }
                // Written, but not all of it is new: say so in the exit status too.
                if !report.warnings.isEmpty { failed = true }
                let shown = ConfigLoader.displayPath(report.path, paths: session.paths)
                if let error = report.error {
                    failed = true
                    // Said here alone, where it is known whether there is a last good feed.
                    let kept = FileManager.default.fileExists(atPath: report.path) ? "; the last good feed stays" : ""
                    printError("faceoff: \(report.feed).ics not updated: \(error)\(kept)")
                    continue
                }
                switch report.outcome {
                case .refusedEmpty(let previous):
                    failed = true
                    printError("faceoff: \(shown) not written: it would go from \(previous) games to none (--allow-empty writes it anyway)")
                case .unchanged:
                    print("\(shown): \(counted(report.events, "game")), unchanged")
                default:
                    print("\(shown): \(counted(report.events, "game")), \(report.changed) new or changed")
                }
            }
            if failed { throw ExitCode(1) }
        }
    }
}
