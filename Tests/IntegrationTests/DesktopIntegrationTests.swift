import Foundation
import GalleryTestSupport
import Testing

/// The desktop integration with the real clients: GIO and xdg-mime type detection, `file`, GNOME's
/// thumbnail factory (bubblewrap sandbox) and XFCE's tumblerd over D-Bus. They need the static
/// binary and the confined thumbnailer under /usr (GNOME's sandbox sees nothing else), which
/// `make test` builds and names in IMAGEGALLERY_STATIC_BINARY and IMAGEGALLERY_THUMBNAILER_BINARY
/// (without them these tests fail); both are copied under
/// /usr/local/lib for the run, and the integration files go into a throwaway home with
/// `integrate install --user`.
@Suite("Desktop integration", .serialized)
struct DesktopIntegrationTests {
    /// Each test sets up its own installation, removed when the test's reference goes.
    func installed() throws -> InstalledTool { try InstalledTool() }

    @Test func statusSaysEverythingIsCurrent() throws { try installed().statusSaysEverythingIsCurrent() }
    @Test func gioAndXdgMimeDetectTheType() throws { try installed().gioAndXdgMimeDetectTheType() }
    @Test func fileNamesTheType() throws { try installed().fileNamesTheType() }
    @Test func aGalleryOpensInTheEditorWithViewingAsAnAction() throws { try installed().aGalleryOpensInTheEditorWithViewingAsAnAction() }
    @Test func theLauncherAndTheIconsAreFoundByTheDesktop() throws { try installed().theLauncherAndTheIconsAreFoundByTheDesktop() }
    @Test func gnomeFactoryThumbnailsInItsSandbox() throws { try installed().gnomeFactoryThumbnailsInItsSandbox() }
    @Test func tumblerThumbnailsOverDBus() throws { try installed().tumblerThumbnailsOverDBus() }
    @Test func nemoAndCajaFactoriesRunTheEntryWithoutASandbox() async throws {
        try await installed().nemoAndCajaFactoriesRunTheEntryWithoutASandbox()
    }
}

/// The static binary under /usr/local/lib and the integration in a throwaway home, for one test.
final class InstalledTool {
    let home: TemporaryDirectory
    let binDirectory: String
    let environment: [String: String]
    let gallery: String
    let renamed: String
    let broken: String
    /// Format 2.0 galleries, each starting with one sample, and the upright size a 128-pixel
    /// thumbnail of it has. The HEIC's has no `thumbnail.png`, so the thumbnailer decodes the
    /// HEIC itself, in the client's sandbox.
    let typed: [(path: String, size: (Int, Int))]

    init() throws {
        let source = try TestPaths.staticBinary()
        home = try TemporaryDirectory()
        binDirectory = "/usr/local/lib/imagegallery-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: binDirectory, withIntermediateDirectories: true)
        try FileBytes.copyProgram(source, to: binDirectory + "/imagegallery")
        // The program the thumbnailer entry runs, confined (ThumbnailerProgramTests).
        try FileBytes.copyProgram(try TestPaths.thumbnailer(), to: binDirectory + "/imagegallery-thumbnailer")
        environment = [
            "HOME": home.path, "XDG_DATA_HOME": home.path + "/.local/share", "XDG_CACHE_HOME": home.path + "/.cache",
            "PATH": binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            // No session bus to autolaunch (a daemon that would outlive the test holding its pipes);
            // tumbler's test makes its own with dbus-run-session.
            "DBUS_SESSION_BUS_ADDRESS": "disabled:", "GIO_USE_VFS": "local",
        ]
        gallery = home.file("photos.imagegallery")
        renamed = home.file("photos-renamed.bin")
        broken = home.file("broken.imagegallery")
        let created = try Subprocess.run(binDirectory + "/imagegallery", ["create", gallery, TestPaths.fixture("images")],
                                         environment: environment)
        #expect(created.status == 0, "\(created.stderr)")
        try FileManager.default.copyItem(atPath: gallery, toPath: renamed)
        // Starts like a gallery (so every client takes it for one), then garbage.
        var bytes = try FileBytes.read(gallery)
        bytes.removeSubrange(200...)
        try FileBytes.write(bytes + Array(repeating: 0x5A, count: 300), to: broken)
        var typed: [(path: String, size: (Int, Int))] = []
        for (name, size) in [("sunset.heic", (128, 96)), ("rotated.avif", (96, 128)), ("anim.webp", (128, 96)), ("anim.gif", (128, 96))] {
            let path = home.file(name + ".imagegallery")
            let made = try Subprocess.run(binDirectory + "/imagegallery", ["create", path, TestPaths.fixture("format-2.0/" + name)],
                                          environment: environment)
            #expect(made.status == 0, "\(made.stderr)")
            typed.append((path, size))
        }
        // A chosen cover (issue 33): a landscape first image and a portrait cover, so that the
        // thumbnail's shape says which one the client showed.
        let covered = home.file("covered.imagegallery")
        for arguments in [["create", covered, TestPaths.fixture("format-2.0/sunset.heic"), TestPaths.fixture("format-2.0/rotated.avif")],
                          ["cover", covered, "2"]] {
            let made = try Subprocess.run(binDirectory + "/imagegallery", arguments, environment: environment)
            #expect(made.status == 0, "\(made.stderr)")
        }
        typed.append((covered, (96, 128)))
        // Without their stored thumbnails, the thumbnailer decodes the image itself.
        for path in [typed[0].path, covered] {
            let stripped = try Subprocess.run("/usr/bin/zip", ["-q", "-d", path, "thumbnail.png"])
            #expect(stripped.status == 0, "\(stripped.stderr)")
        }
        self.typed = typed
        let installed = try run("imagegallery", ["integrate", "install", "--user"])
        #expect(installed.status == 0, "\(installed.stderr)")
    }

    deinit { try? FileManager.default.removeItem(atPath: binDirectory) }

    func run(_ program: String, _ arguments: [String]) throws -> ProcessResult {
        // Our copy of the tool, never one the test process happens to find on its PATH.
        let path = program.hasPrefix("/") ? program : program == "imagegallery" ? binDirectory + "/imagegallery"
            : try #require(Subprocess.which(program), "\(program) is not installed: run scripts/install-deps")
        return try Subprocess.run(path, arguments, environment: environment)
    }

    func statusSaysEverythingIsCurrent() throws {
        let result = try run("imagegallery", ["integrate", "status", "--user", "--json"])
        let status = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let files = try #require(status["files"] as? [[String: Any]])
        #expect(files.count == 9, "\(files)")
        #expect(files.allSatisfy { $0["state"] as? String == "current" }, "\(files)")
    }

    func gioAndXdgMimeDetectTheType() throws {
        for path in [gallery, renamed] {
            let gio = try run("gio", ["info", "-a", "standard::content-type", path])
            #expect(gio.stdout.contains("standard::content-type: application/vnd.imagegallery+zip"), "\(path): \(gio.stdout)")
            let xdg = try run("xdg-mime", ["query", "filetype", path])
            #expect(xdg.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "application/vnd.imagegallery+zip",
                    "\(path): \(xdg.stdout) \(xdg.stderr)")
        }
        // The icon GIO asks the theme for first is the one the package installs (its file
        // is named for it in Specs/freedesktop/icons), and the symbolic icon likewise.
        for (attribute, icon) in [("standard::icon", DesktopEntriesAndIconsTests.typeIcon),
                                  ("standard::symbolic-icon", DesktopEntriesAndIconsTests.typeIcon + "-symbolic")] {
            let gio = try run("gio", ["info", "-a", attribute, gallery])
            let names = gio.stdout.components(separatedBy: attribute + ": ").last?
                .trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: ", ") ?? []
            #expect(names.first == icon, "\(attribute): \(gio.stdout)")
            #expect(FileManager.default.fileExists(atPath: TestPaths.spec("freedesktop/icons/\(icon).svg")), "\(icon)")
        }
    }

    /// Double-clicking a gallery runs `imagegallery edit` (no terminal); viewing without editing
    /// is the entry's action. Checked with the desktop's own tools on the installed entry.
    func aGalleryOpensInTheEditorWithViewingAsAnAction() throws {
        let entry = environment["XDG_DATA_HOME"]! + "/applications/imagegallery.desktop"
        let validation = try run("desktop-file-validate", [entry])
        #expect(validation.status == 0 && validation.stdout.isEmpty, "\(validation.stdout) \(validation.stderr)")
        let handler = try run("xdg-mime", ["query", "default", "application/vnd.imagegallery+zip"])
        #expect(handler.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "imagegallery.desktop", "\(handler.stdout) \(handler.stderr)")
        let text = String(decoding: try FileBytes.read(entry), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("Exec=imagegallery edit %f"))
        #expect(lines.contains("Terminal=false"))
        #expect(lines.contains("Actions=view;"))
        #expect(lines.contains("[Desktop Action view]") && lines.contains("Exec=imagegallery view %f"))
    }

    /// What `integrate install --user` put in the home, as GLib and GTK find it: the launcher is
    /// an application shown in the grid, with our icon, running the document browser on Pictures;
    /// the hicolor theme resolves the application's and the type's icons, symbolic ones too, to
    /// the files installed.
    func theLauncherAndTheIconsAreFoundByTheDesktop() throws {
        let script = """
            import sys, gi
            gi.require_version("Gtk", "3.0")
            from gi.repository import Gio, Gtk
            app = Gio.DesktopAppInfo.new(sys.argv[1])
            print("launcher", app is not None and app.should_show(), app and app.get_icon().to_string(),
                  app and app.get_commandline())
            theme = Gtk.IconTheme.new()
            for name in sys.argv[2:]:
                found = theme.lookup_icon(name, 48, 0)
                print("icon", name, found.get_filename() if found else None)
            """
        let icons = [DesktopEntriesAndIconsTests.appIcon, DesktopEntriesAndIconsTests.appIcon + "-symbolic",
                     DesktopEntriesAndIconsTests.typeIcon, DesktopEntriesAndIconsTests.typeIcon + "-symbolic"]
        var environment = self.environment
        environment["DISPLAY"] = ""
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script, DesktopEntriesAndIconsTests.launcher] + icons,
                                        environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "launcher True \(DesktopEntriesAndIconsTests.appIcon) imagegallery edit --pictures", "\(result.stdout)")
        let share = environment["XDG_DATA_HOME"]! + "/icons/hicolor/"
        for icon in icons {
            let context = icon.hasPrefix("application-") ? "mimetypes" : "apps"
            // The symbolic type icon is in scalable/: Debian 12's hicolor lists no symbolic/mimetypes.
            let size = icon.hasSuffix("-symbolic") && context == "apps" ? "symbolic" : "scalable"
            #expect(lines.contains("icon \(icon) \(share)\(size)/\(context)/\(icon).svg"), "\(icon): \(result.stdout) \(result.stderr)")
        }
    }

    /// `file` with the installed rule (the user's ~/.magic), and with the fragment given directly.
    func fileNamesTheType() throws {
        let installed = try run("file", ["--brief", "--mime-type", renamed])
        #expect(installed.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "application/vnd.imagegallery+zip")
        let fragment = try run("file", ["--brief", "-m", TestPaths.spec("freedesktop/imagegallery.magic"), renamed])
        #expect(fragment.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "Image gallery document")
    }

    /// The first sample is 800 × 600: at GNOME's "normal" size, 128 × 96.
    func gnomeFactoryThumbnailsInItsSandbox() throws {
        let result = try run("/usr/bin/python3", [TestPaths.repository + "/Tests/DesktopClients/gnome-thumbnail.py", gallery]
                                 + typed.map(\.path) + [broken])
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines.count == typed.count + 2, "\(result.stdout) \(result.stderr)")
        #expect(lines.first?.suffix(3) == ["ok", "128", "96"], "\(result.stdout) \(result.stderr)")
        for (line, (path, size)) in zip(lines.dropFirst(), typed) {
            #expect(line.suffix(3) == ["ok", String(size.0), String(size.1)], "\(path): \(line)")
        }
        #expect(lines.last?.suffix(2) == ["failed", "True"], "\(result.stdout)")
    }

    /// Nemo's and Caja's thumbnail factories (cinnamon-desktop and mate-desktop, forks of
    /// gnome-desktop's) read the same entry, and, unlike GNOME's, run it with no sandbox at all:
    /// strace sees the thumbnailer started directly, and bubblewrap only under GNOME's.
    func nemoAndCajaFactoriesRunTheEntryWithoutASandbox() async throws {
        let strace = try #require(Subprocess.which("strace"), "strace is not installed: run scripts/install-deps")
        for desktop in ["gnome", "cinnamon", "mate"] {
            let trace = home.file("\(desktop).trace")
            try? FileManager.default.removeItem(atPath: home.file(".cache/thumbnails"))
            let script = TestPaths.repository + "/Tests/DesktopClients/gnome-thumbnail.py"
            let result = try await Subprocess.runBlocking(strace, ["-f", "-qq", "-e", "trace=execve", "-o", trace, "/usr/bin/python3", script,
                                                     gallery, broken],
                                            environment: environment.merging(["DESKTOP_FACTORY": desktop,
                                                                              "GSETTINGS_BACKEND": "memory"]) { $1 })
            let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.first?.suffix(3) == ["ok", "128", "96"], "\(desktop): \(result.stdout) \(result.stderr)")
            #expect(lines.last?.suffix(2) == ["failed", "True"], "\(desktop): \(result.stdout)")
            let started = String(decoding: try FileBytes.read(trace), as: UTF8.self).split(separator: "\n")
                .filter { $0.contains("execve(") && !$0.contains("ENOENT") }
            #expect(started.contains { $0.contains("/imagegallery-thumbnailer\"") }, "\(desktop): \(started)")
            #expect(started.contains { $0.contains("execve(\"/usr/bin/bwrap\"") } == (desktop == "gnome"), "\(desktop): \(started)")
        }
    }

    func tumblerThumbnailsOverDBus() throws {
        let tumblerd = "/usr/lib/x86_64-linux-gnu/tumbler-1/tumblerd"
        #expect(FileManager.default.isExecutableFile(atPath: tumblerd), "tumbler is not installed: run scripts/install-deps")
        let client = TestPaths.repository + "/Tests/DesktopClients/tumbler-thumbnail.py"
        // Everything below writes to files, not to our pipes: a bus daemon or a tumblerd that
        // lingers a moment must not keep the test waiting for the end of its output.
        let output = home.file("tumbler.out")
        let files = ([gallery] + typed.map(\.path) + [broken]).joined(separator: " ")
        let inner = "\(tumblerd) >\(output).tumblerd 2>&1 & pid=$!; TUMBLERD_PID=$pid /usr/bin/python3 \(client) \(files); kill $pid; wait $pid"
        let outer = "exec >\(output) 2>\(output).err </dev/null; dbus-run-session -- sh -c '\(inner)'"
        let status = try run("/bin/sh", ["-c", outer]).status
        let said = { (suffix: String) in (try? String(contentsOfFile: output + suffix, encoding: .utf8)) ?? "" }
        let result = ProcessResult(status: status, stdout: try String(contentsOfFile: output, encoding: .utf8),
                                   stderr: said(".err") + "\ntumblerd said: " + said(".tumblerd"), stdoutData: Data())
        let lines = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(lines.count == typed.count + 2, "\(result.stdout) \(result.stderr)")
        #expect(lines.last?[2].hasPrefix("error:") == true, "\(result.stdout)")
        for (line, size) in zip(lines.dropLast(), [(128, 96)] + typed.map(\.size)) {
            #expect(line.count > 3 && line[2] == "ready", "\(line)")
            guard line.count > 3, line[2] == "ready" else { continue }
            let png = try FileBytes.read(line[3])
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            let width = png[16 ..< 20].reduce(0) { $0 << 8 | Int($1) }
            let height = png[20 ..< 24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == size.0 && height == size.1, "\(line[0]): \(width)×\(height)")
        }
    }
}
