import Foundation

/// A file or folder Faceoff could not write, in plain words: which path, why, what to do.
/// Every file Faceoff writes (feeds, the config, logos, the run lock) fails with this.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    /// The errno of the failed call.
    public let code: Int32
    public let action: String

    public init(_ action: String, path: String, code: Int32) {
        self.action = action
        self.path = path
        self.code = code
    }

    public var description: String { "cannot \(action) \(path): \(Self.reason(code))" }

    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: "the disk is full; free some space and it is written on the next try"
        case EROFS: "the file system is read-only; remount it read-write or point Faceoff elsewhere (XDG_DATA_HOME, XDG_STATE_HOME)"
        case EACCES, EPERM: "permission denied; check who owns that folder"
        case ENOTDIR: "a part of that path is a file, not a folder"
        case EIO: "an input/output error (a failing disk?)"
        default: String(cString: strerror(code))
        }
    }

    /// Creates `path` and the folders above it, as `mkdir -p` does.
    public static func makeDirectories(_ path: String) throws(FileError) {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            built += "/" + part
            if mkdir(built, 0o755) != 0, errno != EEXIST { throw FileError("create the folder", path: built, code: errno) }
        }
    }
}

/// Writes a file so that readers see the old or the new content, never a part.
public enum AtomicFile {
    public static func write(_ text: String, to path: String, permissions: Int = 0o644) throws(FileError) {
        // Write through a symlink (a config kept in a dotfiles repository) to the file it names.
        let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let path = url.path
        let directory = url.deletingLastPathComponent()
        try FileError.makeDirectories(directory.path)
        let existing = try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(existing ?? permissions))
        guard descriptor >= 0 else { throw FileError("write", path: path, code: errno) }
        var failure: Int32 = 0
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(temporary.path, path) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary.path)
            throw FileError("write", path: path, code: code)
        }
    }
}
