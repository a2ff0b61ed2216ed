import ArgumentParser
import FaceoffBase
import FaceoffDaemon
import FaceoffDelivery
import FaceoffKit
import FaceoffMQTT
import FaceoffStore
import Foundation

extension Faceoff {
    struct MuteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mute",
            abstract: "Silence sinks for a while, or until unmuted.",
            discussion: """
                A mute holds for every process on the store: a `run` in the background obeys it
                at its next alert, without a reload. What a muted sink misses is dropped or kept
                for one digest message when the mute ends, as its `held` says (drop for desktop
                notifications and exec, digest for the others); never sent late one by one.
                `quiet_hours` in a [[sink]] does the same every night.

                Examples:
                  faceoff mute                   every sink, until `faceoff unmute`
                  faceoff mute desktop --for 2h
                  faceoff mute hook --until 07:00
                  faceoff mute --list            what is muted, quiet or held
                """)

        @Argument(help: ArgumentHelp("The sinks to mute (their names, or types when unnamed); none: all.", valueName: "sink"))
        var sinks: [String] = []

        @Option(name: .customLong("for"), help: ArgumentHelp("For this long (2h, 45m).", valueName: "duration"))
        var duration: String?

        @Option(help: ArgumentHelp("Until this time of day, in the configured zone (07:00).", valueName: "HH:MM"))
        var until: String?

        @Flag(help: "List each sink's mute, quiet hours and held alerts.")
        var list = false

        @OptionGroup var global: GlobalOptions

        func validate() throws {
            if duration != nil, until != nil { throw ValidationError("give --for or --until, not both") }
            if list, duration != nil || until != nil || !sinks.isEmpty { throw ValidationError("--list goes alone") }
            if !list { try global.refuseJSON("mute", instead: "faceoff mute --list --json") }
            if let duration, DurationText.parse(duration).map({ $0 > .zero }) != true {
                throw ValidationError("'\(duration)' is not a duration; give one like 2h, 45m or 1h30m")
            }
            if let until, QuietHours.minutes(until) == nil {
                throw ValidationError("'\(until)' is not a time of day; give one like 07:00 or 23:30")
            }
        }

        func run() async throws {
            let session = try global.session()
            // Listing only reads, so it works where the store can't be written (read-only,
            // a full disk), as `status` does.
            if list {
                return try Self.printList(session: session, store: try session.readStore() ?? session.openStore(), json: global.json)
            }
            let store = try session.openStore(usingReserve: true)
            let now = session.now
            let zone = session.config.timeZone
            let names = try MuteReport.sinks(named: sinks, config: session.config)
            let end: Date? =
                if let duration { now.addingTimeInterval(Double(DurationText.parse(duration)!.components.seconds)) } else if let until {
                    QuietHours.next(QuietHours.minutes(until)!, after: now, in: zone)
                } else { nil }
            try await Holds(store: store).mute(names, until: end, at: now)
            let time = LocalTime(timeZone: zone)
            let when =
                end.map { " until \(time.time($0))\(time.day($0) == time.day(now) ? "" : " (\(time.day($0)))")" }
                ?? " until `faceoff unmute`"
            print("Muted \(spokenList(names))\(when).")
        }
    }

    struct UnmuteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unmute",
            abstract: "End a mute.",
            discussion: """
                A sink that kept what it missed for a digest sends it as one message, from the
                `run` or `watch` on the store (within seconds) or the next one to start.
                Quiet hours are in the config: unmute does not end them.

                Examples:
                  faceoff unmute                 every sink
                  faceoff unmute desktop
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: ArgumentHelp("The sinks to unmute; none: all.", valueName: "sink"))
        var sinks: [String] = []

        func validate() throws { try global.refuseJSON("unmute") }

        func run() async throws {
            let session = try global.session()
            let store = try session.openStore(usingReserve: true)
            let names = sinks.isEmpty ? nil : try MuteReport.sinks(named: sinks, config: session.config)
            let holds = Holds(store: store)
            let ended = try await holds.unmute(names, at: session.now)
            guard !ended.isEmpty else {
                print("Nothing was muted\(names.map { " (\(spokenList($0)))" } ?? "").")
                return
            }
            let report = MuteReport(config: session.config, store: store, at: session.now)
            let time = LocalTime(timeZone: session.config.timeZone)
            var news: [String] = []
            for sink in report.sinks where ended.contains(sink.sink) && sink.waiting > 0 && sink.held == "digest" {
                let alerts = sink.waiting == 1 ? "its held alert goes" : "its \(sink.waiting) held alerts go"
                if case .quiet(let end)? = report.holding[sink.sink] {
                    news.append("\(sink.sink): \(alerts) out as one digest at \(time.time(end)), when its quiet hours end.")
                } else {
                    news.append("\(sink.sink): \(alerts) out as one digest.")
                }
            }
            print((["Unmuted \(spokenList(ended))."] + news).joined(separator: " "))
        }
    }
}

extension Faceoff.MuteCommand {
    /// `mute --list`: each sink, muted or not, its quiet hours and what it holds.
    static func printList(session: Session, store: Store, json: Bool) throws {
        let now = session.now
        let report = MuteReport(config: session.config, store: store, at: now)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            Swift.print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        // The stdout sink no [[sink]] names is watch's terminal: said so, not a mystery.
        let configured = Set(session.config.sinks.map(\.displayName))
        func name(_ sink: String) -> String { sink == "stdout" && !configured.contains(sink) ? "stdout (watch's terminal)" : sink }
        let width = report.sinks.map { name($0.sink).count }.max() ?? 0
        for sink in report.sinks {
            var parts = [report.state(of: sink.sink) ?? "delivering"]
            if let quiet = sink.quietHours {
                // In them now: the state says until when; the span goes beside it, once.
                if sink.quiet && !sink.muted { parts[0] += " (\(quiet))" } else { parts.append("quiet hours \(quiet)") }
            }
            parts.append("held alerts: \(sink.held)")
            if sink.waiting > 0 { parts.append("\(sink.waiting) waiting for the digest") }
            Swift.print(name(sink.sink).padding(toLength: width + 2, withPad: " ", startingAt: 0) + parts.joined(separator: " · "))
        }
    }
}
