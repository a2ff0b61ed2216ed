import FaceoffBase
import FaceoffDelivery
import FaceoffKit
import FaceoffStore
import Foundation

// The machine's side: the config, the templates, time zone data, the store, the calendar
// directory, the systemd unit.
extension Doctor {
    func config() -> Finding {
        if let absence = ConfigLoader.absence(session.configPath, paths: session.paths) {
            return Finding(
                .warn, "config", "\(absence), so the defaults are used; `faceoff config init` or `faceoff follow TOR` writes one")
        }
        return Finding(
            .ok, "config",
            "\(session.displayConfigPath) (\(counted(session.config.teams.count, "team")), \(counted(session.config.sinks.count, "sink")))")
    }

    /// The templates, and the renderer the sinks' checks use (nil when they don't load).
    func templates() -> (Renderer?, Finding) {
        do {
            let loaded = try session.renderer()
            let problems = loaded.check()
            if problems.isEmpty {
                let whose =
                    loaded.templates.overridden.isEmpty
                    ? "built in" : "yours: \(loaded.templates.overridden.sorted().joined(separator: ", "))"
                return (loaded, Finding(.ok, "templates", whose))
            }
            return (
                loaded,
                Finding(
                    .fail, "templates",
                    problems.map(\.description).joined(separator: "; ") + " (fix the file in ~/.config/faceoff/templates/)")
            )
        } catch {
            return (nil, Finding(.fail, "templates", "\(error)"))
        }
    }

    func permissions() -> [Finding] {
        guard let warning = ConfigLoader.permissionWarning(path: session.configPath, config: session.config) else { return [] }
        return [Finding(.warn, "config permissions", warning)]
    }

    /// Named zones need tzdata.
    func timeZones() -> Finding {
        guard FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/America/Toronto"), TimeZone(identifier: "America/Toronto") != nil
        else {
            return Finding(.fail, "time zones", "no time zone data; install it: sudo apt-get install tzdata")
        }
        if session.config.timezone == nil, let problem = SystemTimeZone.read(session.environment).problem {
            return Finding(.fail, "time zones", problem)
        }
        return Finding(.ok, "time zones", "\(session.config.timeZone.identifier)")
    }

    /// The store opens and writes, and is whole; a muted sink is a reason for a silent evening
    /// worth a warning.
    func store() async -> [Finding] {
        do {
            let store = try session.openStore()
            try await LiveStatus(store: store).prune(before: .distantPast)
            if let damage = store.damage() { throw damage }
            var findings = [Finding(.ok, "store", ConfigLoader.displayPath(store.path, paths: session.paths))]
            let report = MuteReport(config: session.config, store: store, at: session.now)
            for sink in report.sinks {
                guard let state = report.state(of: sink.sink) else { continue }
                let unmute = sink.sink.contains(" ") ? "'\(sink.sink)'" : sink.sink
                findings.append(
                    Finding(
                        sink.muted ? .warn : .ok, "sink \(sink.sink)",
                        "\(state); held alerts are \(sink.held == "digest" ? "kept for one digest" : "dropped")"
                            + (sink.muted ? " (`faceoff unmute \(unmute)` ends it)" : "")))
            }
            return findings
        } catch {
            let damaged = (error as? StoreError)?.reason.hasPrefix("the file is damaged") == true
            return [
                Finding(.fail, "store", damaged ? "\(error)" : "\(error) (check the permissions and free space of ~/.local/state/faceoff)")
            ]
        }
    }

    func calendarDirectory() -> Finding {
        let directory = session.calendarDirectory
        let probe = directory + "/.faceoff-doctor-\(getpid())"
        do {
            try FileError.makeDirectories(directory)
            try AtomicFile.write("probe", to: probe)
            unlink(probe)
            return Finding(.ok, "calendar directory", ConfigLoader.displayPath(directory, paths: session.paths))
        } catch {
            return Finding(.fail, "calendar directory", "\(error) (set [calendar] dir, or fix that folder)")
        }
    }

    /// Where systemd looks for user units: the user's own (make install), then the system's
    /// (the Debian package).
    func systemdUnit() async -> Finding {
        let configHome = (session.paths.configHome as NSString).deletingLastPathComponent  // $XDG_CONFIG_HOME
        let unitFolders = [configHome + "/systemd/user", "/etc/systemd/user", "/usr/lib/systemd/user"]
        guard unitFolders.contains(where: { FileManager.default.fileExists(atPath: $0 + "/faceoff.service") }) else {
            return Finding(
                .warn, "systemd unit", "not installed; the Debian package or `make -C contrib install` installs faceoff and its user unit")
        }
        guard
            let answer = try? await ProcessRunner.run(
                "systemctl", ["--user", "is-enabled", "faceoff.service"], environment: ProcessInfo.processInfo.environment,
                timeout: .seconds(5))
        else {
            return Finding(.warn, "systemd unit", "installed; systemctl is not available to say whether it is enabled")
        }
        let state = answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return Finding(
            state == "enabled" ? .ok : .warn, "systemd unit",
            state == "enabled"
                ? "installed and enabled" : "installed but \(state.isEmpty ? "not enabled" : state): systemctl --user enable --now faceoff")
    }
}
