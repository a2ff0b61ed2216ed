import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffDelivery
import FaceoffKit
import FaceoffMQTT
import Foundation

extension Faceoff {
    struct DelayCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delay",
            abstract: "Show or change how long alerts wait, to match the stream you watch.",
            discussion: """
                Every alert waits its sink's delay after Faceoff first saw the event, so it
                does not spoil a stream that runs behind. A change holds for every process on
                the store (a running `run` or `watch` takes it within a second, and re-times
                the alerts it holds) until `reset`, or until the config's delay for that sink
                changes. `sync`: run it the moment your stream shows the latest goal; the delay
                becomes the time since Faceoff first saw that goal (one seen in the last 3
                minutes). In `watch`'s scoreboard the keys + - (5 s), ] [ (1 s) and s (sync)
                do the same for its sinks.

                Examples:
                  faceoff delay                  the delay in effect at each sink
                  faceoff delay 45s
                  faceoff delay +5s
                  faceoff delay -10s --sink discord
                  faceoff delay sync
                  faceoff delay reset
                """)

        @Option(help: ArgumentHelp("Only this sink (its name, or its type when unnamed).", valueName: "name"))
        var sink: String?

        @Option(help: ArgumentHelp("With sync: the game whose stream you watch, when several had goals lately.", valueName: "id"))
        var game: Int?

        @Argument(
            parsing: .allUnrecognized, help: ArgumentHelp("45s (set), +5s or -10s (move), sync, or reset.", valueName: "change"),
            completion: .list(["sync", "reset", "+5s", "-5s", "+1s", "-1s", "30s", "1m"]))
        var change: [String] = []

        /// The change asked for (`--` before it is fine: `faceoff delay -- -5s`).

        @OptionGroup var global: GlobalOptions
        var asked: [String] { change.filter { $0 != "--" } }

        func validate() throws {
            guard asked.count <= 1 else { throw ValidationError("give one change: 45s, +5s, -10s, sync or reset") }
            if game != nil, asked.first != "sync" { throw ValidationError("--game goes with sync only") }
            if let text = asked.first, DelayChange(text) == nil {
                throw ValidationError("'\(text)' is not a delay change; give 45s, 1m30s, +5s, -10s, sync or reset")
            }
        }

        func run() async throws {
            let session = try global.session()
            let store = try session.openStore()
            let book = DelayBook(config: session.config, store: store)
            // A change made against a delay the config no longer has is gone for good.
            await book.forgetStale()
            let names = book.configured.map(\.name)
            var sinks: [String]?
            if let sink {
                guard names.contains(sink) else {
                    throw UsageError(
                        message:
                            "no sink named '\(sink)'\(Suggest.phrase(sink, in: names)); the sinks are: \(names.joined(separator: ", "))")
                }
                sinks = [sink]
            }
            let now = session.now
            var note: String?
            switch asked.first.flatMap(DelayChange.init) {
            case nil: break
            case .set(let delay)?:
                try await book.set(Dictionary(uniqueKeysWithValues: (sinks ?? names).map { ($0, delay) }), at: now)
                if delay > DelayBook.maximum { note = "Capped at \(DurationText.format(DelayBook.maximum)), the longest delay there is." }
            case .move(let step)?: try await book.adjust(by: step, sinks: sinks, at: now)
            case .reset?: try await book.reset(sinks: sinks)
            case .sync?:
                switch try await book.sync(sinks: sinks, games: game.map { [$0] }, now: now) {
                case .noRecentGoal:
                    throw RuntimeError(
                        message:
                            "no goal seen in the last 3 minutes\(game.map { " in game \($0)" } ?? ""), so nothing to sync to; the delays stay as they are"
                    )
                case .severalGames(let games):
                    throw UsageError(
                        message:
                            "goals in \(games.count) games in the last 3 minutes; say which stream you watch with --game (\(games.map(String.init).joined(separator: " or ")))"
                    )
                case .gameOver(_, let goal):
                    throw RuntimeError(
                        message:
                            "the latest goal, \(goal), ended its game, which is over: sync during a game; the delays stay as they are (set one with `faceoff delay 45s`)"
                    )
                case .synced(let delay, let goal):
                    note = "Synced: the latest goal, \(goal), was first seen \(DurationText.format(delay)) ago."
                }
            }
            let report = DelayReport(book)
            if global.json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
                return
            }
            if let note { print(note) }
            let time = LocalTime(timeZone: session.config.timeZone)
            let shown = report.sinks.filter { sinks?.contains($0.sink) ?? true }
            let width = shown.map(\.sink.count).max() ?? 0
            for entry in shown {
                var line =
                    entry.sink.padding(toLength: width + 2, withPad: " ", startingAt: 0) + DurationText.format(.seconds(entry.delaySeconds))
                if let at = entry.changedAt {
                    line +=
                        "  (changed \(time.day(at)) \(time.time(at)); configured \(DurationText.format(.seconds(entry.configuredSeconds))))"
                }
                print(line)
            }
        }
    }
}
