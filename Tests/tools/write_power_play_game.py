#!/usr/bin/env python3
"""Writes Tests/Fixtures/games/2025020204-CAR-at-NJD-power-plays.json: an invented regular-season
game, CAR at NJD, that puts every shape of power play the live engine must follow into one feed.

Each play's situation code below is written by hand from the NHL's rules (away goalie, away
skaters, home skaters, home goalie), not computed, so the test that derives strength from the
penalties has something independent to agree with. Run it from the repository root after
editing the script; the written file is what the tests read.
"""
import json
import sys

AWAY = {"id": 12, "abbrev": "CAR", "name": "Hurricanes", "place": "Carolina"}
HOME = {"id": 1, "abbrev": "NJD", "name": "Devils", "place": "New Jersey"}
A, H = AWAY["id"], HOME["id"]

# Invented players: skaters and a goalie a side.
PLAYERS = {
    A: [(8491201, "Aaron", "Brandt", "C"), (8491202, "Cole", "Dunmore", "L"), (8491203, "Eli", "Fairbanks", "D"),
        (8491204, "Gus", "Holloway", "R"), (8490201, "Ivan", "Jelinek", "G")],
    H: [(8491301, "Kurt", "Lindqvist", "C"), (8491302, "Milo", "Novak", "R"), (8491303, "Owen", "Parrish", "D"),
        (8491304, "Quinn", "Rourke", "L"), (8490301, "Stan", "Tamberg", "G")],
}
GOALIE = {A: 8490201, H: 8490301}

# (period, time, type, code, team, extra details)
# Codes: the moment before a goal or a penalty; the state after it on the faceoff that follows.
SCRIPT = [
    (1, "00:00", "period-start", "1551", None, {}),
    (1, "00:00", "faceoff", "1551", A, {}),
    (1, "02:10", "shot-on-goal", "1551", H, {}),
    # NJD minor: CAR 5 on 4.
    (1, "03:00", "penalty", "1551", H, {"typeCode": "MIN", "descKey": "tripping", "duration": 2}),
    (1, "03:00", "faceoff", "1541", A, {}),
    # A second NJD minor: 5 on 3 until 5:00, then 5 on 4 until 5:40.
    (1, "03:40", "penalty", "1541", H, {"typeCode": "MIN", "descKey": "hooking", "duration": 2}),
    (1, "03:40", "faceoff", "1531", A, {}),
    (1, "04:10", "shot-on-goal", "1531", A, {}),
    (1, "05:12", "hit", "1541", H, {}),
    (1, "05:55", "shot-on-goal", "1551", A, {}),
    # CAR minor, then an NJD minor 30 s later: four on four until CAR's ends at 9:00.
    (1, "07:00", "penalty", "1551", A, {"typeCode": "MIN", "descKey": "slashing", "duration": 2}),
    (1, "07:00", "faceoff", "1451", H, {}),
    (1, "07:30", "penalty", "1451", H, {"typeCode": "MIN", "descKey": "interference", "duration": 2}),
    (1, "07:30", "faceoff", "1441", A, {}),
    # 9:00: CAR back to five, NJD still short until 9:30: a new power play.
    (1, "09:05", "shot-on-goal", "1541", A, {}),
    (1, "09:44", "shot-on-goal", "1551", H, {}),
    # Delayed penalty to NJD: CAR's goalie goes to the bench, not a pull.
    (1, "11:00", "delayed-penalty", "1551", H, {}),
    (1, "11:03", "shot-on-goal", "0651", A, {}),
    (1, "11:05", "penalty", "0651", H, {"typeCode": "MIN", "descKey": "holding", "duration": 2}),
    (1, "11:05", "faceoff", "1541", A, {}),
    # CAR scores on the power play: the minor ends.
    (1, "11:30", "goal", "1541", A, {"scorer": 8491201, "assists": [8491202, 8491203]}),
    (1, "11:30", "faceoff", "1551", H, {}),
    # CAR major: a goal against doesn't end it.
    (1, "14:00", "penalty", "1551", A, {"typeCode": "MAJ", "descKey": "boarding", "duration": 5}),
    (1, "14:00", "faceoff", "1451", H, {}),
    (1, "15:00", "goal", "1451", H, {"scorer": 8491301, "assists": [8491302]}),
    (1, "15:00", "faceoff", "1451", A, {}),
    # NJD minor during its own power play: four on four (CAR's major runs to 19:00).
    (1, "16:30", "penalty", "1451", H, {"typeCode": "MIN", "descKey": "tripping", "duration": 2}),
    (1, "16:30", "faceoff", "1441", A, {}),
    # 18:30: NJD's minor is over, CAR's major isn't: an NJD power play until 19:00.
    (1, "18:40", "shot-on-goal", "1451", H, {}),
    (1, "19:20", "hit", "1551", A, {}),
    # CAR minor with 10 s left: the power play carries into the 2nd and ends at 2nd 01:50.
    (1, "19:50", "penalty", "1551", A, {"typeCode": "MIN", "descKey": "high-sticking", "duration": 2}),
    (1, "19:50", "faceoff", "1451", H, {}),
    (1, "20:00", "period-end", "1451", None, {}),
    (2, "00:00", "period-start", "1451", None, {}),
    (2, "00:00", "faceoff", "1451", H, {}),
    (2, "02:00", "shot-on-goal", "1551", H, {}),
    # NJD double minor: a CAR goal ends the first half only.
    (2, "04:00", "penalty", "1551", H, {"typeCode": "MIN", "descKey": "high-sticking-double-minor", "duration": 4}),
    (2, "04:00", "faceoff", "1541", A, {}),
    (2, "05:00", "goal", "1541", A, {"scorer": 8491204, "assists": [8491201]}),
    (2, "05:00", "faceoff", "1541", H, {}),
    # CAR minor: four on four; NJD's second half ends at 7:00, CAR's minor at 8:00.
    (2, "06:00", "penalty", "1541", A, {"typeCode": "MIN", "descKey": "tripping", "duration": 2}),
    (2, "06:00", "faceoff", "1441", H, {}),
    (2, "07:10", "shot-on-goal", "1451", H, {}),
    (2, "08:15", "shot-on-goal", "1551", A, {}),
    # One minor each at full strength: four on four, nobody's power play.
    (2, "10:00", "penalty", "1551", A, {"typeCode": "MIN", "descKey": "roughing", "duration": 2}),
    (2, "10:00", "penalty", "1551", H, {"typeCode": "MIN", "descKey": "roughing", "duration": 2}),
    (2, "10:00", "faceoff", "1441", A, {}),
    # Another NJD minor: four on three, a new power play.
    (2, "11:00", "penalty", "1441", H, {"typeCode": "MIN", "descKey": "hooking", "duration": 2}),
    (2, "11:00", "faceoff", "1431", A, {}),
    # 12:00: the roughing minors end, 5 on 4.
    (2, "12:05", "shot-on-goal", "1541", A, {}),
    # NJD again: 5 on 3. Then CAR takes one: 4 on 3.
    (2, "12:30", "penalty", "1541", H, {"typeCode": "MIN", "descKey": "slashing", "duration": 2}),
    (2, "12:30", "faceoff", "1531", A, {}),
    (2, "12:50", "penalty", "1531", A, {"typeCode": "MIN", "descKey": "hooking", "duration": 2}),
    (2, "12:50", "faceoff", "1431", H, {}),
    # 13:00: NJD's 11:00 minor ends, four on four. 14:30: NJD's 12:30 ends, NJD up 5 on 4
    # until CAR's 12:50 minor ends at 14:50.
    (2, "13:10", "shot-on-goal", "1441", A, {}),
    (2, "14:35", "shot-on-goal", "1451", H, {}),
    (2, "15:00", "hit", "1551", A, {}),
    # Two CAR minors at once: NJD 5 on 3; an NJD goal ends one of them.
    (2, "16:00", "penalty", "1551", A, {"typeCode": "MIN", "descKey": "holding", "duration": 2}),
    # Two players: two minors to one player would be served one after the other.
    (2, "16:00", "penalty", "1551", A, {"typeCode": "MIN", "descKey": "unsportsmanlike-conduct", "duration": 2, "player": 8491204}),
    (2, "16:00", "faceoff", "1351", H, {}),
    (2, "17:00", "goal", "1351", H, {"scorer": 8491302, "assists": [8491301, 8491303]}),
    (2, "17:00", "faceoff", "1451", A, {}),
    (2, "18:20", "shot-on-goal", "1551", H, {}),
    # A CAR penalty called with a second left, NJD's goalie already on the bench for the
    # delayed call; the feed repeats that code on the 3rd's opening plays.
    (2, "19:59", "penalty", "1560", A, {"typeCode": "MIN", "descKey": "tripping", "duration": 2}),
    (2, "20:00", "period-end", "1560", None, {}),
    (3, "00:00", "period-start", "1460", None, {}),
    (3, "00:00", "faceoff", "1460", H, {}),
    (3, "00:10", "shot-on-goal", "1451", H, {}),
    (3, "02:10", "hit", "1551", A, {}),
    (3, "05:00", "goal", "1551", A, {"scorer": 8491202, "assists": []}),
    (3, "05:00", "faceoff", "1551", H, {}),
    (3, "17:30", "stoppage", "1551", None, {"reason": "icing"}),
    # NJD pulls its goalie for real, at the faceoff.
    (3, "17:30", "faceoff", "1560", H, {}),
    (3, "18:00", "shot-on-goal", "1560", H, {}),
    (3, "18:30", "goal", "1560", A, {"scorer": 8491203, "assists": [8491204], "emptyNet": True}),
    (3, "18:30", "faceoff", "1551", H, {}),
    (3, "19:10", "shot-on-goal", "1551", H, {}),
    (3, "20:00", "period-end", "1551", None, {}),
    (3, "20:00", "game-end", "1551", None, {}),
]

TYPE_CODES = {"period-start": 520, "faceoff": 502, "shot-on-goal": 506, "penalty": 509, "hit": 503, "goal": 505,
              "period-end": 521, "game-end": 524, "delayed-penalty": 535, "stoppage": 516}


def main():
    plays = []
    sog = {A: 0, H: 0}
    score = {A: 0, H: 0}
    shooter = {A: 8491201, H: 8491301}
    for number, (period, time, kind, code, team, extra) in enumerate(SCRIPT):
        minutes, seconds = map(int, time.split(":"))
        left = 1200 - minutes * 60 - seconds
        play = {
            "eventId": 100 + number,
            "periodDescriptor": {"number": period, "periodType": "REG", "maxRegulationPeriods": 3},
            "timeInPeriod": time,
            "timeRemaining": f"{left // 60:02d}:{left % 60:02d}",
            "situationCode": code,
            "homeTeamDefendingSide": "left" if period % 2 else "right",
            "typeCode": TYPE_CODES[kind],
            "typeDescKey": kind,
            "sortOrder": 10 + number * 5,
        }
        details = {}
        if team is not None:
            details["eventOwnerTeamId"] = team
        other = H if team == A else A
        if kind == "shot-on-goal":
            sog[team] += 1
            details.update({"shotType": "wrist", "shootingPlayerId": shooter[team], "goalieInNetId": GOALIE[other],
                            "awaySOG": sog[A], "homeSOG": sog[H]})
        elif kind == "faceoff":
            details.update({"winningPlayerId": PLAYERS[team][0][0], "losingPlayerId": PLAYERS[other][0][0]})
        elif kind == "hit":
            details.update({"hittingPlayerId": PLAYERS[team][1][0], "hitteePlayerId": PLAYERS[other][1][0]})
        elif kind == "penalty":
            details.update({"typeCode": extra["typeCode"], "descKey": extra["descKey"], "duration": extra["duration"],
                            "committedByPlayerId": extra.get("player", PLAYERS[team][2][0]), "drawnByPlayerId": PLAYERS[other][0][0]})
        elif kind == "goal":
            score[team] += 1
            details.update({"shotType": "snap", "scoringPlayerId": extra["scorer"], "awayScore": score[A], "homeScore": score[H]})
            for n, assist in enumerate(extra["assists"], start=1):
                details[f"assist{n}PlayerId"] = assist
            if not extra.get("emptyNet"):
                details["goalieInNetId"] = GOALIE[other]
        elif kind == "stoppage":
            details["reason"] = extra["reason"]
        if details:
            play["details"] = details
        plays.append(play)

    def side(team, goals, shots):
        return {"id": team["id"], "commonName": {"default": team["name"]}, "abbrev": team["abbrev"], "score": goals,
                "sog": shots, "placeName": {"default": team["place"]}}

    roster = [{"teamId": team, "playerId": pid, "firstName": {"default": first}, "lastName": {"default": last},
               "sweaterNumber": 10 + n, "positionCode": pos}
              for team in (A, H) for n, (pid, first, last, pos) in enumerate(PLAYERS[team])]
    game = {
        "id": 2025020204, "season": 20252026, "gameType": 2, "limitedScoring": False, "gameDate": "2025-11-08",
        "venue": {"default": "Prudential Center"}, "venueLocation": {"default": "Newark"},
        "startTimeUTC": "2025-11-09T00:00:00Z", "easternUTCOffset": "-05:00", "venueUTCOffset": "-05:00",
        "gameState": "OFF", "gameScheduleState": "OK",
        "periodDescriptor": {"number": 3, "periodType": "REG", "maxRegulationPeriods": 3},
        "awayTeam": side(AWAY, score[A], sog[A] + score[A]), "homeTeam": side(HOME, score[H], sog[H] + score[H]),
        "shootoutInUse": True, "otInUse": True,
        "clock": {"timeRemaining": "00:00", "secondsRemaining": 0, "running": False, "inIntermission": False},
        "displayPeriod": 3, "maxPeriods": 5, "regPeriods": 3, "gameOutcome": {"lastPeriodType": "REG"},
        "plays": plays, "rosterSpots": roster,
    }
    path = "Tests/Fixtures/games/2025020204-CAR-at-NJD-power-plays.json"
    with open(path, "w") as out:
        json.dump(game, out, indent=1, ensure_ascii=False)
        out.write("\n")
    print(f"{path}: {len(plays)} plays, CAR {score[A]}–{score[H]} NJD", file=sys.stderr)


if __name__ == "__main__":
    main()
