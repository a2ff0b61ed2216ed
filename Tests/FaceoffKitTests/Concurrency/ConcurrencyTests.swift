import Foundation
import Synchronization
import Testing

@testable import FaceoffBase
@testable import FaceoffDaemon
@testable import FaceoffKit
@testable import FaceoffMQTT

@Suite(.timeLimit(.minutes(5))) struct ConcurrencyTests {
    @Test func aFireEndsTheWaitAndAnEarlierFireIsKept() async {
        let signal = WakeSignal()
        Task {
            try? await Task.sleep(for: .milliseconds(100))
            signal.fire()
        }
        #expect(await signal.wait(timeout: .seconds(600)))
        // Fired while nobody waited: the next wait returns at once, fired.
        signal.fire()
        #expect(await signal.wait(timeout: .seconds(600)))
        // Nothing fired: the timeout ends it.
        #expect(await signal.wait(timeout: .milliseconds(100)) == false)
    }

    /// Many wait for one latch; a limited wait gives up alone, at its limit or when cancelled.
    @Test func aLatchReleasesEveryWaiterAndALimitedWaitGivesUpAlone() async {
        let latch = Latch()
        let clock = ContinuousClock()
        // Never opened: back after the limit.
        let started = clock.now
        await latch.wait(atMost: .milliseconds(100))
        #expect(clock.now - started >= .milliseconds(100))
        // A cancelled limited wait returns at once, long before its limit.
        let cancelled = Task { await latch.wait(atMost: .seconds(60)) }
        cancelled.cancel()
        let before = clock.now
        await cancelled.value
        #expect(clock.now - before < .seconds(10))
        // Opened: every waiter, limited or not, goes on; and so does a later one.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 { group.addTask { await latch.wait() } }
            group.addTask { await latch.wait(atMost: .seconds(60)) }
            try? await Task.sleep(for: .milliseconds(50))
            latch.open()
        }
        let after = clock.now
        await latch.wait(atMost: .seconds(60))
        #expect(clock.now - after < .seconds(10))
    }

    /// Bodies that sleep halfway never overlap, and a body that throws hands on its turn.
    @Test func turnsRunOneBodyAtATime() async {
        let turns = Turns()
        final class Log: Sendable { let entries = Mutex<[String]>([]) }
        let log = Log()
        struct Broke: Error {}
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    _ = try? await turns.run { () async throws(Broke) in
                        log.entries.withLock { $0.append("in \(index)") }
                        try? await Task.sleep(for: .milliseconds(30))
                        log.entries.withLock { $0.append("out \(index)") }
                        if index == 2 { throw Broke() }
                    }
                }
            }
        }
        let entries = log.entries.withLock { $0 }
        #expect(entries.count == 12)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            #expect(entries[pair].hasPrefix("in ") && entries[pair + 1] == "out " + entries[pair].dropFirst(3), "\(entries)")
        }
    }

    /// A change ends every wait begun before it, and only those: a wait after the newest
    /// version waits for the next fire or its deadline, on the clock it is given.
    @Test func aChangeEndsEveryWaitBegunBeforeIt() async {
        let signal = ChangeSignal()
        let clock = ContinuousClock()
        let before = signal.version
        signal.fire()
        // Fired since `before`: no wait at all, however far the deadline.
        let started = clock.now
        await signal.wait(after: before, until: clock.now.advanced(by: .seconds(600)), on: clock)
        // (Not a timing test: far from the 600 s deadline is all it asks, on however busy a machine.)
        #expect(clock.now - started < .seconds(300))
        // Nothing new: the deadline ends it.
        let now = signal.version
        let waited = clock.now
        await signal.wait(after: now, until: clock.now.advanced(by: .milliseconds(150)), on: clock)
        #expect(clock.now - waited >= .milliseconds(150))
        // Three waiters of the same version, one fire: all three end.
        final class Count: Sendable { let value = Mutex(0) }
        let ended = Count()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    await signal.wait(after: now, until: clock.now.advanced(by: .seconds(600)), on: clock)
                    ended.value.withLock { $0 += 1 }
                }
            }
            try? await Task.sleep(for: .milliseconds(100))
            #expect(ended.value.withLock { $0 } == 0)
            signal.fire()
        }
        #expect(ended.value.withLock { $0 } == 3)
        #expect(signal.version == now + 1)
    }
}
