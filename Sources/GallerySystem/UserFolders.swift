import FoundationEssentials
import SystemPackage

/// The user's folders of the XDG base directory specification, each with `imagegallery`
/// appended: one reading of the environment for the cache, the version store, the editor.
package enum UserFolders {
    /// `$XDG_CACHE_HOME/imagegallery`, else `~/.cache/imagegallery`.
    package static func cache(_ environment: [String: String] = CurrentProcess.variables("XDG_CACHE_HOME", "HOME")) -> FilePath {
        base("XDG_CACHE_HOME", fallback: ".cache", environment).appending("imagegallery")
    }

    /// `$XDG_STATE_HOME/imagegallery`, else `~/.local/state/imagegallery`.
    package static func state(_ environment: [String: String] = CurrentProcess.variables("XDG_STATE_HOME", "HOME")) -> FilePath {
        base("XDG_STATE_HOME", fallback: ".local/state", environment).appending("imagegallery")
    }

    /// `$XDG_RUNTIME_DIR/imagegallery` where the session has one, else the state folder: where
    /// a running program leaves word of itself for the user's other processes.
    package static func runtime(
        _ environment: [String: String] = CurrentProcess.variables("XDG_RUNTIME_DIR", "XDG_STATE_HOME", "HOME")
    ) -> FilePath {
        if let runtime = environment["XDG_RUNTIME_DIR"], GalleryFileSystem.isAbsolute(runtime) {
            return FilePath(runtime).appending("imagegallery")
        }
        return state(environment).appending("run")
    }

    /// The spec says a relative path in these variables is invalid and must be ignored.
    static func base(_ variable: String, fallback: String, _ environment: [String: String]) -> FilePath {
        environment[variable].flatMap { GalleryFileSystem.isAbsolute($0) ? FilePath($0) : nil } ?? home(environment).appending(fallback)
    }

    /// `$HOME`, else the password database's home folder, else `/` (as a shell would give).
    package static func home(_ environment: [String: String]) -> FilePath {
        FilePath(environment["HOME"] ?? Syscalls.homeFolder ?? "/")
    }
}
