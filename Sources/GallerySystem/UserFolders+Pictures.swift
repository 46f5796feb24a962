import SystemPackage

extension UserFolders {
    /// The user's Pictures folder, where the application grid's launcher opens the document
    /// browser: `$XDG_PICTURES_DIR` when it is an absolute path, else the folder xdg-user-dirs
    /// recorded in `user-dirs.dirs`, else `~/Pictures`, else the home folder. A named folder that
    /// is not there (deleted, or on a disk not mounted) is passed over for the next, so the
    /// launcher always opens somewhere rather than failing on a stale setting.
    package static func pictures(_ environment: [String: String] = CurrentProcess.environment) -> FilePath {
        let home = home(environment)
        var candidates: [FilePath] = []
        if let named = environment["XDG_PICTURES_DIR"], GalleryFileSystem.isAbsolute(named) {
            candidates.append(FilePath(named))
        }
        if let recorded = userDirectory("PICTURES", environment) { candidates.append(recorded) }
        candidates.append(home.appending("Pictures"))
        return candidates.first { PathKind.of($0) == .directory } ?? home
    }

    /// `user-dirs.dirs` is a few hundred bytes; a larger file is not one xdg-user-dirs wrote,
    /// and is not read into memory whole.
    static let userDirectoriesLimit = 64 * 1024

    /// The folder `XDG_<name>_DIR` names in `$XDG_CONFIG_HOME/user-dirs.dirs` (default
    /// `~/.config/user-dirs.dirs`), or nil when the file, the line or a usable value is missing.
    /// Any failure to read it only means the next place is tried, as GLib and xdg-user-dir do.
    package static func userDirectory(_ name: String, _ environment: [String: String]) -> FilePath? {
        let file = base("XDG_CONFIG_HOME", fallback: ".config", environment).appending("user-dirs.dirs")
        guard let opened = try? GalleryFile.openForReading(file),
              let bytes = try? opened.read(at: 0, count: userDirectoriesLimit + 1),
              bytes.count <= userDirectoriesLimit
        else { return nil }
        return userDirectory(name, in: bytes, home: home(environment))
    }

    /// Reads the file as xdg-user-dirs writes it and GLib reads it: lines such as
    /// `XDG_PICTURES_DIR="$HOME/Pictures"` or `XDG_PICTURES_DIR="/srv/photos"`, `\` escaping the
    /// byte after it, anything else (comments, other shell) skipped. The file is shell, where a
    /// later assignment replaces an earlier one, so the last usable line wins. Bytes, not text:
    /// a folder's name need not be UTF-8.
    static func userDirectory(_ name: String, in text: [UInt8], home: FilePath) -> FilePath? {
        let key = Array("XDG_\(name)_DIR".utf8)
        let quote = UInt8(ascii: "\""), slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")
        let blank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var found: FilePath?
        for line in text.split(separator: UInt8(ascii: "\n")) {
            var rest = line.drop(while: blank)
            guard rest.starts(with: key) else { continue }
            rest = rest.dropFirst(key.count).drop(while: blank)
            guard rest.first == UInt8(ascii: "=") else { continue }
            rest = rest.dropFirst().drop(while: blank)
            guard rest.first == quote else { continue }
            rest = rest.dropFirst()
            let relative = rest.starts(with: "$HOME".utf8)
            if relative {
                rest = rest.dropFirst(5)
                // "$HOMEX" is another variable, not the home folder.
                guard rest.first == slash || rest.first == quote else { continue }
            } else if rest.first != slash {
                continue
            }
            var value: [UInt8] = []
            var closed = false, escaped = false
            for byte in rest {
                if escaped {
                    value.append(byte)
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    closed = true
                    break
                } else {
                    value.append(byte)
                }
            }
            // A NUL cannot be in a path; an unclosed quote is a line cut short.
            guard closed, !value.contains(0) else { continue }
            let path = filePath(value)
            if relative {
                // FilePath.pushing replaces the base with an absolute path: the part after
                // $HOME is joined as components, its leading slashes dropped.
                found = home.pushing(FilePath(root: nil, path.components))
            } else {
                found = path
            }
        }
        return found
    }

    /// A path from its bytes as the kernel takes them, whether or not they are UTF-8.
    private static func filePath(_ bytes: [UInt8]) -> FilePath {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { FilePath(platformString: $0.baseAddress!) }
    }
}
