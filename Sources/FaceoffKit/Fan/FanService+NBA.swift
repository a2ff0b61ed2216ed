import FaceoffAPI
import FaceoffESPN
import Foundation

/// The NBA's fan commands, from ESPN's site API through the same cache.
extension FanService {
    public func nbaTeams() async -> Output<TeamsReport> {
        if let fetched = try? await espn.fetch(.nbaTeams) {
            return Output(report: TeamsReport(nba: fetched.value), notes: notes([fetched]))
        }
        return Output(report: TeamsReport(nba: nil), notes: ["ESPN's team list could not be fetched; showing the built-in team list"])
    }

    public func nbaStandings(by grouping: NBAStandingsReport.Grouping) async throws -> Output<NBAStandingsReport> {
        let fetched = try await espn.fetch(.nbaStandings)
        return Output(report: NBAStandingsReport(standings: fetched.value, by: grouping), notes: notes([fetched]))
    }

    public func nbaRoster(team: NBATeam) async throws -> Output<RosterReport> {
        let fetched = try await espn.fetch(.nbaRoster(team))
        return Output(report: RosterReport(nba: fetched.value, team: team), notes: notes([fetched]))
    }
}
