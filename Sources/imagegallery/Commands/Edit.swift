import ArgumentParser
import FoundationEssentials
import GalleryPrograms
import GallerySystem

extension ImageGallery {
    /// `edit` hands over to `imagegallery-editor`, the server, which must not live in this
    /// binary (every thumbnail and validation starts it): this process becomes the editor, so
    /// the terminal, the signals and the exit status are the editor's own.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Edit galleries in the web browser: drag and drop, captions, undo, autosave.",
            discussion: """
                Starts a local server (imagegallery-editor) for the galleries in each PATH, a folder or a \
                gallery file (the current folder when none is given), and opens the browser with xdg-open on \
                a one-time link. Only this user's browser can use it: the link's key becomes a private cookie. \
                A second `edit` of the same paths opens a new page on the running server. The server stops 30 \
                seconds after the last page closes, or on Ctrl+C or SIGTERM, and saves every open gallery \
                first.

                --pictures opens the galleries of your Pictures folder: $XDG_PICTURES_DIR when it is an \
                absolute path to a folder, else the one xdg-user-dirs recorded in \
                $XDG_CONFIG_HOME/user-dirs.dirs (default ~/.config/user-dirs.dirs), else ~/Pictures, else \
                your home folder. It is what the "Image Galleries" launcher of the application grid runs.

                Exit status: 0 when the editor stopped and every gallery was saved; 64 usage (--pictures \
                with a PATH among them); 66 a PATH is not a folder or a gallery; 69 the editor cannot start \
                or listen (or imagegallery-editor is missing); 74 a gallery's final save failed (the message \
                names it).
                """
        )

        @Argument(help: "Folders and gallery files to edit (default: the current folder).")
        var paths: [String] = []

        @Flag(help: "Edit the galleries of your Pictures folder ($XDG_PICTURES_DIR, else ~/Pictures, else your home folder).")
        var pictures = false

        @Option(help: "The port on 127.0.0.1 and ::1 (default: a free one).")
        var port: Int?

        @Flag(help: "Print the link instead of opening the browser.")
        var noOpen = false

        @Flag(help: "Print {\"url\", \"pid\"} as one JSON line, for scripts.")
        var json = false

        @Option(help: "The largest file an import takes, in bytes; never more than the free space of the folder it goes to, less 1 GiB (default: 4 GiB).")
        var maxImportBytes: Int?

        /// How long the editor waits for a first page before it stops (default 300 s). Tests set
        /// it: a suite that keeps the machine busy may reach an editor later than that.
        @Option(help: .hidden)
        var firstPageSeconds: Double?

        func validate() throws {
            if pictures && !paths.isEmpty { throw ValidationError("--pictures and a PATH exclude each other") }
        }

        func run() throws {
            let editor: String
            switch EditorProgram.program.locate(environment: CurrentProcess.environment) {
            case .success(let path): editor = path
            case .failure(let failure): throw CommandFailure(message: "cannot edit: \(failure)", status: ExitStatus.unavailable)
            }
            var arguments = [editor]
            if let port { arguments += ["--port", String(port)] }
            if noOpen { arguments.append("--no-open") }
            if json { arguments.append("--json") }
            if let maxImportBytes { arguments += ["--max-import-bytes", String(maxImportBytes)] }
            if let firstPageSeconds { arguments += ["--first-page-seconds", String(firstPageSeconds)] }
            arguments.append("--")
            // The launcher has no folder to give, and the session's working folder is home:
            // the Pictures folder is chosen here, where the user's folders are known.
            arguments += pictures ? [UserFolders.pictures(CurrentProcess.environment).string] : paths
            let failure = CurrentProcess.replace(withExecutable: editor, arguments: arguments)
            throw CommandFailure(message: "cannot start \(editor): \(failure)", status: ExitStatus.unavailable)
        }
    }
}
