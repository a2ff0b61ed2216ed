import Foundation

/// The config file as a thing edited in place: through symlinks, one edit at a time.
public enum ConfigFile {
    /// The file a path names once every symlink is followed, also when the last link points
    /// at a file that does not exist yet (a config kept in a dotfiles repository, not yet
    /// written). A path that is no link is returned as it is.
    public static func resolve(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return current }
            let target = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = (current as NSString).deletingLastPathComponent
            current = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
        }
        return current
    }

    /// Runs `body` holding an exclusive lock shared by every Faceoff process editing the
    /// config at `path` (`follow`, `unfollow`, `config init`), so that two edits at once both
    /// land: each reads the file as the other left it. The lock is taken on the folder that
    /// holds the file (the config itself is replaced on every write, so it can't carry one).
    public static func locked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        let folder = (resolve(path) as NSString).deletingLastPathComponent
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
