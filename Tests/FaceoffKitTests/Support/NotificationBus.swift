import Foundation

/// What the notification tests need besides notify-send: a D-Bus daemon for a private session
/// bus and the Python modules of the tests' notification daemon (Debian's `dbus`,
/// `python3-dbus`, `python3-gi`). The README's test command skips those tests without them;
/// `.ci/run` installs them and sets FACEOFF_TEST_ALL=1, so there they run (and fail, if broken).
enum NotificationBus {
    static let available =
        ProcessInfo.processInfo.environment["FACEOFF_TEST_ALL"] == "1"
        || ["/usr/bin/dbus-daemon", "/usr/bin/notify-send", "/usr/lib/python3/dist-packages/dbus", "/usr/lib/python3/dist-packages/gi"]
            .allSatisfy(FileManager.default.fileExists(atPath:))
}
