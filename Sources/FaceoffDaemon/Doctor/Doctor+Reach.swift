import FaceoffAPI
import FaceoffBase
import FaceoffDelivery
import FaceoffESPN
import FaceoffHTTP
import FaceoffKit
import FaceoffMQTT
import FaceoffNHL
import FaceoffStore
import Foundation

// What `run` talks to: the APIs, the desktop's notification daemon, each sink.
extension Doctor {
    /// The NHL's API, and ESPN's when an NBA team is followed (nothing else asks it): one
    /// request each, timed.
    func apis() async -> [Finding] {
        func reach(_ name: String, base: String, path: String, hint: String) async -> Finding {
            let started = ContinuousClock.now
            do {
                _ = try await http.send(HTTPRequest(url: base + path, retry: nil, connectTimeout: .seconds(5), totalTimeout: .seconds(10)))
                let elapsed = ContinuousClock.now - started
                let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
                return Finding(.ok, name, "\(base) answered in \(milliseconds) ms")
            } catch {
                return Finding(.fail, name, "\(error) (\(hint))")
            }
        }
        var findings = [
            await reach(
                "NHL API", base: session.config.apiBase, path: Endpoint<LeagueSchedule>.schedule().path,
                hint: "no network? `--offline` uses the cache; `--api-base` points elsewhere")
        ]
        if !session.config.nbaTeams.isEmpty {
            let espn = await reach(
                "ESPN API (NBA)", base: session.config.espnBase, path: Endpoint<ESPNTeamList>.nbaTeams.path,
                hint: "no network? `--espn-base` or espn_base points elsewhere")
            findings.append(espn)
            // Reached: whether each followed team's schedule is one `run` can use (an answer
            // with numbers no game has, or another team's, is refused there too).
            if espn.mark == .ok { findings += await nbaSchedules() }
        }
        return findings
    }

    /// Each followed NBA team's schedule as `run` reads it, without the cache: a ✗ for an
    /// answer `run` would refuse.
    func nbaSchedules() async -> [Finding] {
        let client = session.espnClient(store: nil, http: http).retrying(nil)
        var findings: [Finding] = []
        for team in session.config.nbaTeams {
            do {
                _ = try await client.fetch(.nbaSchedule(team))
            } catch {
                findings.append(Finding(.fail, "ESPN API (NBA)", "nba:\(team.abbrev)'s schedule: \(error)"))
            }
        }
        return findings
    }

    /// notify-send, and whether a notification daemon owns its name on the session bus.
    func desktopNotifications() async -> Finding {
        let environment = ProcessInfo.processInfo.environment
        if let problem = NotifySendSink.unavailable(environment) { return Finding(.warn, "desktop notifications", problem) }
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
                return Finding(
                    .warn, "desktop notifications",
                    "the session bus did not answer: \(answer.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            if answer.stdout.contains("boolean true") {
                return Finding(.ok, "desktop notifications", "notify-send and a notification daemon on the session bus")
            }
            return Finding(
                .warn, "desktop notifications",
                "no notification daemon owns org.freedesktop.Notifications on the session bus (start your desktop's, or dunst/mako)")
        } catch {
            return Finding(.ok, "desktop notifications", "notify-send and a session bus (\(error); cannot ask whether a daemon runs)")
        }
    }

    /// Each webhook: reachable (any HTTP answer to a HEAD will do; many receivers refuse HEAD),
    /// or with `--send` a signed sample alert.
    func webhooks(_ renderer: Renderer) async -> [Finding] {
        var findings: [Finding] = []
        for sink in session.config.sinks {
            guard case .webhook(let options) = sink.options else { continue }
            let url = options.url
            let webhook = WebhookSink(name: sink.displayName, options: options, renderer: renderer, http: http, outbox: nil)
            let what = "webhook \(sink.displayName)"
            if send {
                let delivery = await webhook.send(sample)
                findings.append(Finding(delivery.isFailure ? .fail : .ok, what, "\(webhook.displayURL): test alert \(delivery)"))
                continue
            }
            var probe = HTTPRequest(
                url: url, method: .head, followRedirects: false, retry: nil, connectTimeout: .seconds(5), totalTimeout: .seconds(10))
            probe.displayURL = webhook.displayURL
            do {
                _ = try await http.send(probe)
                findings.append(Finding(.ok, what, "\(webhook.displayURL) reachable (--send sends a signed test alert)"))
            } catch let error as HTTPError where error.status == 405 || error.status == 501 {
                // "Not this method": the receiver can't be checked this way, which says nothing
                // about its POSTs.
                let name = error.status == 405 ? "Method Not Allowed" : "Not Implemented"
                findings.append(
                    Finding(
                        .warn, what,
                        "\(webhook.displayURL) doesn't answer HEAD (\(error.status!) \(name)), so it can't be checked that way; `faceoff doctor --send` sends it a signed test alert"
                    ))
            } catch let error as HTTPError where (400..<500).contains(error.status ?? 0) {
                // Many receivers answer HEAD with 404 and take POSTs all the same.
                findings.append(
                    Finding(
                        .ok, what, "\(webhook.displayURL) reachable (answered HEAD with \(error.status!)); --send sends a signed test alert"
                    ))
            } catch let error as HTTPError where error.status != nil {
                findings.append(
                    Finding(
                        .fail, what,
                        "\(webhook.displayURL) answered HEAD with \(error.status!), a server error; it may fail alerts too (--send tries one)"
                    ))
            } catch {
                findings.append(Finding(.fail, what, "\(error)"))
            }
        }
        return findings
    }

    /// Each exec sink's program: found and executable, or with `--send` run with a sample goal.
    func execs(_ renderer: Renderer) async -> [Finding] {
        var findings: [Finding] = []
        for sink in session.config.sinks {
            guard case .exec(let options) = sink.options else { continue }
            let exec = ExecSink(
                name: sink.displayName, options: options, renderer: renderer, environment: session.environment, paths: session.paths,
                outbox: nil)
            let program = exec.program
            let what = "exec \(sink.displayName)"
            guard let path = ProcessRunner.locate(program, environment: session.environment) else {
                let why =
                    program.contains("/") && FileManager.default.fileExists(atPath: program)
                    ? "\(program) is not executable (chmod +x it)"
                    : "\(program) was not found\(program.contains("/") ? "" : " on PATH"); give its full path in the sink's command"
                findings.append(Finding(.fail, what, why))
                continue
            }
            if send {
                let delivery = await exec.send(sample)
                findings.append(Finding(delivery.isFailure ? .fail : .ok, what, "\(path): test alert \(delivery)"))
            } else {
                findings.append(Finding(.ok, what, "\(path) is executable (--send runs it with a sample goal)"))
            }
        }
        return findings
    }

    /// Each MQTT broker: connects and logs in (with `--send`, a sample on the test topic); and
    /// what the running daemon's own connection is doing, which a new one can't tell.
    func mqtt(_ renderer: Renderer) async -> [Finding] {
        var findings: [Finding] = []
        for sink in session.config.sinks {
            guard case .mqtt(let options) = sink.options else { continue }
            let mqtt = AlertSetup(session: session, renderer: renderer, store: nil).mqttSink(sink, options: options)
            let what = "mqtt \(sink.displayName)"
            switch await mqtt.probe() {
            case .success(let answer):
                if send {
                    let delivery = await mqtt.sendTest(sample)
                    findings.append(Finding(delivery.isFailure ? .fail : .ok, what, "\(answer); test alert \(delivery)"))
                } else {
                    findings.append(Finding(.ok, what, "\(answer) (--send publishes a sample to \(mqtt.topics.test))"))
                }
            case .failure(let problem):
                findings.append(Finding(.fail, what, problem.description))
            }
            guard let pid = RunLock.holder(directory: session.paths.stateHome) else { continue }
            let store = (try? session.readStore()) ?? nil
            if let note = DaemonState(store: store).note(MQTTSink.connectionNote(sink.displayName)) {
                let since = "since \(note.since.formatted(.dateTime.hour().minute().second()))"
                findings.append(
                    Finding(
                        note.text.hasPrefix("connected") ? .ok : .fail, "\(what), run's connection", "\(note.text) (\(since), pid \(pid))"))
            } else {
                findings.append(
                    Finding(
                        .warn, "\(what), run's connection",
                        "`faceoff run` (pid \(pid)) has said nothing of this sink yet; it may still be starting, or run an older config (systemctl --user reload faceoff)"
                    ))
            }
        }
        return findings
    }
}
