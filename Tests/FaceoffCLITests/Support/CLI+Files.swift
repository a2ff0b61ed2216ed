import Foundation

extension CLI {
    /// Writes config.toml (mode 600, as `config init` does).
    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: configFile, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configFile.path)
    }

    /// A team's calendar feed as written, or "" before it is.
    func calendar(_ team: String) -> String {
        (try? String(contentsOf: home.appendingPathComponent(".local/share/faceoff/calendars/\(team).ics"), encoding: .utf8)) ?? ""
    }
}
