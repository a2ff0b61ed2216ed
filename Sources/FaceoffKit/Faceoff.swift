/// Facts about this build of Faceoff that several layers need.
public enum FaceoffInfo {
    public static let version = "0.1.0"
    public static let userAgent = "Faceoff/\(version) (+https://github.com/faceoff-hockey/faceoff; Linux)"
}
