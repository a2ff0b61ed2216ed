import Foundation
import Testing

@testable import FaceoffKit

@Suite struct WakeSignalTests {
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
}
