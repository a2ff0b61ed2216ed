import FaceoffAPI
import FaceoffBase
import FaceoffESPN
import FaceoffKit
import FaceoffStore
import Foundation

/// What every fan command sets up: the session, the cached API client, and how to print.
public struct FanContext: Sendable {
    public let session: Session
    public let service: FanService
    public let text: FanText
    /// `--json`: the reports as JSON rather than tables.
    public let json: Bool

    /// - Parameters:
    ///   - store: the response cache; nil runs online without one.
    ///   - width: the terminal's columns, when stdout is one.
    public init(session: Session, store: Store?, json: Bool, width: Int?) {
        self.session = session
        let time = LocalTime(timeZone: session.config.timeZone)
        service = FanService(
            client: session.nhlClient(store: store), espn: session.espnClient(store: store), time: time, now: session.now,
            followed: session.config.nhlTeams)
        text = FanText(style: session.terminalStyle, width: width, time: time)
        self.json = json
    }

    /// The NBA team named on the command line (`nba:LAL`, `Lakers`), or nil for anything else
    /// (an NHL team, or none: then `team(_:command:)` answers).
    public func nbaTeam(_ argument: String?) throws -> NBATeam? {
        guard let argument, case .nba(let team) = try TeamInput.resolve(argument) else { return nil }
        return team
    }

    /// The team named on the command line, else the first followed team.
    public func team(_ argument: String?, command: String) throws -> String {
        if let argument { return try TeamInput.nhl(argument) }
        guard let first = session.config.nhlTeams.first else {
            throw UsageError(message: "name a team (faceoff \(command) TOR) or follow one (faceoff follow TOR)")
        }
        return first
    }
}
