import FaceoffKit
import FaceoffNHL
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Times the live engine on whole games: for every snapshot a poller would see, decoding the
// play-by-play JSON plus building the snapshot and detecting its events. Run it with
// bench/run.sh, in a release build.
//
//   LiveBench [--iterations N] [FILE...]     (default: the demo game built into the binary)

var files = Array(CommandLine.arguments.dropFirst())
var iterations = 5
if let index = files.firstIndex(of: "--iterations"), files.indices.contains(index + 1) {
    iterations = Int(files[index + 1]) ?? 5
    files.removeSubrange(index...(index + 1))
}
var games: [(String, Data)] = files.compactMap { path in
    FileManager.default.contents(atPath: path).map { (URL(fileURLWithPath: path).lastPathComponent, $0) }
}
if games.isEmpty, let demo = DemoData.game { games = [("demo game", Data(demo.utf8))] }

for (name, data) in games {
    let feed = try JSONDecoder().decode(PlayByPlay.self, from: data)
    let replay = ReplayFeed(feed)
    // What each poll would download: the feed after 1, 2, ... n plays.
    let bodies = try (1...replay.count).map { try JSONEncoder().encode(replay.prefix($0)) }
    var perSnapshot: [Double] = []
    var wholeGame: [Double] = []
    var events = 0
    for _ in 0..<iterations {
        var detector = EventDetector()
        events = 0
        let gameStart = ContinuousClock.now
        for body in bodies {
            let start = ContinuousClock.now
            let decoded = try JSONDecoder().decode(PlayByPlay.self, from: body)
            events += detector.process(GameSnapshot(decoded)).events.count
            let elapsed = ContinuousClock.now - start
            perSnapshot.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
        }
        let elapsed = ContinuousClock.now - gameStart
        wholeGame.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    perSnapshot.sort()
    wholeGame.sort()
    let last = bodies.last.map { try? JSONDecoder().decode(PlayByPlay.self, from: $0) } ?? nil
    var lastOnly: [Double] = []
    for _ in 0..<50 {
        let start = ContinuousClock.now
        var detector = EventDetector()
        _ = detector.process(GameSnapshot(try JSONDecoder().decode(PlayByPlay.self, from: bodies.last!)))
        let elapsed = ContinuousClock.now - start
        lastOnly.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    lastOnly.sort()
    var usage = rusage()
    getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
    print(
        "\(name): \(replay.count) plays, \(events) events, \(iterations) replays, last body \(bodies.last?.count ?? 0) bytes, \(last?.plays?.count ?? 0) plays"
    )
    print(
        String(
            format: "  decode + detect per snapshot: median %.3f ms, p90 %.3f ms, max %.3f ms",
            perSnapshot[perSnapshot.count / 2], perSnapshot[Int(Double(perSnapshot.count) * 0.9)], perSnapshot.last ?? 0))
    print(String(format: "  the full-length final snapshot alone: median %.3f ms", lastOnly[lastOnly.count / 2]))
    print(String(format: "  whole game replayed at full speed (every play a poll): median %.1f ms", wholeGame[wholeGame.count / 2]))
    print("  peak resident memory: \(usage.ru_maxrss / 1024) MB")
}
