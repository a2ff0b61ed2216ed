import ArgumentParser
import FaceoffKit
import Foundation

extension Faceoff {
    struct StatusCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "One line for a status bar: the live game, else the next one. No network.",
            discussion: """
                Reads the store only (what `faceoff run` or `faceoff watch` last saw, and the
                cached schedules), so it is fast enough for a tmux status line refreshed every
                few seconds:

                  set -g status-right '#(faceoff status --tmux)'

                Examples:
                  faceoff status                 # TOR 2–1 MTL · 2nd 12:34 · TOR PP
                  faceoff status --tmux
                  faceoff status --json
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "tmux colour codes, team colours.")
        var tmux = false

        func validate() throws {
            if tmux, global.json { throw ValidationError("--tmux and --json don't go together") }
        }

        func run() async throws {
            let session = try global.session()
            let store = try session.openStore()
            let report = StatusLine(store: store, config: session.config, now: session.now).report(style: tmux ? .tmux : .plain)
            if global.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
        }
    }
}
