import Foundation

/// A file or folder Faceoff could not write, in plain words: which path, why, what to do.
/// Every file Faceoff writes (feeds, the config, logos, the run lock) fails with this.
public struct FileError: ReportedError, Sendable, CustomStringConvertible {
    public let path: String
    /// The errno of the failed call.
    public let code: Int32
    public let action: String

    /// Words that say more than the errno can (what kind of file it is, how big).
    public let detail: String?

    public init(_ action: String, path: String, code: Int32, detail: String? = nil) {
        self.action = action
        self.path = path
        self.code = code
        self.detail = detail
    }

    public var description: String { "cannot \(action) \(path): \(reason)" }

    /// Why, in words.
    public var reason: String { detail ?? Self.reason(code) }

    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }

    public static func reason(_ code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: "the disk is full; free some space and it is written on the next try"
        case EROFS: "the file system is read-only; remount it read-write or point Faceoff elsewhere (XDG_DATA_HOME, XDG_STATE_HOME)"
        case EACCES, EPERM: "permission denied; check who owns that folder"
        case ENOTDIR: "a part of that path is a file, not a folder"
        case EISDIR: "it is a folder, not a file"
        case ENOENT: "no such file or folder"
        case EILSEQ: "it is not UTF-8 text"
        case EIO: "an input/output error (a failing disk?)"
        default: String(cString: strerror(code))
        }
    }

    /// The most a file Faceoff reads (the config, a template) may hold: far more than either
    /// ever does, far less than a mistake can (a device, a log).
    public static let readLimit = 1 << 20

    /// The UTF-8 text of the regular file at `path` (links followed), at most `limit` bytes:
    /// a device, a FIFO or a folder is refused at once (never read, never waited on).
    public static func readText(_ path: String, limit: Int = readLimit) throws(FileError) -> String {
        // Non-blocking, so opening a FIFO with no writer returns instead of waiting for one.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw FileError("read", path: path, code: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileError("read", path: path, code: errno) }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            let what: String
            switch kind {
            case S_IFDIR: what = "a folder"
            case S_IFIFO: what = "a FIFO (a named pipe)"
            case S_IFCHR, S_IFBLK: what = "a device"
            case S_IFSOCK: what = "a socket"
            default: what = "not a plain file"
            }
            throw FileError("read", path: path, code: EINVAL, detail: "it is \(what), not a regular file; point Faceoff at a text file")
        }
        let tooBig = FileError(
            "read", path: path, code: EFBIG,
            detail: "it is larger than a config or template could be (\(limit / 1024) KB at most); check that the path names the right file"
        )
        if info.st_size > limit { throw tooBig }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FileError("read", path: path, code: errno)
            }
            if count == 0 { break }
            bytes += chunk.prefix(count)
            // A file that grows while it is read.
            if bytes.count > limit { throw tooBig }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw FileError("read", path: path, code: EILSEQ) }
        return text
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
    /// A file that exists keeps its mode; a new one gets `permissions`. Through a symlink (a
    /// config kept in a dotfiles repository) it writes the file the link names, and the link
    /// stays a link.
    public static func write(_ text: String, to path: String, permissions: Int = 0o644) throws(FileError) {
        let url = URL(fileURLWithPath: destination(of: path))
        let path = url.path
        let directory = url.deletingLastPathComponent()
        try FileError.makeDirectories(directory.path)
        var status = stat()
        let existing = stat(path, &status) == 0 ? mode_t(status.st_mode & 0o7777) : nil
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        // A new file: `permissions` as narrowed by the umask, as for any file created.
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else { throw FileError("write", path: path, code: errno) }
        var failure: Int32 = 0
        // An existing one: exactly its mode, which the umask would have narrowed.
        if let existing, fchmod(descriptor, existing) != 0 { failure = errno }
        let bytes = Array(text.utf8)
        if failure == 0 {
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
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0, rename(temporary.path, path) == 0 else {
            let code = failure != 0 ? failure : errno
            unlink(temporary.path)
            throw FileError("write", path: path, code: code)
        }
    }

    /// The file a write to `path` lands in: every symlink followed, also when the last link
    /// points at a file that does not exist yet (a config kept in a dotfiles repository, not
    /// yet written). A path that is no link is returned as it is.
    public static func destination(of path: String) -> String {
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
}
