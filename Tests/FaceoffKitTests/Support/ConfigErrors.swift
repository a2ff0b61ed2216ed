@testable import FaceoffKit

extension ConfigLoader {
    /// What loading `text` as config.toml says is wrong (nothing when it loads).
    static func errors(in text: String) -> [ConfigError] {
        do {
            _ = try parse(text, file: "config.toml")
            return []
        } catch {
            return error.errors
        }
    }
}
