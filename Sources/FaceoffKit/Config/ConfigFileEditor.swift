import FaceoffBase
import Foundation

/// Applies a text edit to config.toml: the current file must be valid, the result must be
/// valid, and the file is replaced atomically.
public struct ConfigFileEditor {
    let session: Session

    public init(session: Session) { self.session = session }

    /// Read, changed and written under `ConfigFile.locked`: two edits at once both land.
    public func edit(_ change: (String) -> String) throws -> Config {
        try ConfigFile.locked(session.configPath) { try editLocked(change) }
    }

    private func editLocked(_ change: (String) -> String) throws -> Config {
        let path = session.configPath
        let display = session.displayConfigPath
        let original: String
        let exists = FileManager.default.fileExists(atPath: path)
        if exists {
            do {
                original = try FileError.readText(path)
            } catch {
                throw RuntimeError(message: "cannot read \(display): \(error.reason)")
            }
        } else {
            original = ConfigTemplate.text()
        }
        let updated = change(original)
        let config: Config
        do {
            config = try ConfigLoader.parse(updated, file: display)
        } catch {
            // The edit only touches two lists, so an error here was in the file before.
            throw ConfigErrors(error.errors + [ConfigError(file: display, line: nil, message: "not changed; fix the problems above first")])
        }
        // A new file only when the edit changed something (unfollow on no config writes nothing).
        if exists ? updated != original : updated != ConfigTemplate.text() {
            try ConfigFile.write(updated, to: path)
        }
        return config
    }
}
