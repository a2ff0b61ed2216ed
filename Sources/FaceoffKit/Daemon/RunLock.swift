import FaceoffBase
import Foundation

/// One `faceoff run` per store: an exclusive `flock` on `run.lock` beside it, held for the
/// life of the process (the kernel drops it when the process dies, however it dies).
public final class RunLock: Sendable {
    let descriptor: Int32
    public let path: String

    public struct Held: Error, CustomStringConvertible {
        public let path: String
        public let pid: String?
        public var description: String {
            "another `faceoff run` is already running for this store\(pid.map { " (pid \($0))" } ?? "") (lock \(path)); stop it first (systemctl --user stop faceoff), or give this one another XDG_STATE_HOME"
        }
    }

    public init(directory: String) throws {
        try FileError.makeDirectories(directory)
        path = directory + "/run.lock"
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileError("open the lock file", path: path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let pid = (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            throw Held(path: path, pid: pid?.isEmpty == false ? pid : nil)
        }
        ftruncate(descriptor, 0)
        let text = "\(getpid())\n"
        _ = text.withCString { write(descriptor, $0, strlen($0)) }
    }

    /// The pid of the `faceoff run` holding the lock in `directory`, or nil when none runs.
    public static func holder(directory: String) -> String? {
        let descriptor = open(directory + "/run.lock", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0 else {
            flock(descriptor, LOCK_UN)
            return nil
        }
        let pid = (try? String(contentsOfFile: directory + "/run.lock", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return pid?.isEmpty == false ? pid : "?"
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
