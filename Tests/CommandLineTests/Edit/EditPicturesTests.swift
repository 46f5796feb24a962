import Foundation
import GalleryTestSupport
import Testing

/// `imagegallery edit --pictures`, what the "Image Galleries" launcher runs. The editor's server
/// is replaced (IMAGEGALLERY_EDITOR) by a script that prints the arguments it was given, so the
/// folder `edit` chose is seen without a server or a browser starting.
@Suite("Edit --pictures")
struct EditPicturesTests {
    let root: TemporaryDirectory
    let home: String
    let editor: String

    init() throws {
        root = try TemporaryDirectory()
        home = root.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        editor = root.file("print-arguments")
        try FileBytes.writeScript("#!/bin/sh\nprintf '%s\\n' \"$@\"\n", to: editor)
    }

    /// The process's environment with the test's home, configuration folder and editor, and
    /// without the user's own XDG_PICTURES_DIR.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_PICTURES_DIR"] = nil
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = root.file("config")
        environment["IMAGEGALLERY_EDITOR"] = editor
        return environment.merging(extra) { $1 }
    }

    /// The folder the editor was handed: what follows its `--`.
    func handedFolders(_ extra: [String: String] = [:]) async throws -> [String] {
        let environment = environment(extra)
        let result = try await Blocking.run { try Subprocess.imagegallery(["edit", "--pictures"], environment: environment) }
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast()
        return Array(lines.drop { $0 != "--" }.dropFirst())
    }

    @Test func theEditorIsGivenThePicturesFolderInItsOrder() async throws {
        let fm = FileManager.default
        #expect(try await handedFolders() == [home], "nothing set and no ~/Pictures: home")
        try fm.createDirectory(atPath: home + "/Pictures", withIntermediateDirectories: true)
        #expect(try await handedFolders() == [home + "/Pictures"])
        try fm.createDirectory(atPath: root.file("config"), withIntermediateDirectories: true)
        try Data("XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8).write(to: URL(fileURLWithPath: root.file("config/user-dirs.dirs")))
        try fm.createDirectory(atPath: home + "/Bilder", withIntermediateDirectories: true)
        #expect(try await handedFolders() == [home + "/Bilder"], "the folder xdg-user-dirs recorded")
        try fm.createDirectory(atPath: root.file("named"), withIntermediateDirectories: true)
        #expect(try await handedFolders(["XDG_PICTURES_DIR": root.file("named")]) == [root.file("named")])
    }

    @Test func picturesWithAPathIsAUsageError() async throws {
        let environment = environment()
        let path = root.path
        let result = try await Blocking.run { try Subprocess.imagegallery(["edit", "--pictures", path], environment: environment) }
        #expect(result.status == 64)
        #expect(result.stderr.contains("--pictures"))
        #expect(result.stdout.isEmpty, "the editor was started: \(result.stdout)")
    }
}
