import Glibc
import SystemPackage

// inotify, for watching folders. See Syscalls.swift.

extension Syscalls {
    /// What a folder watch asks to hear of: names that appear, go, are renamed in or out, or are
    /// written and closed; and the folder itself going away.
    static let folderChanges: UInt32 = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                                              | IN_DELETE_SELF | IN_MOVE_SELF)

    static func inotifyInit() -> Result<FileDescriptor, Errno> {
        retrying { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }.map(FileDescriptor.init(rawValue:))
    }

    static func inotifyWatch(_ fd: FileDescriptor, folder: String) -> Result<Int32, Errno> {
        retrying { inotify_add_watch(fd.rawValue, folder, folderChanges) }
    }

    /// Waits up to `milliseconds` for `fd` to be readable; false on timeout.
    static func waitReadable(_ fd: FileDescriptor, milliseconds: Int32) -> Result<Bool, Errno> {
        var entry = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
        return retrying { poll(&entry, 1, milliseconds) }.map { $0 > 0 }
    }

    /// The names in the inotify events `fd` has ready (empty when none), and whether the
    /// watched folder itself went away.
    static func readInotifyNames(_ fd: FileDescriptor) -> Result<(names: [String], folderGone: Bool), Errno> {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let count = buffer.withUnsafeMutableBytes { read(fd.rawValue, $0.baseAddress, $0.count) }
        if count < 0 {
            let error = lastError
            return error == .wouldBlock || error == .interrupted ? .success(([], false)) : .failure(error)
        }
        var names: [String] = []
        var folderGone = false
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let (mask, length) = buffer.withUnsafeBytes { raw -> (UInt32, Int) in
                let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                return (event.mask, Int(event.len))
            }
            if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { folderGone = true }
            if length > 0, offset + header + length <= count {
                let bytes = buffer[(offset + header) ..< (offset + header + length)].prefix { $0 != 0 }
                names.append(String(decoding: bytes, as: UTF8.self))
            }
            offset += header + length
        }
        return .success((names, folderGone))
    }
}
