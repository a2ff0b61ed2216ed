import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffKit
import FaceoffMQTT
import FaceoffStore
import Foundation

extension Faceoff {
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "One line for a status bar: the live or next game. No network.",
            discussion: """
                Reads the store only (what `faceoff run` or `faceoff watch` last saw, and the
                cached schedules), so it is fast enough for a tmux status line refreshed every
                few seconds:

                  set -g status-right '#(faceoff status --tmux)'

                Examples:
                  faceoff status                 # TOR 2–1 MTL · 2nd 12:34 left · TOR PP
                  faceoff status --tmux
                  faceoff status --json
                """)

        @Flag(help: "tmux colour codes, team colours.")
        var tmux = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if tmux, global.json { throw ValidationError("--tmux and --json don't go together") }
        }

        func run() async throws {
            try Self.show(session: try Self.loaded { try global.session() }, tmux: tmux, json: global.json)
        }

        /// What a status bar shows when the line can't be known (the error goes to stderr,
        /// and the exit status says it): never a blank bar, never a confident wrong line.
        static func placeholder(_ what: String) { print("faceoff: \(what)") }

        /// The session, or the placeholder for a config that can't be read.
        static func loaded(_ session: () throws -> Session) throws -> Session {
            do { return try session() } catch {
                placeholder("config error")
                throw error
            }
        }

        static func show(session: Session, tmux: Bool, json: Bool) throws {
            // Read-only and never migrating: a status line must not wait on `run` or upgrade
            // a store under it. No store yet is nothing known; one that can't be read is said.
            let store: Store?
            do {
                store = try session.readStore()
                try store?.checkReadable()
            } catch {
                placeholder("store unreadable")
                throw error
            }
            let report = StatusLine(store: store, config: session.config, now: session.now).report(style: tmux ? .tmux : .plain)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        }

        /// A status line runs this every few seconds, so the plain forms (`status`, `status
        /// --tmux`, `status --json`, with or without `--no-color`) skip ArgumentParser, whose
        /// reflection over the command tree is a third of the process's own time. Anything
        /// else (other options, --help, a mistake) returns nil and goes the usual way.
        static func runFast(_ arguments: [String]) -> Int32? {
            guard arguments.first == "status" else { return nil }
            let flags = arguments.dropFirst()
            guard Set(flags).count == flags.count, flags.allSatisfy(["--tmux", "--json", "--no-color"].contains),
                !(flags.contains("--tmux") && flags.contains("--json"))
            else { return nil }
            do {
                GlobalOptions.bootstrapLogging(verbose: false)
                try show(
                    session: try loaded { try Session(Session.Options()) }, tmux: flags.contains("--tmux"), json: flags.contains("--json"))
                return 0
            } catch {
                return Faceoff.report(error)
            }
        }
    }
}
