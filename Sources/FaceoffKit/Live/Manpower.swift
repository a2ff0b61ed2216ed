import FaceoffAPI
import FaceoffBase
import FaceoffNHL
import Foundation

/// Skaters each team has on the ice from the penalties alone (a goalie pulled for an extra
/// attacker doesn't count).
struct Manpower: Equatable, Sendable {
    enum Side: Sendable, Equatable { case away, home }

    var away: Int
    var home: Int

    static let fiveOnFive = Manpower(away: 5, home: 5)

    subscript(side: Side) -> Int { side == .away ? away : home }

    /// The team a man or two up, if any.
    var advantage: Side? { away > home ? .away : home > away ? .home : nil }

    /// "5v4", the larger side first.
    var text: String { "\(max(away, home))v\(min(away, home))" }
}

/// One penalty call that takes a skater off the ice: a minor (two minutes; a double minor, or
/// two minors to one player at one stoppage, is two in a row, and a goal against ends only the
/// one being served) or a major (five minutes, which no goal ends). Misconducts, game
/// misconducts and penalty shots take no one off.
struct PenaltyCall: Equatable, Sendable {
    var side: Manpower.Side
    /// Seconds of one part: 120 for a minor, 300 for a major.
    var seconds: Int
    var parts: Int
    var isMajor: Bool

    init(side: Manpower.Side, seconds: Int, parts: Int = 1, isMajor: Bool = false) {
        self.side = side
        self.seconds = seconds
        self.parts = parts
        self.isMajor = isMajor
    }

    /// The player who committed it, for minors: two minors to one player at one stoppage are
    /// served one after the other, as a double minor is.
    var player: Int?

    /// Adds `call` to a stoppage's calls: a minor to a player who already has one there
    /// becomes a further part of that one.
    static func add(_ call: PenaltyCall, player: Int?, to calls: inout [PenaltyCall]) {
        var call = call
        call.player = call.isMajor ? nil : player
        if let player = call.player, let index = calls.firstIndex(where: { $0.player == player && $0.side == call.side && !$0.isMajor }) {
            calls[index].parts += call.parts
        } else {
            calls.append(call)
        }
    }

    /// nil for a call that leaves the team at full strength.
    init?(_ details: PlayDetails?, side: Manpower.Side) {
        let type = details?.typeCode ?? "MIN"
        if ["MIS", "GAM", "PS"].contains(type) { return nil }
        switch (type, details?.duration) {
        case ("MAJ", _), ("MAT", _), (_, 5?):
            self.init(side: side, seconds: 300, isMajor: true)
        case (_, 4?):
            self.init(side: side, seconds: 120, parts: 2)
        case (_, 2?), (_, nil):
            self.init(side: side, seconds: 120)
        default:
            return nil
        }
    }
}

/// The penalty clock: who is serving what and until when, in game seconds (seconds since the
/// opening faceoff; periods are 20 minutes, and a regular-season overtime follows the third).
/// A team serves at most two penalties at once; a third waits for one of them to end.
struct PenaltyBox: Sendable {
    struct Serving: Equatable, Sendable {
        var call: PenaltyCall
        /// When the part being served ends.
        var ends: Int
        /// Parts still to serve after this one.
        var partsLeft: Int
        /// One of two minors served four on four: no goal ends it.
        var coincidental = false
    }

    private(set) var serving: [Serving] = []
    private(set) var waiting: [PenaltyCall] = []

    func count(_ side: Manpower.Side) -> Int { serving.filter { $0.call.side == side }.count }

    /// The skaters each team has: five a side less its penalties, or, at three on three
    /// (a regular-season overtime), three a side plus one for every penalty the other team has
    /// more.
    func manpower(base: Int) -> Manpower {
        let away = count(.away)
        let home = count(.home)
        guard base == 3 else { return Manpower(away: base - away, home: base - home) }
        return Manpower(away: 3 + max(0, home - away), home: 3 + max(0, away - home))
    }

    /// When the next part being served runs out.
    var nextEnd: Int? { serving.map(\.ends).min() }

    /// Game seconds from `time` until `side` has a player back from the box: the first of its
    /// penalties (all parts of it) to run out; coincidental ones, served four on four, aside.
    func timeUntilBack(_ side: Manpower.Side, at time: Int) -> Int? {
        serving.filter { $0.call.side == side && !$0.coincidental }.map { $0.ends + $0.partsLeft * $0.call.seconds - time }.min()
    }

    /// Ends every part that runs out at `time`; a double minor's second part starts then, and a
    /// waiting penalty takes a freed place.
    mutating func expire(at time: Int) {
        for index in serving.indices.reversed() where serving[index].ends == time {
            if serving[index].partsLeft > 0 {
                serving[index].partsLeft -= 1
                serving[index].ends = time + serving[index].call.seconds
            } else {
                let side = serving.remove(at: index).call.side
                startWaiting(side, at: time)
            }
        }
    }

    /// The penalties called at one stoppage. Coincidental calls cancel (their players are
    /// replaced): majors one for one, minors part for part, except a single minor to each team
    /// when both are at full strength with nothing on the penalty clock, which is served four
    /// on four.
    mutating func assess(_ calls: [PenaltyCall], at time: Int) {
        var away = calls.filter { $0.side == .away }
        var home = calls.filter { $0.side == .home }
        let fourOnFour =
            serving.isEmpty && waiting.isEmpty
            && away.count == 1 && home.count == 1
            && [away[0], home[0]].allSatisfy { !$0.isMajor && $0.parts == 1 }
        if !fourOnFour {
            Self.cancel(&away, &home, where: \.isMajor)
            Self.cancel(&away, &home) { !$0.isMajor }
        }
        for call in away + home {
            if count(call.side) < 2 {
                serving.append(Serving(call: call, ends: time + call.seconds, partsLeft: call.parts - 1, coincidental: fourOnFour))
            } else {
                waiting.append(call)
            }
        }
    }

    /// A goal by `side`, scored while it had more skaters, ends the other team's minor with the
    /// least time left (the part being served, for a double minor), never a coincidental one.
    /// Returns whether it did.
    mutating func goal(by side: Manpower.Side, at time: Int, base: Int) -> Bool {
        let other: Manpower.Side = side == .away ? .home : .away
        let now = manpower(base: base)
        guard now[side] > now[other] else { return false }
        let minors = serving.indices.filter { serving[$0].call.side == other && !serving[$0].call.isMajor && !serving[$0].coincidental }
        guard let index = minors.min(by: { serving[$0].ends < serving[$1].ends }) else { return false }
        if serving[index].partsLeft > 0 {
            serving[index].partsLeft -= 1
            serving[index].ends = time + serving[index].call.seconds
        } else {
            serving.remove(at: index)
            startWaiting(other, at: time)
        }
        return true
    }

    private mutating func startWaiting(_ side: Manpower.Side, at time: Int) {
        guard count(side) < 2, let index = waiting.firstIndex(where: { $0.side == side }) else { return }
        let call = waiting.remove(at: index)
        serving.append(Serving(call: call, ends: time + call.seconds, partsLeft: call.parts - 1))
    }

    /// Removes calls that cancel each other, part for part, among those matching `counted`.
    private static func cancel(_ away: inout [PenaltyCall], _ home: inout [PenaltyCall], where counted: (PenaltyCall) -> Bool) {
        let pairs = min(away.filter(counted).map(\.parts).reduce(0, +), home.filter(counted).map(\.parts).reduce(0, +))
        guard pairs > 0 else { return }
        func drop(_ calls: inout [PenaltyCall]) {
            var left = pairs
            for index in calls.indices.reversed() where left > 0 && counted(calls[index]) {
                let taken = min(left, calls[index].parts)
                calls[index].parts -= taken
                left -= taken
            }
            calls.removeAll { $0.parts == 0 }
        }
        drop(&away)
        drop(&home)
    }
}

/// The manpower of a game as its penalties and goals make it, play by play: what each play's
/// situation code should say, and every moment it changed. Power plays are read from here,
/// so they end when their penalties end, not at whatever play the feed recorded next.
struct StrengthTimeline: Sendable {
    enum Cause: String, Sendable {
        /// Penalties called at a stoppage.
        case penalty
        /// A penalty ran out.
        case expired
        /// A goal ended a minor.
        case goal
        /// A regular-season overtime began three on three.
        case overtime
    }

    struct Change: Sendable {
        /// The play at which the change shows. It happened before that play, or, when
        /// `afterPlay` (a goal ending a minor), right after it.
        var index: Int
        var afterPlay: Bool
        /// Game seconds (`GameClockTime`).
        var time: Int
        /// The play whose period and clock it happened at (the penalty, the goal, the period's
        /// first play); nil for a penalty running out, which happens between plays.
        var source: Int?
        var from: Manpower
        var to: Manpower
        var cause: Cause
        /// Game seconds until the team short-handed now gets a skater back, unless a goal ends
        /// a minor sooner: its first penalty to run out (a double minor's whole length). Nil
        /// with no advantage.
        var advantageLeft: Int?
    }

    /// For each play, the manpower its situation code should show: for a goal or a penalty,
    /// the moment before it. nil for a play without a time.
    private(set) var atPlay: [Manpower?] = []
    private(set) var changes: [Change] = []

    init(_ snapshot: GameSnapshot) {
        var box = PenaltyBox()
        var base = 5
        var current = Manpower.fiveOnFive
        var period: Int?
        // Calls at the stoppage being read; they take effect at the next play that isn't one.
        var pending: (time: Int, source: Int, calls: [PenaltyCall])?

        func record(_ index: Int, after: Bool = false, at time: Int, source: Int? = nil, _ cause: Cause) {
            let now = box.manpower(base: base)
            guard now != current else { return }
            let left = now.advantage.flatMap { side in box.timeUntilBack(side == .away ? .home : .away, at: time) }
            changes.append(
                Change(
                    index: index, afterPlay: after, time: time, source: source, from: current, to: now, cause: cause, advantageLeft: left))
            current = now
        }

        for (index, play) in snapshot.plays.enumerated() {
            // A shootout is not played with penalties: what was still running ended with overtime.
            guard play.periodDescriptor?.periodType != .so,
                let time = GameClockTime.seconds(period: play.periodDescriptor?.number, clock: play.timeInPeriod)
            else {
                atPlay.append(nil)
                continue
            }
            let side: Manpower.Side? = snapshot.team(of: play).map { snapshot.isHome($0) ? .home : .away }
            let isPenalty = play.typeDescKey == .penalty
            let isGoal = play.typeDescKey == .goal
            // Calls take effect at the next play that isn't a call: the recordings' stoppage
            // plays in the same second already show them.
            if let open = pending, !isPenalty || open.time != time {
                box.assess(open.calls, at: open.time)
                record(index, at: open.time, source: open.source, .penalty)
                pending = nil
            }
            // A goal in the last second of a penalty was scored before it ran out.
            while let end = box.nextEnd, end < time || (end == time && !isGoal) {
                box.expire(at: end)
                record(index, at: end, .expired)
            }
            if let number = play.periodDescriptor?.number, number != period {
                period = number
                let threeOnThree = play.periodDescriptor?.periodType == .ot && snapshot.gameType?.isPlayoffs != true
                base = threeOnThree ? 3 : 5
                record(index, at: time, source: index, .overtime)
            }
            atPlay.append(current)
            if isPenalty {
                var calls = pending?.calls ?? []
                if let side, let call = PenaltyCall(play.details, side: side) {
                    PenaltyCall.add(call, player: play.details?.committedByPlayerId, to: &calls)
                }
                pending = (time, pending?.source ?? index, calls)
            }
            let penaltyShot = SituationCode(play.situationCode)?.isPenaltyShot ?? false
            if isGoal, let side, play.periodDescriptor?.periodType != .so, !penaltyShot,
                box.goal(by: side, at: time, base: base)
            {
                record(index, after: true, at: time, source: index, .goal)
            }
        }
    }
}

/// Game time in seconds from the opening faceoff: periods of 20 minutes, so a penalty runs
/// on across an intermission and into overtime.
enum GameClockTime {
    static func seconds(period: Int?, clock: String?) -> Int? {
        guard let period, Plausible.period.contains(period), let seconds = seconds(clock) else { return nil }
        return (period - 1) * 1200 + seconds
    }

    /// "MM:SS" in seconds (`NHLClock`).
    static func seconds(_ clock: String?) -> Int? { NHLClock.seconds(clock) }

    /// A length of game time as a penalty clock shows it: "2:00", "0:31".
    static func text(_ seconds: Int) -> String {
        String(format: "%d:%02d", seconds / 60, seconds % 60)
    }

    /// The period and "MM:SS" into it of a game time; the end of a period reads 20:00.
    static func clock(_ time: Int) -> (period: Int, clock: String) {
        let period = time <= 0 ? 1 : (time - 1) / 1200 + 1
        let seconds = time - (period - 1) * 1200
        return (period, String(format: "%02d:%02d", seconds / 60, seconds % 60))
    }
}
