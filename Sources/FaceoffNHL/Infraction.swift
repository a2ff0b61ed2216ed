/// A penalty's `descKey` ("delaying-game-puck-over-glass", "ps-slash-on-breakaway") as a fan
/// says it ("delay of game (puck over glass)", "slashing on a breakaway"). The one place the
/// feed's infraction codes become words: alerts and box scores both read them from here.
public enum Infraction {
    public static func words(_ descKey: String) -> String {
        var key = descKey.lowercased()
        var suffix = ""
        // A penalty shot's infraction: "ps-tripping-on-breakaway".
        if key.hasPrefix("ps-") { key.removeFirst(3) }
        for (ending, words) in endings where key.hasSuffix(ending) {
            key.removeLast(ending.count)
            suffix = words
            break
        }
        let base = named[key] ?? key.split(separator: "-").joined(separator: " ")
        return base + suffix
    }

    /// Codes whose words are not the code's own with spaces.
    private static let named: [String: String] = [
        "slash": "slashing",
        "hook": "hooking",
        "trip": "tripping",
        "hold": "holding",
        "cross-checking": "cross-checking",
        "high-sticking": "high-sticking",
        "butt-ending": "butt-ending",
        "head-butting": "head-butting",
        "interference-goalkeeper": "goalkeeper interference",
        "delaying-game": "delay of game",
        "delaying-game-puck-over-glass": "delay of game (puck over glass)",
        "delaying-game-faceoff-violation": "delay of game (faceoff violation)",
        "delaying-game-unsuccessful-challenge": "delay of game (failed challenge)",
        "delaying-game-equipment": "delay of game (equipment)",
        "delaying-game-smothering-puck": "delay of game (smothering the puck)",
        "closing-hand-on-puck": "closing a hand on the puck",
        "too-many-men-on-the-ice": "too many men on the ice",
        "illegal-check-to-head": "illegal check to the head",
        "goalie-leave-crease": "goalie leaving the crease",
    ]

    /// Endings that qualify the infraction before them, checked in this order.
    private static let endings: [(String, String)] = [
        ("-on-breakaway", " on a breakaway"),
        ("-double-minor", " (double minor)"),
    ]
}
