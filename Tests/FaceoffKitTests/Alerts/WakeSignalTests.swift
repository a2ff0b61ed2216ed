import Foundation
import Testing

@testable import FaceoffKit

@Suite struct WakeSignalTests {
    @Test func aFireEndsTheWaitEarlyAndAnEarlierFireIsKept() async {
        let signal = WakeSignal()
        let clock = ContinuousClock()
        let started = clock.now
        Task {
            try? await Task.sleep(for: .milliseconds(100))
            signal.fire()
        }
        await signal.wait(timeout: .seconds(20))
        #expect(clock.now - started < .seconds(5))
        // Fired while nobody waited: the next wait returns at once.
        signal.fire()
        let again = clock.now
        await signal.wait(timeout: .seconds(20))
        #expect(clock.now - again < .seconds(5))
        // Nothing fired: the timeout ends it.
        let quiet = clock.now
        await signal.wait(timeout: .milliseconds(200))
        #expect(clock.now - quiet >= .milliseconds(200))
    }
}
