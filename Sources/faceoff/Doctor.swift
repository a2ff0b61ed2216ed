import ArgumentParser
import FaceoffAPI
import FaceoffBase
import FaceoffDaemon
import FaceoffESPN
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation

extension Faceoff {
    struct DoctorCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract: "Check the setup and say how to fix it. Exit 1 if anything is wrong.",
            discussion: """
                Checks the config and templates, the time zone data, the store and the
                calendar directory, the NHL API (and its latency; ESPN's too when an NBA
                team is followed), notify-send and a
                notification daemon, each webhook (reachable; a signed test alert only with
                --send), each exec sink's program, each MQTT broker (connects and logs in; a
                sample on the test topic only with --send) and the systemd user unit.
                """)

        @OptionGroup var global: GlobalOptions

        @Flag(help: "Send a test alert through each webhook, exec and MQTT sink.")
        var send = false

        func validate() throws {
            try global.refuseJSON("doctor")
        }

        enum Mark: String {
            case ok = "✓"
            case warn = "!"
            case fail = "✗"
        }

        func report(_ mark: Mark, _ what: String, _ detail: String) {
            print("\(mark.rawValue) \(what): \(detail)")
        }

        func run() async throws {
            var failed = false
            func check(_ mark: Mark, _ what: String, _ detail: String) {
                if mark == .fail { failed = true }
                report(mark, what, detail)
            }
            let session: Session
            let configBroken: Bool
            do {
                session = try global.session()
                configBroken = false
            } catch {
                // Said once; what doesn't depend on the config (the store, the API, time
                // zones, notifications) is still checked, with the defaults.
                check(.fail, "config", "\(error)")
                guard let defaults = try? global.session(defaultsOnly: true) else { throw ExitCode(1) }
                session = defaults
                configBroken = true
            }
            if !configBroken {
                if let absence = ConfigLoader.absence(session.configPath, paths: session.paths) {
                    check(.warn, "config", "\(absence), so the defaults are used; `faceoff config init` or `faceoff follow TOR` writes one")
                } else {
                    check(
                        .ok, "config",
                        "\(session.displayConfigPath) (\(counted(session.config.teams.count, "team")), \(counted(session.config.sinks.count, "sink")))"
                    )
                }
            }
            let renderer: Renderer?
            do {
                let loaded = try session.renderer()
                renderer = loaded
                let problems = loaded.check()
                if problems.isEmpty {
                    check(
                        .ok, "templates",
                        loaded.templates.overridden.isEmpty
                            ? "built in" : "yours: \(loaded.templates.overridden.sorted().joined(separator: ", "))")
                } else {
                    check(
                        .fail, "templates",
                        problems.map(\.description).joined(separator: "; ") + " (fix the file in ~/.config/faceoff/templates/)")
                }
            } catch {
                renderer = nil
                check(.fail, "templates", "\(error)")
            }
            if let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) {
                check(.warn, "config permissions", warning)
            }

            // Time zone data: named zones need tzdata.
            if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/America/Toronto"), TimeZone(identifier: "America/Toronto") != nil
            {
                if session.config.timezone == nil, let problem = SystemTimeZone.read(session.environment).problem {
                    check(.fail, "time zones", problem)
                } else {
                    check(.ok, "time zones", "\(session.config.timeZone.identifier)")
                }
            } else {
                check(.fail, "time zones", "no time zone data; install it: sudo apt-get install tzdata")
            }

            do {
                let store = try session.openStore()
                try await LiveStatus(store: store).prune(before: .distantPast)
                if let damage = store.damage() { throw damage }
                check(.ok, "store", ConfigLoader.displayPath(store.path, paths: session.paths))
                // A muted sink delivers nothing: a reason for a silent evening worth a warning.
                let report = MuteReport(config: session.config, store: store, at: session.now)
                for sink in report.sinks {
                    guard let state = report.state(of: sink.sink) else { continue }
                    check(
                        sink.muted ? .warn : .ok, "sink \(sink.sink)",
                        "\(state); held alerts are \(sink.held == "digest" ? "kept for one digest" : "dropped")"
                            + (sink.muted ? " (`faceoff unmute \(sink.sink.contains(" ") ? "'\(sink.sink)'" : sink.sink)` ends it)" : ""))
                }
            } catch {
                let damaged = (error as? StoreError)?.reason.hasPrefix("the file is damaged") == true
                check(.fail, "store", damaged ? "\(error)" : "\(error) (check the permissions and free space of ~/.local/state/faceoff)")
            }

            let directory = session.calendarDirectory
            let probe = directory + "/.faceoff-doctor-\(getpid())"
            do {
                try FileError.makeDirectories(directory)
                try AtomicFile.write("probe", to: probe)
                unlink(probe)
                check(.ok, "calendar directory", ConfigLoader.displayPath(directory, paths: session.paths))
            } catch {
                check(.fail, "calendar directory", "\(error) (set [calendar] dir, or fix that folder)")
            }

            let http = CurlHTTPClient()
            /// One request to an API, timed: what `run` needs to reach.
            func reach(_ name: String, base: String, path: String, hint: String) async {
                let started = ContinuousClock.now
                do {
                    _ = try await http.send(
                        HTTPRequest(url: base + path, retry: nil, connectTimeout: .seconds(5), totalTimeout: .seconds(10)))
                    let elapsed = ContinuousClock.now - started
                    check(
                        .ok, name,
                        "\(base) answered in \(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms"
                    )
                } catch {
                    check(.fail, name, "\(error) (\(hint))")
                }
            }
            await reach(
                "NHL API", base: session.config.apiBase, path: Endpoint<LeagueSchedule>.schedule().path,
                hint: "no network? `--offline` uses the cache; `--api-base` points elsewhere")
            // ESPN's only when an NBA team is followed: nothing else asks it.
            if !session.config.nbaTeams.isEmpty {
                await reach(
                    "ESPN API (NBA)", base: session.config.espnBase, path: Endpoint<ESPNTeamList>.nbaTeams.path,
                    hint: "no network? `--espn-base` or espn_base points elsewhere")
            }

            let environment = ProcessInfo.processInfo.environment
            if let problem = NotifySendSink.unavailable(environment) {
                check(.warn, "desktop notifications", problem)
            } else {
                do {
                    let answer = try await ProcessRunner.run(
                        "dbus-send",
                        [
                            "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus.NameHasOwner",
                            "string:org.freedesktop.Notifications",
                        ],
                        environment: environment, timeout: .seconds(5))
                    if answer.status != 0 {
                        check(
                            .warn, "desktop notifications",
                            "the session bus did not answer: \(answer.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
                    } else if answer.stdout.contains("boolean true") {
                        check(.ok, "desktop notifications", "notify-send and a notification daemon on the session bus")
                    } else {
                        check(
                            .warn, "desktop notifications",
                            "no notification daemon owns org.freedesktop.Notifications on the session bus (start your desktop's, or dunst/mako)"
                        )
                    }
                } catch {
                    check(.ok, "desktop notifications", "notify-send and a session bus (\(error); cannot ask whether a daemon runs)")
                }
            }

            for sink in session.config.sinks where sink.type == .webhook {
                guard let url = sink.url, let renderer else { continue }
                let webhook = WebhookSink(config: sink, renderer: renderer, http: http, outbox: nil)
                if send {
                    let delivery = await webhook.send(
                        SampleEvent.make(
                            .goal, team: session.config.nhlTeams.first ?? "TOR", key: "doctor-\(Int(Date().timeIntervalSince1970))"))
                    check(delivery.isFailure ? .fail : .ok, "webhook \(sink.displayName)", "\(webhook.displayURL): test alert \(delivery)")
                    continue
                }
                // Reachable: any HTTP answer to a HEAD will do (many receivers refuse HEAD).
                var probe = HTTPRequest(
                    url: url, method: .head, followRedirects: false, retry: nil, connectTimeout: .seconds(5), totalTimeout: .seconds(10))
                probe.displayURL = webhook.displayURL
                do {
                    _ = try await http.send(probe)
                    check(.ok, "webhook \(sink.displayName)", "\(webhook.displayURL) reachable (--send sends a signed test alert)")
                } catch let error as HTTPError where error.status == 405 || error.status == 501 {
                    // "Not this method": the receiver can't be checked this way, which says
                    // nothing about its POSTs.
                    check(
                        .warn, "webhook \(sink.displayName)",
                        "\(webhook.displayURL) doesn't answer HEAD (\(error.status!) \(error.status == 405 ? "Method Not Allowed" : "Not Implemented")), so it can't be checked that way; `faceoff doctor --send` sends it a signed test alert"
                    )
                } catch let error as HTTPError where (400..<500).contains(error.status ?? 0) {
                    // Many receivers answer HEAD with 404 and take POSTs all the same.
                    check(
                        .ok, "webhook \(sink.displayName)",
                        "\(webhook.displayURL) reachable (answered HEAD with \(error.status!)); --send sends a signed test alert")
                } catch let error as HTTPError where error.status != nil {
                    check(
                        .fail, "webhook \(sink.displayName)",
                        "\(webhook.displayURL) answered HEAD with \(error.status!), a server error; it may fail alerts too (--send tries one)"
                    )
                } catch {
                    check(.fail, "webhook \(sink.displayName)", "\(error)")
                }
            }

            for sink in session.config.sinks where sink.type == .exec {
                guard let renderer else { continue }
                let exec = ExecSink(config: sink, renderer: renderer, environment: session.environment, paths: session.paths, outbox: nil)
                let program = exec.program
                guard let path = ProcessRunner.locate(program, environment: session.environment) else {
                    let why =
                        program.contains("/") && FileManager.default.fileExists(atPath: program)
                        ? "\(program) is not executable (chmod +x it)"
                        : "\(program) was not found\(program.contains("/") ? "" : " on PATH"); give its full path in the sink's command"
                    check(.fail, "exec \(sink.displayName)", why)
                    continue
                }
                if send {
                    let delivery = await exec.send(
                        SampleEvent.make(
                            .goal, team: session.config.nhlTeams.first ?? "TOR", key: "doctor-\(Int(Date().timeIntervalSince1970))"))
                    check(delivery.isFailure ? .fail : .ok, "exec \(sink.displayName)", "\(path): test alert \(delivery)")
                } else {
                    check(.ok, "exec \(sink.displayName)", "\(path) is executable (--send runs it with a sample goal)")
                }
            }

            for sink in session.config.sinks where sink.type == .mqtt {
                guard let renderer else { continue }
                let setup = AlertSetup(session: session, renderer: renderer, store: nil)
                let mqtt = setup.mqttSink(sink)
                switch await mqtt.probe() {
                case .success(let answer):
                    if send {
                        let delivery = await mqtt.sendTest(
                            SampleEvent.make(
                                .goal, team: session.config.nhlTeams.first ?? "TOR", key: "doctor-\(Int(Date().timeIntervalSince1970))"))
                        check(delivery.isFailure ? .fail : .ok, "mqtt \(sink.displayName)", "\(answer); test alert \(delivery)")
                    } else {
                        check(.ok, "mqtt \(sink.displayName)", "\(answer) (--send publishes a sample to \(mqtt.topics.test))")
                    }
                case .failure(let problem):
                    check(.fail, "mqtt \(sink.displayName)", problem.description)
                }
                // What the running daemon's own connection is doing, which a new one can't tell.
                if let pid = RunLock.holder(directory: session.paths.stateHome) {
                    let store = (try? session.readStore()) ?? nil
                    if let note = DaemonState(store: store).note(MQTTSink.connectionNote(sink.displayName)) {
                        let since = "since \(note.since.formatted(.dateTime.hour().minute().second()))"
                        check(
                            note.text.hasPrefix("connected") ? .ok : .fail, "mqtt \(sink.displayName), run's connection",
                            "\(note.text) (\(since), pid \(pid))")
                    } else {
                        check(
                            .warn, "mqtt \(sink.displayName), run's connection",
                            "`faceoff run` (pid \(pid)) has said nothing of this sink yet; it may still be starting, or run an older config (systemctl --user reload faceoff)"
                        )
                    }
                }
            }

            // Where systemd looks for user units: the user's own (make install), then the
            // system's (the Debian package).
            let configHome = (session.paths.configHome as NSString).deletingLastPathComponent  // $XDG_CONFIG_HOME
            let unitFolders = [configHome + "/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user"]
            if !unitFolders.contains(where: { FileManager.default.fileExists(atPath: $0 + "/faceoff.service") }) {
                check(
                    .warn, "systemd unit",
                    "not installed; the Debian package or `make -C contrib install` installs faceoff and its user unit")
            } else if let answer = try? await ProcessRunner.run(
                "systemctl", ["--user", "is-enabled", "faceoff.service"], environment: environment, timeout: .seconds(5))
            {
                let state = answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                check(
                    state == "enabled" ? .ok : .warn, "systemd unit",
                    state == "enabled"
                        ? "installed and enabled"
                        : "installed but \(state.isEmpty ? "not enabled" : state): systemctl --user enable --now faceoff")
            } else {
                check(.warn, "systemd unit", "installed; systemctl is not available to say whether it is enabled")
            }
            if failed { throw ExitCode(1) }
        }
    }
}
