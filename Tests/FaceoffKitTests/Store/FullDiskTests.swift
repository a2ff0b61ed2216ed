import Foundation
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffCalendar
@testable import FaceoffDaemon
@testable import FaceoffDelivery
@testable import FaceoffHTTP
@testable import FaceoffKit
@testable import FaceoffMQTT
@testable import FaceoffNHL
@testable import FaceoffStore

/// A full or read-only disk under the feeds and under the store: plain errors that name the
/// path, the last good feed kept, alerts still delivered where they need no disk, and what
/// the outbox owed delivered once.
@Suite(.timeLimit(.minutes(5)), .enabled(if: Tmpfs.available, "needs root to mount a tmpfs"))
struct FullDiskTests {
    static let feed = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"

    @Test func aFeedOnAFullDiskKeepsItsLastGoodFile() throws {
        let disk = try Tmpfs(kilobytes: 64)
        defer { disk.unmount() }
        let path = disk.path + "/calendars/TOR.ics"
        #expect(try FeedWriter.write(Self.feed, to: path, allowEmpty: false) == .written)
        disk.fill()
        let bigger = Self.feed.replacingOccurrences(of: "UID:1", with: "UID:1\r\nSUMMARY:" + String(repeating: "x", count: 8000))
        let error = try #require(throws: FileError.self) { try FeedWriter.write(bigger, to: path, allowEmpty: false) }
        #expect(error.isDiskFull)
        #expect(error.description == "cannot write \(path): the disk is full; free some space and it is written on the next try")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.feed)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path + "/calendars") == ["TOR.ics"])
        // With room again, the next try writes it.
        disk.makeRoom()
        #expect(try FeedWriter.write(bigger, to: path, allowEmpty: false) == .written)
    }

    @Test func aFeedOnAReadOnlyFileSystemKeepsItsLastGoodFile() throws {
        let disk = try Tmpfs(kilobytes: 64)
        defer { disk.unmount() }
        let path = disk.path + "/TOR.ics"
        _ = try FeedWriter.write(Self.feed, to: path, allowEmpty: false)
        disk.remount(readOnly: true)
        let error = try #require(throws: FileError.self) { try FeedWriter.write(Self.feed + "\r\n", to: path, allowEmpty: false) }
        #expect(error.description.hasPrefix("cannot write \(path): the file system is read-only"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.feed)
        // A folder that can't be made says which.
        let deeper = try #require(throws: FileError.self) { try AtomicFile.write("x", to: disk.path + "/new/feed.ics") }
        #expect(deeper.description.hasPrefix("cannot create the folder \(disk.path)/new: the file system is read-only"))
    }

    @Test func aStoreThatCannotBeOpenedOnAFullOrReadOnlyDiskSaysWhy() throws {
        let disk = try Tmpfs(kilobytes: 256)
        defer { disk.unmount() }
        disk.fill()
        let full = try #require(throws: StoreError.self) { try Store(path: disk.path + "/faceoff.sqlite") }
        #expect(full.description.contains("cannot use the store at \(disk.path)/faceoff.sqlite: the disk is full"), "\(full)")
        disk.makeRoom()
        disk.remount(readOnly: true)
        let readOnly = try #require(throws: StoreError.self) { try Store(path: disk.path + "/faceoff.sqlite") }
        #expect(readOnly.description.contains("its file system is read-only"), "\(readOnly)")
    }

    /// `faceoff status` on a store whose file system went read-only (a live USB, a disk
    /// remounted after errors): it reads what was recorded.
    @Test func aStoreOnAReadOnlyDiskIsStillRead() async throws {
        let disk = try Tmpfs(kilobytes: 2048)
        defer { disk.unmount() }
        let path = disk.path + "/faceoff.sqlite"
        do {
            let store = try Store(path: path)
            try await DaemonState(store: store).set(.outageSince, Date(timeIntervalSince1970: 1_000))
        }
        disk.remount(readOnly: true)
        let reader = try #require(try Store.reader(path: path))
        #expect(DaemonState(store: reader).date(.outageSince) == Date(timeIntervalSince1970: 1_000))
    }

    /// The disk fills while alerts are owed: what the outbox held stays there until there is
    /// room, then goes out once; a new webhook alert the outbox can't take is sent once,
    /// directly; a sink that needs no disk (stdout, notify) gets everything; nothing crashes.
    @Test func aStoreOnAFullDiskStillAlertsAndDeliversWhatItOwed() async throws {
        let disk = try Tmpfs(kilobytes: 1024)
        defer { disk.unmount() }
        let receiver = try LoopbackHTTPServer { _ in .response(status: 204) }
        defer { receiver.stop() }
        let store = try Store(path: disk.path + "/faceoff.sqlite")
        let webhook = WebhookSink(
            name: "hook", options: SinkConfig.Webhook(url: receiver.baseURL + "/hook"), renderer: Renderer.builtIn, http: CurlHTTPClient(),
            outbox: Outbox(store: store),
            schedule: WebhookHarness.fast)
        let owed = WebhookHarness.events(2)
        for event in owed { #expect(try await webhook.enqueue(event, at: Date()) == .queued) }

        disk.fill()
        let late = SampleEvent.make(.goal, team: "TOR", key: "late")
        let refused = try await #require(throws: StoreError.self) { try await webhook.enqueue(late, at: Date()) }
        #expect(refused.description.contains("the disk is full"), "\(refused)")

        let printed = Mutex<[String]>([])
        let terminal = RecordingSink(name: "terminal") { event in printed.withLock { $0.append(event.id) } }
        let router = AlertRouter(
            routes: [
                SinkRoute(sink: terminal, filter: SinkFilter(teams: ["TOR"])), SinkRoute(sink: webhook, filter: SinkFilter(teams: ["TOR"])),
            ],
            ledger: Ledger(store: store), clock: ContinuousClock())
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await router.run() }
            router.route(late)
            await router.settle()
            // While full: the new alert went out directly; the owed ones wait in the outbox.
            try? await Task.sleep(for: .milliseconds(500))
            #expect(receiver.requests.compactMap { $0.headers["webhook-id"] } == [late.id])
            #expect((try? Outbox(store: store).pending().map(\.eventID)) == owed.map(\.id))
            // With room again they go out, each once, in order.
            disk.makeRoom()
            #expect(await webhook.settle(timeout: .seconds(90)))
            router.finish()
            await group.waitForAll()
        }
        #expect(printed.withLock { $0 } == [late.id])
        #expect(receiver.requests.compactMap { $0.headers["webhook-id"] } == [late.id] + owed.map(\.id))
        #expect(try Outbox(store: store).pending().isEmpty)
    }
}
