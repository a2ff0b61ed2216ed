"""A desktop notification daemon for the tests: owns org.freedesktop.Notifications on the
session bus it is given and appends every Notify call to a JSON lines file (app name, replaces
id, icon, summary, body, the urgency and category hints) before answering with an id.

    /usr/bin/python3 notification_daemon.py LOG

Needs python3-dbus and python3-gi (Debian). Prints "ready" once it owns the name.
"""
import json
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

LOG = sys.argv[1]


class Notifications(dbus.service.Object):
    def __init__(self, bus):
        self.next_id = 0
        name = dbus.service.BusName("org.freedesktop.Notifications", bus)
        super().__init__(name, "/org/freedesktop/Notifications")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        if replaces:
            notification = int(replaces)
        else:
            self.next_id += 1
            notification = self.next_id
        entry = {
            "app": str(app), "replaces": int(replaces), "icon": str(icon), "summary": str(summary), "body": str(body),
            "urgency": int(hints["urgency"]) if "urgency" in hints else None,
            "category": str(hints["category"]) if "category" in hints else None,
            "id": notification,
        }
        with open(LOG, "a") as log:
            log.write(json.dumps(entry) + "\n")
        return notification

    @dbus.service.method("org.freedesktop.Notifications", out_signature="as")
    def GetCapabilities(self):
        return ["body"]

    @dbus.service.method("org.freedesktop.Notifications", out_signature="ssss")
    def GetServerInformation(self):
        return ("faceoff-test", "faceoff", "1.0", "1.2")

    @dbus.service.method("org.freedesktop.Notifications", in_signature="u")
    def CloseNotification(self, notification):
        pass


DBusGMainLoop(set_as_default=True)
service = Notifications(dbus.SessionBus())
print("ready", flush=True)
GLib.MainLoop().run()
