import ArgumentParser
import FaceoffBase
import FaceoffFan
import FaceoffKit
import FaceoffNHL

extension StandingsReport.Grouping: ExpressibleByArgument {}
extension League: ExpressibleByArgument {
    /// `nba`, `NBA`: any league the registry has.
    public init?(argument: String) { self.init(rawValue: argument) }
    public static var allValueStrings: [String] { Leagues.all.map(\.league.rawValue) }
    public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

    /// A command's answer for a league that has none of `what` yet.
    func lacks(_ what: String) -> UsageError { UsageError(message: "Faceoff has no \(what) for the \(name) yet") }
}

extension Faceoff {
    struct StandingsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "standings", abstract: "The standings, sorted the way the league sorts them.")

        @Option(help: "nhl or nba.")
        var league: League = .nhl

        @Option(
            help: "league, conference, division or wildcard (the NBA: conference or division). Default: division, the NBA's conference.")
        var by: StandingsReport.Grouping?

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let context = try global.fanContext()
            switch league {
            case .nhl:
                context.emit(try await context.service.standings(by: by ?? .division), render: context.text.standings)
            case .nba:
                let grouping: NBAStandingsReport.Grouping
                switch by {
                case nil, .conference: grouping = .conference
                case .division: grouping = .division
                case .league, .wildcard:
                    throw ValidationError("the NBA's standings are by conference or division, not --by \(by!.rawValue)")
                }
                context.emit(
                    try await context.service.nbaStandings(by: grouping, followed: context.session.config.nbaTeams),
                    render: context.text.nbaStandings)
            default: throw league.lacks("standings")
            }
        }
    }
}
