import FaceoffBase
import Foundation

/// The config file as a thing edited in place: one edit at a time, private to its user.
public enum ConfigFile {
    /// Writes the config: mode 0600 for a new file (a config may hold webhook secrets and
    /// tokens), an existing one keeps its own; through a symlink, the file it names.
    public static func write(_ text: String, to path: String) throws(FileError) {
        try AtomicFile.write(text, to: path, permissions: 0o600)
    }

    /// Runs `body` holding an exclusive lock shared by every Faceoff process editing the
    /// config at `path` (`follow`, `unfollow`, `config init`), so that two edits at once both
    /// land: each reads the file as the other left it. The lock is taken on the folder that
    /// holds the file (the config itself is replaced on every write, so it can't carry one).
    public static func locked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let folder = (AtomicFile.destination(of: path) as NSString).deletingLastPathComponent
        try FileError.makeDirectories(folder.isEmpty ? "." : folder)
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError("open the folder", path: folder, code: errno) }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw FileError("lock the folder", path: folder, code: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
