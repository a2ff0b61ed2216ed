"""The Python side of bench/run.sh: the same 33 feeds built with the icalendar package.

Reads the schedules CalendarBench exported (DIR/TEAM.json), then times, over N iterations,
decoding them (json) and building + serialising + writing the 33 feeds (icalendar), with the
same properties per event as Faceoff writes. Titles and descriptions are plain f-strings
(Faceoff renders Mustache templates, which is more work, not less).

Usage: python build_ics.py DIR [ITERATIONS]
"""
import datetime
import json
import os
import resource
import statistics
import sys
import tempfile
import time

import icalendar

directory = sys.argv[1]
iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 20
teams = sorted(name[:-5] for name in os.listdir(directory) if name.endswith(".json"))
raw = {team: open(os.path.join(directory, f"{team}.json"), "rb").read() for team in teams}
stamp = datetime.datetime(2026, 1, 15, 12, 0, tzinfo=datetime.timezone.utc)


def decode():
    return {team: json.loads(data) for team, data in raw.items()}


def event_for(game, perspective):
    away, home = game["awayTeam"], game["homeTeam"]
    start = datetime.datetime.fromisoformat(game["startTimeUTC"].replace("Z", "+00:00"))
    if perspective:
        ours, theirs = (home, away) if home["abbrev"] == perspective else (away, home)
        summary = f"{ours['commonName']['default']} {'vs' if ours is home else '@'} {theirs['commonName']['default']}"
        if "score" in ours:
            summary = f"{ours['commonName']['default']} {ours['score']}–{theirs['score']} {theirs['commonName']['default']}"
    else:
        summary = f"{away['commonName']['default']} @ {home['commonName']['default']}"
    description = "\n".join([
        f"{away['placeName']['default']} {away['commonName']['default']} @ {home['placeName']['default']} {home['commonName']['default']}",
        "Regular season",
        game["venue"]["default"],
        "TV: " + ", ".join(b["network"] for b in game["tvBroadcasts"]),
        "https://www.nhl.com" + game["gameCenterLink"],
    ])
    event = icalendar.Event()
    event.add("uid", f"nhl-game-{game['id']}@faceoff")
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("dtend", start + datetime.timedelta(hours=3))
    event.add("summary", summary)
    event.add("description", description)
    event.add("location", game["venue"]["default"])
    event.add("geo", (43.6435, -79.3791))
    event.add("url", "https://www.nhl.com" + game["gameCenterLink"])
    for category in ("NHL", "Regular season", away["abbrev"], home["abbrev"]):
        event.add("categories", category)
    event.add("status", "CONFIRMED")
    event.add("sequence", 0)
    event.add("last-modified", stamp)
    event.add("transp", "TRANSPARENT")
    alarm = icalendar.Alarm()
    alarm.add("action", "DISPLAY")
    alarm.add("trigger", datetime.timedelta(hours=-1))
    alarm.add("description", summary)
    event.add_component(alarm)
    return event


def publish(schedules, out):
    os.makedirs(out, exist_ok=True)
    count = 0
    feeds = [(team, [team]) for team in teams] + [("all", teams)]
    for name, members in feeds:
        calendar = icalendar.Calendar()
        calendar.add("prodid", "-//Faceoff//bench//EN")
        calendar.add("version", "2.0")
        calendar.add("calscale", "GREGORIAN")
        calendar.add("x-wr-calname", name)
        seen = set()
        games = []
        for team in members:
            for game in schedules[team]["games"]:
                if game["id"] not in seen:
                    seen.add(game["id"])
                    games.append((game, None if name == "all" else team))
        games.sort(key=lambda entry: (entry[0]["startTimeUTC"], entry[0]["id"]))
        for game, perspective in games:
            calendar.add_component(event_for(game, perspective))
            count += 1
        with open(os.path.join(out, f"{name}.ics"), "wb") as handle:
            handle.write(calendar.to_ical())
    return count


work = tempfile.mkdtemp(prefix="faceoff-bench-py-")
events = publish(decode(), os.path.join(work, "warm"))
decode_ms, build_ms, end_ms = [], [], []
for iteration in range(iterations):
    started = time.perf_counter()
    schedules = decode()
    decode_ms.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    publish(schedules, os.path.join(work, f"plain-{iteration}"))
    build_ms.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    publish(decode(), os.path.join(work, f"e2e-{iteration}"))
    end_ms.append((time.perf_counter() - started) * 1000)


def summary(samples):
    ordered = sorted(samples)
    return f"median {statistics.median(ordered):7.2f} ms   p90 {ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]:7.2f} ms   min {ordered[0]:7.2f} ms"


print(f"python {sys.version.split()[0]}, icalendar {icalendar.__version__}: {events} events, {iterations} iterations")
print(f"decode 32 club schedules (json):              {summary(decode_ms)}")
print(f"build + serialise + write 33 feeds:           {summary(build_ms)}")
print(f"end to end (decode + build + serialise + write): {summary(end_ms)}")
print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
