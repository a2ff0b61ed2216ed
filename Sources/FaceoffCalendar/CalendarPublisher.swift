import FaceoffBase
import FaceoffKit
import Foundation

/// Builds feeds and writes them to the calendar directory, one feed's failure never touching
/// another's file. `faceoff calendar`, `faceoff serve` and `faceoff run` all publish through it.
public struct CalendarPublisher: Sendable {
    public struct Report: Sendable, Equatable {
        public var feed: String
        public var path: String
        public var events: Int
        /// Events whose LAST-MODIFIED is this run: new or changed games.
        public var changed: Int
        public var outcome: FeedWriter.Outcome?
        public var notes: [String]
        /// Teams whose schedule could not be had: the feed was written with their last games.
        public var warnings: [String] = []
        /// Why the feed could not be built; its last good file (if any) was left as it was.
        public var error: String?
    }

    let service: CalendarService
    public let directory: String
    let allowEmpty: Bool

    public init(service: CalendarService, directory: String, allowEmpty: Bool) {
        self.service = service
        self.directory = directory
        self.allowEmpty = allowEmpty
    }

    public func path(for kind: FeedKind) -> String { directory + "/\(kind.name).ics" }

    /// The feed as .ics text, with notes about stale data and warnings about teams left as
    /// they were.
    public func render(_ kind: FeedKind) async throws -> (text: String, feed: CalendarFeed, notes: [String], warnings: [String]) {
        let (feed, notes, warnings) = try await service.feed(kind)
        return (try CalendarBuilder.serialize(feed), feed, notes, warnings)
    }

    /// The order to start building feeds in: the league's and the favourites' (the biggest)
    /// first, so that no core is left building a big feed alone at the end.
    public static func startOrder(_ kinds: [FeedKind]) -> [Int] {
        func size(_ kind: FeedKind) -> Int {
            switch kind {
            case .all: FeedKind.allLeague.definition.abbreviations.count
            case .favourites(let teams): teams.count
            case .team: 1
            }
        }
        return kinds.indices.sorted { (size(kinds[$1]), $0) < (size(kinds[$0]), $1) }
    }

    /// Builds and writes the feeds, several at once (one per core), reports in `kinds` order.
    public func publish(_ kinds: [FeedKind]) async -> [Report] {
        if service.revalidateSeasonParts { await service.refreshSeasons(of: kinds) }
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let order = Self.startOrder(kinds)
        var reports: [Int: Report] = [:]
        await withTaskGroup(of: (Int, Report).self) { group in
            var next = 0
            func start() {
                guard next < order.count else { return }
                let index = order[next]
                next += 1
                group.addTask { (index, await publishOne(kinds[index])) }
            }
            for _ in 0..<width { start() }
            while let (index, report) = await group.next() {
                reports[index] = report
                start()
            }
        }
        return kinds.indices.compactMap { reports[$0] }
    }

    private func publishOne(_ kind: FeedKind) async -> Report {
        let path = path(for: kind)
        do {
            let started = service.now()
            let (text, feed, notes, warnings) = try await render(kind)
            let outcome = try FeedWriter.write(text, to: path, allowEmpty: allowEmpty)
            let changed = feed.events.filter { $0.lastModified >= started.addingTimeInterval(-1) }.count
            return Report(
                feed: kind.name, path: path, events: feed.events.count, changed: changed, outcome: outcome, notes: notes, warnings: warnings
            )
        } catch {
            return Report(feed: kind.name, path: path, events: 0, changed: 0, outcome: nil, notes: [], error: "\(error)")
        }
    }
}
