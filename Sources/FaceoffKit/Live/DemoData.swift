import FaceoffNHL
/// The demo game and schedule, built into the binary from Demo/.
public enum DemoData {
    public static var game: String? { EmbeddedFiles.all["Demo/demo-game.json"] }
    public static var schedule: String? { EmbeddedFiles.all["Demo/demo-schedule.json"] }
}
