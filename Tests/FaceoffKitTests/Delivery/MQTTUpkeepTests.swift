import Testing

@testable import FaceoffKit
@testable import FaceoffMQTT

/// The MQTT sink's upkeep, one look at its connection at a time.
@Suite(.timeLimit(.minutes(5))) struct MQTTUpkeepTests {
    @Test func eachConnectIsSaidOnceWithEverythingRetainedAndRunLooksAtTheNextGames() {
        var upkeep = MQTTUpkeep(owner: true)
        #expect(upkeep.look(connected: false, generation: 0, problem: nil, poked: false, at: .zero) == [])
        #expect(upkeep.look(connected: true, generation: 1, problem: nil, poked: false, at: .seconds(1)) == [.connected, .look])
        #expect(upkeep.look(connected: true, generation: 1, problem: nil, poked: false, at: .seconds(300)) == [])
        // A game started or ended: the next games now, not in ten minutes.
        #expect(upkeep.look(connected: true, generation: 1, problem: nil, poked: true, at: .seconds(310)) == [.look])
        #expect(upkeep.look(connected: true, generation: 1, problem: nil, poked: false, at: .seconds(909)) == [])
        #expect(upkeep.look(connected: true, generation: 1, problem: nil, poked: false, at: .seconds(910)) == [.look])
        // Another process's sink says only what it delivers.
        var other = MQTTUpkeep(owner: false)
        #expect(other.look(connected: true, generation: 1, problem: nil, poked: true, at: .zero) == [.connected])
    }

    @Test func aLostConnectionIsSaidOncePerReasonAndTheReconnectAgain() {
        var upkeep = MQTTUpkeep(owner: true)
        _ = upkeep.look(connected: true, generation: 1, problem: nil, poked: false, at: .zero)
        #expect(upkeep.look(connected: false, generation: 1, problem: nil, poked: true, at: .seconds(1)) == [])
        #expect(upkeep.look(connected: false, generation: 1, problem: "refused", poked: false, at: .seconds(2)) == [.lost("refused")])
        #expect(upkeep.look(connected: false, generation: 1, problem: "refused", poked: false, at: .seconds(3)) == [])
        #expect(upkeep.look(connected: false, generation: 1, problem: "timed out", poked: false, at: .seconds(4)) == [.lost("timed out")])
        #expect(upkeep.look(connected: true, generation: 2, problem: nil, poked: false, at: .seconds(5)) == [.connected, .look])
        // Lost again for the same reason as before the reconnect: said again.
        #expect(upkeep.look(connected: false, generation: 2, problem: "timed out", poked: false, at: .seconds(6)) == [.lost("timed out")])
    }
}
