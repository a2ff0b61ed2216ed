import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffESPN
import FaceoffFan
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation

/// What every fan command sets up: the session, the cached API client, and how to print.
struct FanContext {
    let session: Session
    let service: FanService
    let text: FanText
    let json: Bool

    init(_ global: GlobalOptions) throws {
        session = try global.session()
        let store = try openCacheStore(session)
        let time = LocalTime(timeZone: session.config.timeZone)
        service = FanService(
            client: session.nhlClient(store: store), espn: session.espnClient(store: store), time: time, now: session.now,
            followed: session.config.nhlTeams)
        text = FanText(style: session.terminalStyle, width: terminalWidth(), time: time)
        json = global.json
    }

    /// The NBA team named on the command line (`nba:LAL`, `Lakers`), or nil for anything else
    /// (an NHL team, or none: then `team(_:command:)` answers).
    func nbaTeam(_ argument: String?) throws -> NBATeam? {
        guard let argument, case .nba(let team) = try TeamInput.resolve(argument) else { return nil }
        return team
    }

    /// The team named on the command line, else the first followed team.
    func team(_ argument: String?, command: String) throws -> String {
        if let argument { return try TeamInput.nhl(argument) }
        guard let first = session.config.nhlTeams.first else {
            throw UsageError(message: "name a team (faceoff \(command) TOR) or follow one (faceoff follow TOR)")
        }
        return first
    }

    func emit<Report: Encodable & Sendable>(_ output: FanService.Output<Report>, render: (Report) -> String) {
        for note in output.notes { printError("note: \(note)") }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: (try? encoder.encode(output.report)) ?? Data("{}".utf8), as: UTF8.self))
        } else {
            print(render(output.report))
        }
    }
}

/// A calendar day argument, YYYY-MM-DD, that exists.
func checkDay(_ value: String?, _ name: String) throws {
    guard let value, CalendarDay(iso: value) == nil else { return }
    throw ValidationError("\(name) must be a real date like 2025-10-25, not '\(value)'")
}

/// The store for the response cache. Without it a command still works online (slower), so a
/// broken store is a warning, except offline, where the cache is all there is.
func openCacheStore(_ session: Session) throws -> Store? {
    do {
        return try session.openStore()
    } catch {
        if session.mode == .offline { throw error }
        let said = "\(error)"
        printError("warning: \(said)\(said.hasSuffix(".") ? " Continuing" : "; continuing") without the cache.")
        return nil
    }
}
