"""Parse .ics files with the icalendar package, an implementation independent of libical.

Usage: python check_ics.py FILE...
Prints one JSON object: {file: {"events": N, "all_day": [UID...], "uids": [...], "summaries": [...],
"errors": [...]}} and exits 1 if any file has a parse error, an event without
UID/DTSTART/DTEND/SUMMARY, a duplicate UID, or a DTSTART/DTEND that is not a UTC date-time; an
all-day event (a game with no time yet) has two dates instead, the end after the start, and no
alarm.
"""
import datetime
import json
import sys

import icalendar

report = {}
failed = False
for path in sys.argv[1:]:
    errors = []
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        calendar = icalendar.Calendar.from_ical(raw)
    except Exception as error:  # noqa: BLE001 - any parse failure is the finding
        report[path] = {"events": 0, "uids": [], "summaries": [], "errors": [f"parse: {error}"]}
        failed = True
        continue
    for component in calendar.walk():
        for problem in getattr(component, "errors", []):
            errors.append(f"{component.name}: {problem}")
    events = calendar.walk("VEVENT")
    uids = []
    summaries = []
    all_day = []
    for event in events:
        for key in ("UID", "DTSTART", "DTEND", "SUMMARY", "DTSTAMP"):
            if key not in event:
                errors.append(f"event without {key}")
        start, end = event.get("DTSTART"), event.get("DTEND")
        if start is not None and end is not None and not isinstance(start.dt, datetime.datetime):
            all_day.append(str(event.get("UID")))
            if isinstance(end.dt, datetime.datetime) or not end.dt > start.dt:
                errors.append(f"all-day event {event.get('UID')} without a later end date")
            if event.walk("VALARM"):
                errors.append(f"all-day event {event.get('UID')} with an alarm")
            uids.append(str(event.get("UID")))
            summaries.append(str(event.get("SUMMARY")))
            continue
        for key in ("DTSTART", "DTEND"):
            value = event.get(key)
            if value is not None:
                moment = value.dt
                if not isinstance(moment, datetime.datetime) or moment.utcoffset() != datetime.timedelta(0):
                    errors.append(f"{key} is not UTC: {moment!r}")
        uids.append(str(event.get("UID")))
        summaries.append(str(event.get("SUMMARY")))
    if len(set(uids)) != len(uids):
        errors.append("duplicate UIDs")
    if calendar.get("VERSION") != "2.0" or "PRODID" not in calendar:
        errors.append("VERSION or PRODID missing")
    report[path] = {"events": len(events), "all_day": all_day, "uids": uids, "summaries": summaries, "errors": errors}
    failed = failed or bool(errors)

json.dump(report, sys.stdout, ensure_ascii=False)
sys.exit(1 if failed else 0)
