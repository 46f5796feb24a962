import Foundation
import GalleryTestSupport
import Testing

/// Dolphin's previews on Debian 12 (KDE Frameworks 5.103): a real KIO::PreviewJob, with the
/// plugins KIO enables by default, run by `kde/tests/previewjob-check.cpp` under
/// QT_QPA_PLATFORM=offscreen. With our freedesktop entry installed and no KIO plugin, KF5 makes
/// no thumbnail (it never reads `.thumbnailer` files); with the imagegallery-kde plugin it does,
/// through the confined imagegallery-thumbnailer, and a broken gallery fails cleanly.
@Suite("KDE thumbnails", .serialized)
struct KDEThumbnailTests {
    /// cmake through a Python that first unblocks every signal: the test runner's children
    /// start with most signals blocked, and cmake (libuv) then never hears SIGCHLD from the
    /// compilers it starts and waits for ever.
    static func cmake(_ arguments: [String]) async throws -> ProcessResult {
        let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); os.execv(sys.argv[1], sys.argv[1:])"
        return try await Subprocess.runBlocking("/usr/bin/python3", ["-c", unblocked, "/usr/bin/cmake"] + arguments)
    }

    @Test func kf5NeedsThePluginAndThePluginThumbnailsThroughTheConfinedProgram() async throws {
        let work = try TemporaryDirectory()
        let build = work.file("build")
        let configure = try await Self.cmake(["-S", TestPaths.repository + "/kde", "-B", build, "-DCMAKE_BUILD_TYPE=Release"])
        try #require(configure.status == 0, "cmake (KF5 development packages from scripts/install-deps): \(configure.stdout.suffix(2000)) \(configure.stderr)")
        let built = try await Self.cmake(["--build", build, "-j2"])
        try #require(built.status == 0, "\(built.stdout.suffix(3000)) \(built.stderr)")

        // The client apart from the plugin (Qt also looks for plugins beside the program), the
        // plugin where QT_PLUGIN_PATH names it, and the confined thumbnailer alone on PATH.
        let client = work.file("client/previewjob-check")
        let plugins = work.file("plugins")
        let bin = work.file("bin")
        for folder in [work.file("client"), plugins + "/kf5/thumbcreator", bin, work.file("home/.local/share/mime/packages"),
                       work.file("home/.local/share/thumbnailers"), work.file("run")] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileBytes.copyProgram(build + "/bin/previewjob-check", to: client)
        try FileManager.default.copyItem(atPath: build + "/bin/kf5/thumbcreator/imagegallerythumbnail.so",
                                         toPath: plugins + "/kf5/thumbcreator/imagegallerythumbnail.so")
        try FileBytes.copyProgram(try TestPaths.thumbnailer(), to: bin + "/imagegallery-thumbnailer")
        let share = work.file("home/.local/share")
        try FileManager.default.copyItem(atPath: TestPaths.spec("freedesktop/imagegallery.xml"), toPath: share + "/mime/packages/imagegallery.xml")
        try FileManager.default.copyItem(atPath: TestPaths.spec("freedesktop/imagegallery.thumbnailer"),
                                         toPath: share + "/thumbnailers/imagegallery.thumbnailer")
        let mime = try await Subprocess.runBlocking("/usr/bin/update-mime-database", [share + "/mime"])
        try #require(mime.status == 0, "\(mime.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: work.file("run"))

        let gallery = work.file("photos.imagegallery")
        let made = try await Subprocess.imagegalleryBlocking(["create", gallery, TestPaths.fixture("images/1-sunset.jpg")])
        try #require(made.status == 0, "\(made.stderr)")
        let broken = work.file("broken.imagegallery")
        try FileBytes.write(Array(try FileBytes.read(gallery).prefix(300)), to: broken)

        func previews(plugins: String?) async throws -> [String] {
            // A fresh thumbnail cache each time: KIO would otherwise serve the last run's.
            try? FileManager.default.removeItem(atPath: work.file("home/.cache"))
            var environment = ["HOME": work.file("home"), "XDG_DATA_HOME": share, "XDG_CACHE_HOME": work.file("home/.cache"),
                               "XDG_CONFIG_HOME": work.file("home/.config"), "XDG_RUNTIME_DIR": work.file("run"),
                               "QT_QPA_PLATFORM": "offscreen", "PATH": bin + ":/usr/bin:/bin"]
            environment["QT_PLUGIN_PATH"] = plugins
            let run = try await Subprocess.runBlocking("/usr/bin/timeout", ["120", client, gallery, broken], environment: environment)
            #expect(run.status == 0, "\(run.stdout) \(run.stderr.suffix(2000))")
            // Each line as "NAME outcome": KIO gives the path normalised, the temporary folder's may not be.
            return run.stdout.split(separator: "\n").map { line in
                let path = line.prefix { $0 != " " }
                return (String(path) as NSString).lastPathComponent + line.dropFirst(path.count)
            }.sorted()
        }

        let without = try await previews(plugins: nil)
        #expect(without == ["broken.imagegallery failed", "photos.imagegallery failed"],
                "KF5 made a preview without our plugin (it would then read .thumbnailer entries after all): \(without)")
        let with = try await previews(plugins: plugins)
        #expect(with == ["broken.imagegallery failed", "photos.imagegallery ok 128 96"], "\(with)")
    }
}
