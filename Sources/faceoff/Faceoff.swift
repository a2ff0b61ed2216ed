import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffServer
import Foundation
import Logging

struct Faceoff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "faceoff",
        abstract: "Follow NHL and NBA teams on Linux: calendars, live alerts, numbers.",
        discussion: """
            Examples:
              faceoff demo                    see it work, no network needed
              faceoff follow TOR MTL          follow two teams (edits config.toml)
              faceoff follow nba:LAL          an NBA team: nba: before its abbreviation
              faceoff next                    the next game of the first followed team
              faceoff watch                   live scoreboard and alerts, followed teams
              faceoff calendar                .ics feeds of the followed teams' seasons
              faceoff schedule MTL --from 2025-11-01
              faceoff standings --by wildcard
              faceoff scores --league nba     tonight's NBA games
              faceoff playoffs MTL --season 20242025
              faceoff player "Cole Caufield"
              faceoff follow --player "Cole Caufield"
              faceoff test-alert              a sample alert through every sink
              faceoff run                     the unattended service (calendars + alerts)
              faceoff status --tmux           the live or next game, for a status line
              faceoff doctor                  check the setup
              faceoff config show             the settings in effect, secrets hidden
              faceoff api standings/now       a raw API response, through the cache
              faceoff --offline api club-schedule-season/TOR/now

            Global options, before or after the subcommand: --config <path>, --api-base
            <url> (the NHL's), --espn-base <url> (ESPN's, for the NBA), --offline, --json,
            --no-color, -v/--verbose. Exit status: 0 success, 1 runtime failure (network,
            store), 2 usage or config error.
            """,
        version: FaceoffInfo.versionLine,
        subcommands: [
            TeamsCommand.self, ScheduleCommand.self, NextCommand.self, RecentCommand.self, StandingsCommand.self, ScoresCommand.self,
            GameCommand.self, PlayoffsCommand.self,
            RosterCommand.self, PlayerCommand.self, CalendarCommand.self, ServeCommand.self, WatchCommand.self, ReplayCommand.self,
            DemoCommand.self, RunCommand.self, StatusCommand.self, DelayCommand.self, MuteCommand.self, UnmuteCommand.self,
            DoctorCommand.self, TestAlertCommand.self,
            FollowCommand.self, UnfollowCommand.self, ConfigCommand.self, APICommand.self,
        ]
    )

    /// Parses, runs, reports errors on stderr, and returns the exit status.
    static func runMain(_ arguments: [String]) async -> Int32 {
        // `faceoff shedule`: ArgumentParser would call it an unexpected argument.
        if let first = arguments.first, !first.hasPrefix("-"), first != "help", !Faceoff.topLevelNames.contains(first) {
            let hint = Suggest.phrase(first, in: Faceoff.topLevelNames)
            printError("faceoff: '\(first)' is not a command\(hint); `faceoff --help` lists them")
            return 2
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    static func report(_ error: any Error) -> Int32 {
        if let error = error as? any ReportedError {
            printError(error.report)
            return error.exitStatus
        }
        // ArgumentParser's own: help, --version, a bad option.
        let code = exitCode(for: error)
        var message = fullMessage(for: error)
        // One prefix for every error: ArgumentParser's "Error: " becomes Faceoff's own.
        if message.hasPrefix("Error: ") { message = "faceoff: " + message.dropFirst("Error: ".count) }
        if code == .success {
            if !message.isEmpty { print(Faceoff.wrappingUsage(message)) }
            return 0
        }
        if !message.isEmpty { printError(message) }
        // ArgumentParser's usage errors exit 64 (EX_USAGE); Faceoff documents 2.
        return code.rawValue == 64 ? 2 : (code.rawValue == 0 ? 1 : code.rawValue)
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

extension Faceoff {
    /// Help as it reads at 80 columns: ArgumentParser wraps everything but the USAGE line,
    /// which with the global options runs past 160 characters.
    static func wrappingUsage(_ help: String, width: Int = 80) -> String {
        help.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.hasPrefix("USAGE: "), line.count > width else { return String(line) }
            // Whole groups only: "[--config <path>]" is never cut.
            let groups = line.dropFirst("USAGE: ".count).matches(of: /\[[^\]]*\](?: \.\.\.)?|\S+/).map { String($0.output) }
            var lines: [String] = []
            var current = "USAGE:"
            for group in groups {
                if current.count + 1 + group.count > width, current.count > "USAGE:".count {
                    lines.append(current)
                    current = "      "
                }
                current += " " + group
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
