import FaceoffHTTP
import FaceoffKit
import Foundation
import Testing

/// Independent programs some tests check Faceoff with. The README's test command runs without
/// them: a test that needs one is skipped with the reason. `.ci/run` installs them all and sets
/// FACEOFF_TEST_ALL=1, which runs every such test even when its checker looks missing, so a
/// broken CI setup fails instead of skipping.
enum Checkers {
    static let all = ProcessInfo.processInfo.environment["FACEOFF_TEST_ALL"] == "1"

    /// The Python with the test packages: FACEOFF_TEST_PYTHON when set, else the repository's
    /// `.venv` (which `.ci/run` makes).
    static let venvPython: String = {
        if let named = ProcessInfo.processInfo.environment["FACEOFF_TEST_PYTHON"], !named.isEmpty { return named }
        return CLI.root.appendingPathComponent(".venv/bin/python").path
    }()

    /// That Python, when it has the `icalendar` package.
    static let python: String? = all || imports(venvPython, "icalendar") ? venvPython : nil
    /// That Python has `standardwebhooks` (the tests' webhook receiver checks signatures with it).
    static let standardWebhooks = all || imports(venvPython, "standardwebhooks")
    static let khal = all || FileManager.default.isExecutableFile(atPath: "/usr/bin/khal")
    static let vdirsyncer = all || FileManager.default.isExecutableFile(atPath: "/usr/bin/vdirsyncer")

    /// curl, which the Home Assistant light example (contrib/exec/ha-light-flash) calls.
    static let curl = all || FileManager.default.isExecutableFile(atPath: "/usr/bin/curl")

    /// A Mosquitto broker and its clients (apt-get install mosquitto mosquitto-clients): the
    /// MQTT sink's tests run against the real thing.
    static let mosquitto = all || Mosquitto.available

    /// libfaketime's `faketime` (apt-get install faketime): a run at another date, as the
    /// process sees it.
    static let faketime = all || FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime")

    static let noMosquitto: Comment = "needs mosquitto and mosquitto-clients (apt-get install mosquitto mosquitto-clients)"
    static let noWebhookChecker: Comment = "needs .venv with the standardwebhooks package (.ci/run makes it)"
    static let noCurl: Comment = "needs curl (apt-get install curl) to run the Home Assistant light example"

    /// Whether `python` can import `module`. Once per checker, for a few milliseconds: the one
    /// place a test waits on a program while holding its thread.
    private static func imports(_ python: String, _ module: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python) else { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: python)
        probe.arguments = ["-c", "import \(module)"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        probe.terminationHandler = { _ in exited.signal() }
        guard (try? probe.run()) != nil else { return false }
        exited.wait()
        return probe.terminationStatus == 0
    }
}
