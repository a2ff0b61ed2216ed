import CBuildInfo

/// Facts about this build of Faceoff that several layers need.
public enum FaceoffInfo {
    public static let version = "0.1.0"
    /// The commit the binary was built from (written in by contrib/Makefile), or "unknown".
    public static var commit: String { String(cString: faceoff_build_commit()) }
    /// What `faceoff --version` prints.
    public static var versionLine: String { "\(version) (commit \(commit))" }
    public static let userAgent = "Faceoff/\(version) (+https://github.com/faceoff-hockey/faceoff; Linux)"
}
