import FaceoffAPI
import FaceoffCalendar
import FaceoffHTTP
import FaceoffKit
import FaceoffNHL
import FaceoffStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

// Times the calendar feeds for a whole league season: 32 team feeds and the league feed from
// 32 club schedules (1,312 games). Decoding the JSON is timed apart from building,
// serialising and writing the feeds. Run it with bench/run.sh, in a release build.
//
//   CalendarBench [--iterations N] [--export DIR]
//
// --export writes the generated schedules (DIR/TEAM.json) for the Python comparison and exits.

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let iterations = option("--iterations").flatMap(Int.init) ?? 20

let schedules = LeagueSeason.generate()
if let directory = option("--export") {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for (team, json) in schedules { try json.write(to: URL(fileURLWithPath: "\(directory)/\(team).json")) }
    print("wrote \(schedules.count) schedules to \(directory)")
    exit(0)
}

let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("faceoff-bench-\(getpid())")
try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: workspace) }

let store = try Store(path: workspace.appendingPathComponent("faceoff.sqlite").path)
let templates = try TemplateSet(overrides: nil)
let now = try Date("2026-01-15T12:00:00Z", strategy: .iso8601)
var options = CalendarSettings()
options.reminders = [.seconds(3600)]
let client = APIClient(service: .nhl, base: "file:///nonexistent/v1/", http: CurlHTTPClient(), cache: nil)
let stateless = CalendarService(clients: [client], state: nil, templates: templates, options: options, now: { now })
let stateful = CalendarService(clients: [client], state: CalendarState(store: store), templates: templates, options: options, now: { now })
let kinds: [FeedKind] = Teams.abbreviations.map { .team($0) } + [.all]

func decodeAll() throws -> [(team: String, schedule: ClubSchedule)] {
    let decoder = JSONDecoder()
    return try schedules.map { ($0.team, try decoder.decode(ClubSchedule.self, from: $0.json)) }
}

/// Builds, serialises and writes one feed; returns its number of events.
func publishOne(_ service: CalendarService, _ kind: FeedKind, _ decoded: [(team: String, schedule: ClubSchedule)], into directory: URL)
    async throws -> Int
{
    let mine: [(team: String, schedule: ClubSchedule)]
    if case .team(let team) = kind { mine = decoded.filter { $0.team == team } } else { mine = decoded }
    let request = await CalendarRequest(season: options.season, scores: options.scores)
    let seasons = mine.map { (team: $0.team, season: CalendarSeason(nhl: $0.schedule, request: request)) }
    let feed = try await service.build(kind, seasons: seasons)
    let text = try CalendarBuilder.serialize(feed)
    _ = try FeedWriter.write(text, to: directory.appendingPathComponent("\(kind.name).ics").path, allowEmpty: true)
    return feed.events.count
}

/// The 32 schedules decoded on all cores (as `CalendarService` decodes its fetches concurrently).
func decodeAllInParallel() -> [(team: String, schedule: ClubSchedule)] {
    let slots = Mutex<[(team: String, schedule: ClubSchedule)?]>(Array(repeating: nil, count: schedules.count))
    DispatchQueue.concurrentPerform(iterations: schedules.count) { index in
        let decoded = try? JSONDecoder().decode(ClubSchedule.self, from: schedules[index].json)
        slots.withLock { $0[index] = decoded.map { (schedules[index].team, $0) } }
    }
    return slots.withLock { $0.compactMap { $0 } }
}

/// All 33 feeds one after another; returns the number of events written.
func publish(_ service: CalendarService, _ decoded: [(team: String, schedule: ClubSchedule)], into directory: URL) async throws -> Int {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var events = 0
    for kind in kinds { events += try await publishOne(service, kind, decoded, into: directory) }
    return events
}

/// All 33 feeds spread over the machine's cores, as CalendarPublisher does.
func publishInParallel(_ service: CalendarService, _ decoded: [(team: String, schedule: ClubSchedule)], into directory: URL) async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    await withTaskGroup(of: Void.self) { group in
        for index in CalendarPublisher.startOrder(kinds) {
            group.addTask { _ = try? await publishOne(service, kinds[index], decoded, into: directory) }
        }
    }
}

func time(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

func summary(_ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2]
    let p90 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.9))]
    return String(format: "median %7.2f ms   p90 %7.2f ms   min %7.2f ms", median, p90, sorted[0])
}

// Warm up once (and fill the calendar state for the steady-state runs).
let warm = try decodeAll()
let eventCount = try await publish(stateless, warm, into: workspace.appendingPathComponent("warm"))
_ = try await publish(stateful, warm, into: workspace.appendingPathComponent("warm-state"))

var decode: [Double] = []
var build: [Double] = []
var buildWithState: [Double] = []
var endToEnd: [Double] = []
var parallel: [Double] = []
var endToEndParallel: [Double] = []
var cold: [Double] = []
for iteration in 0..<iterations {
    var decoded: [(team: String, schedule: ClubSchedule)] = []
    decode.append(try await time { decoded = try decodeAll() })
    // A fresh directory each time, so every feed is really written.
    build.append(try await time { _ = try await publish(stateless, decoded, into: workspace.appendingPathComponent("plain-\(iteration)")) })
    buildWithState.append(
        try await time { _ = try await publish(stateful, decoded, into: workspace.appendingPathComponent("state-\(iteration)")) })
    endToEnd.append(
        try await time {
            let again = try decodeAll()
            _ = try await publish(stateless, again, into: workspace.appendingPathComponent("e2e-\(iteration)"))
        })
    parallel.append(
        try await time { try await publishInParallel(stateless, decoded, into: workspace.appendingPathComponent("parallel-\(iteration)")) })
    endToEndParallel.append(
        try await time {
            let again = decodeAllInParallel()
            precondition(again.count == schedules.count, "a schedule did not decode")
            try await publishInParallel(stateless, again, into: workspace.appendingPathComponent("e2e-parallel-\(iteration)"))
        })
    // A new process's first run: templates parsed, nothing rendered yet.
    let fresh = CalendarService(clients: [client], state: nil, templates: try TemplateSet(overrides: nil), options: options, now: { now })
    cold.append(try await time { _ = try await publish(fresh, decoded, into: workspace.appendingPathComponent("cold-\(iteration)")) })
}

var usage = rusage()
getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
let games = Set(warm.flatMap { $0.schedule.games ?? [] }.compactMap(\.id)).count
print("league season: \(games) games, \(kinds.count) feeds, \(eventCount) events, \(iterations) iterations")
print("decode 32 club schedules (JSON):              \(summary(decode))")
print("build + serialise + write 33 feeds:           \(summary(build))")
print("  the same with calendar state (SQLite):      \(summary(buildWithState))")
print("  the same, first run of a new process:       \(summary(cold))")
print("  the same, feeds built in parallel (\(ProcessInfo.processInfo.activeProcessorCount) cores): \(summary(parallel))")
print("end to end (decode + build + serialise + write): \(summary(endToEnd))")
print("  the same, decoding and building spread over \(ProcessInfo.processInfo.activeProcessorCount) cores: \(summary(endToEndParallel))")
print("peak resident memory: \(usage.ru_maxrss / 1024) MB")
