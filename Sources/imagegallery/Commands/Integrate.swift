import ArgumentParser
import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

extension ImageGallery {
    struct Integrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "integrate",
            abstract: "Install the desktop integration: the MIME type, the thumbnailer, the .desktop entries, the icons, a `file` rule.",
            discussion: """
                install writes the files of Specs/freedesktop into the XDG folders (--user: $XDG_DATA_HOME, \
                default ~/.local/share; --system: PREFIX/share) and runs update-mime-database and \
                update-desktop-database. The `file` rule goes into a marked block of ~/.magic (--user) or \
                /etc/magic (--system), which uninstall removes again; nothing else in those files is touched. \
                status tells what is installed and whether it is current.
                """
        )

        enum Action: String, ExpressibleByArgument, CaseIterable { case install, uninstall, status }

        @Argument(help: "install, uninstall or status.")
        var action: Action

        @Flag(help: "For this user (the default).")
        var user = false

        @Flag(help: "For every user, under --prefix (needs root).")
        var system = false

        @Option(help: "With --system: the installation prefix.")
        var prefix = "/usr/local"

        @OptionGroup var output: OutputOptions

        func validate() throws {
            if user && system { throw ValidationError("--user and --system exclude each other") }
        }

        func run() throws {
            let places = IntegrationPlaces(system: system, prefix: prefix)
            switch action {
            case .install: try places.install()
            case .uninstall: try places.uninstall()
            case .status: break
            }
            let status = places.status()
            if output.json {
                try Terminal.printJSON(status)
            } else {
                for file in status.files {
                    print("\(file.state.rawValue.padded(9)) \(file.path)")
                }
                if let binary = status.binary { print("binary    \(binary)") }
                for note in status.notes { print("note: \(note)") }
            }
        }
    }
}

/// Where the integration files go, for one user or for the system.
struct IntegrationPlaces {
    let dataHome: FilePath
    let magicFile: FilePath

    init(system: Bool, prefix: String) {
        let environment = CurrentProcess.environment
        let home = UserFolders.home(environment)
        if system {
            dataHome = FilePath(prefix).appending("share")
            magicFile = "/etc/magic"
        } else {
            dataHome = environment["XDG_DATA_HOME"].flatMap { GalleryFileSystem.isAbsolute($0) ? FilePath($0) : nil }
                ?? home.appending(".local/share")
            magicFile = home.appending(".magic")
        }
    }

    /// (path under the data folder, content): what the Debian package installs under /usr/share
    /// (scripts/make-deb), the launcher in the application grid and the hicolor icons included.
    var files: [(String, [UInt8])] {
        [
            ("mime/packages/imagegallery.xml", PackageResources.imagegallery_xml),
            ("thumbnailers/imagegallery.thumbnailer", PackageResources.imagegallery_thumbnailer),
            ("applications/imagegallery.desktop", PackageResources.imagegallery_desktop),
            ("applications/io.github.imagegallery.imagegallery.desktop", PackageResources.io_github_imagegallery_imagegallery_desktop),
            ("icons/hicolor/scalable/apps/io.github.imagegallery.imagegallery.svg", PackageResources.io_github_imagegallery_imagegallery_svg),
            ("icons/hicolor/symbolic/apps/io.github.imagegallery.imagegallery-symbolic.svg",
             PackageResources.io_github_imagegallery_imagegallery_symbolic_svg),
            ("icons/hicolor/scalable/mimetypes/application-vnd.imagegallery+zip.svg", PackageResources.application_vnd_imagegallery_zip_svg),
            // Not symbolic/mimetypes, which Debian 12's hicolor theme does not list (GTK would
            // never look there); scripts/make-deb's icon_folder says the same.
            ("icons/hicolor/scalable/mimetypes/application-vnd.imagegallery+zip-symbolic.svg",
             PackageResources.application_vnd_imagegallery_zip_symbolic_svg),
        ]
    }

    static let magicBegin = "# >>> imagegallery (managed by `imagegallery integrate`; do not edit) >>>"
    static let magicEnd = "# <<< imagegallery <<<"

    func install() throws {
        for (relative, content) in files {
            let path = dataHome.appending(relative)
            try GalleryFileSystem.makeFolders(path.removingLastComponent())
            try GalleryFileSystem.saveSafely(to: path, replacing: true, durable: false) { file in
                try file.write(content, at: 0)
            }
        }
        try writeMagicBlock(String(decoding: PackageResources.imagegallery_magic, as: UTF8.self))
        refreshCaches()
    }

    func uninstall() throws {
        for (relative, _) in files {
            try GalleryFileSystem.removeTree(dataHome.appending(relative))
        }
        try writeMagicBlock(nil)
        refreshCaches()
    }

    /// Puts `block` between the markers of the magic file (or removes the markers and what is
    /// between), keeping every other line as it was.
    func writeMagicBlock(_ block: String?) throws {
        let existing = Self.text(of: magicFile) ?? ""
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let begin = lines.firstIndex(of: Self.magicBegin),
           let end = lines[begin...].firstIndex(of: Self.magicEnd) {
            lines.removeSubrange(begin ... end)
        }
        while lines.last == "" { lines.removeLast() }
        if let block {
            lines += [Self.magicBegin] + block.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                .filter { !$0.isEmpty } + [Self.magicEnd]
        }
        let text = lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
        if text.isEmpty && PathKind.of(magicFile) == .missing { return }
        try GalleryFileSystem.saveSafely(to: magicFile, replacing: true, durable: false) { file in
            try file.write(Array(text.utf8), at: 0)
        }
    }

    /// The caches the desktop reads; a missing tool is noted, not fatal.
    func refreshCaches() {
        run("update-mime-database", [dataHome.appending("mime").string])
        run("update-desktop-database", [dataHome.appending("applications").string])
    }

    private func run(_ tool: String, _ arguments: [String]) {
        guard let program = Self.which(tool) else {
            Terminal.warning("\(tool) is not installed: the desktop will see the change only when it is run")
            return
        }
        do throws(FileSystemError) {
            // A prefix may start with "-": never let a path be read as an option.
            let termination = try ChildProcess(program, arguments: ["--"] + arguments, output: .nothing).wait()
            if termination != .exited(0) { Terminal.warning("\(tool) exited with status \(termination.status)") }
        } catch {
            Terminal.warning("\(tool) could not be run: \(error.reason)")
        }
    }

    static func which(_ name: String) -> String? {
        for folder in (CurrentProcess.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = FilePath(String(folder)).appending(name)
            if PathKind.of(candidate) == .regularFile, GalleryFileSystem.isExecutable(candidate) { return candidate.string }
        }
        return nil
    }

    /// The file's text, nil when it cannot be read or is not UTF-8 (as Foundation's
    /// `String(contentsOfFile:encoding:)` gives nothing then).
    static func text(of path: FilePath) -> String? {
        (try? GalleryFileSystem.contents(of: path)).flatMap { String(validating: $0, as: UTF8.self) }
    }

    struct Status: Encodable {
        struct File: Encodable {
            enum State: String, Encodable { case current, outdated, missing }
            var path: String
            var state: State
        }

        var files: [File]
        /// The `imagegallery` the thumbnailer entry will run, if it is on PATH.
        var binary: String?
        var notes: [String]
    }

    func status() -> Status {
        var states: [Status.File] = files.map { relative, content in
            let path = dataHome.appending(relative)
            guard let data = try? GalleryFileSystem.contents(of: path) else { return .init(path: path.string, state: .missing) }
            return .init(path: path.string, state: data == content ? .current : .outdated)
        }
        let magic = Self.text(of: magicFile) ?? ""
        let installedMagic = magic.contains(Self.magicBegin)
        let currentMagic = magic.contains(String(decoding: PackageResources.imagegallery_magic, as: UTF8.self)
            .split(separator: "\n").filter { !$0.isEmpty && !$0.hasPrefix("#") }.joined(separator: "\n"))
        states.append(.init(path: magicFile.string, state: !installedMagic ? .missing : currentMagic ? .current : .outdated))
        var notes: [String] = []
        let binary = Self.which("imagegallery")
        if let binary, !binary.hasPrefix("/usr/") {
            notes.append("GNOME runs thumbnailers in a sandbox that sees only /usr: install the binary under /usr "
                         + "(make install PREFIX=/usr/local) for it to be used there")
        }
        if binary == nil { notes.append("imagegallery is not on PATH: the .desktop entry cannot run it") }
        if Self.which("imagegallery-thumbnailer") == nil {
            notes.append("imagegallery-thumbnailer is not on PATH: the thumbnailer entry cannot run it")
        }
        return Status(files: states, binary: binary, notes: notes)
    }
}
