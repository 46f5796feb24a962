import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

// Every subcommand that takes a path, given files and folders whose names start with "-"
// (`-g.imagegallery`, `-imgs`, `-x.tar`, `--weird.png`, ...), spelled the two ways a user
// can: after `--`, and as `./-name` without it. `convert` once built an argv for `create` and
// parsed it again, so that `convert -- -x.tar out.imagegallery` crashed; nothing may re-parse
// a path as an option. Each command must exit 0, print no "internal error", and do the
// right thing to the right file, checked from outside (the reader, `validate` by absolute
// path, the bytes of the fixtures).
//
// The subcommands, from `imagegallery --help`: create, info, list, extract, validate, thumbnail,
// add, remove, move, transfer, rename, caption, versions, resolve, merge-driver, textconv,
// convert (every direction it has), view and integrate. Not here:
// - `view` is run with `--no-open` only: without it, it would start a browser (xdg-open).
// - `integrate install` and `uninstall` are left out: they touch the desktop. The only path
//   they take is --prefix, which counts only with --system, and that edits /etc/magic (the
//   system's `file` rules) besides PREFIX/share; --user edits ~/.magic and the user's MIME and
//   desktop databases. `integrate status` only reads, and is run with --prefix naming "-opt".
// - `cache info|clear` take no path (the cache is $XDG_CACHE_HOME).

/// How a dash-named operand is written on the command line.
enum DashSpelling: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `imagegallery CMD [OPTIONS] -- -g.imagegallery --weird.png`
    case afterDoubleDash
    /// `imagegallery CMD [OPTIONS] ./-g.imagegallery ./--weird.png`
    case dotSlash

    var testDescription: String { self == .afterDoubleDash ? "after --" : "as ./-name" }

    /// The command line: the options first, then `--` and the operands, or the operands alone
    /// (whose paths the caller spelled with `path`).
    func command(_ words: [String], _ options: [String] = [], _ operands: [String]) -> [String] {
        words + options + (self == .afterDoubleDash ? ["--"] : []) + operands
    }

    /// A file or folder of the workspace, by its relative name.
    func path(_ name: String) -> String { self == .dotSlash ? "./" + name : name }

    /// An option whose value is a path: `--to=-out`, or `--to ./-out`.
    func option(_ flag: String, path name: String) -> [String] {
        self == .afterDoubleDash ? ["\(flag)=\(name)"] : [flag, "./" + name]
    }

    /// An image named by its file name after `--` (`--weird.png`), else by its position: without
    /// `--` a word starting with "-" is an option, whatever the program does.
    func image(_ filename: String, orPosition position: Int) -> String {
        self == .afterDoubleDash ? filename : String(position)
    }
}

/// A folder where the binary runs, so that relative names like `-g.imagegallery` reach it as
/// they are, with private state and cache folders.
struct DashWorkspace {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    var environment: [String: String] { ["XDG_STATE_HOME": directory.file("state"), "XDG_CACHE_HOME": directory.file("cache")] }

    /// The absolute path of a workspace file.
    func file(_ name: String) -> String { directory.file(name) }

    /// Runs `imagegallery` in the workspace.
    func run(_ arguments: [String]) async throws -> ProcessResult {
        let folder = directory.path
        let environment = environment
        return try await Blocking.run { try Subprocess.imagegallery(arguments, in: folder, environment: environment) }
    }

    /// Runs it and expects success: exit 0, and no "internal error" anywhere in its output.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProcessResult {
        let result = try await run(arguments)
        #expect(result.status == 0, "imagegallery \(arguments) exited \(result.status): \(result.stderr)",
                sourceLocation: sourceLocation)
        #expect(!(result.stdout + result.stderr).lowercased().contains("internal error"),
                "imagegallery \(arguments): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs a setup command (absolute paths, so no dash name is at stake) that must succeed.
    func setup(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await run(arguments)
        try #require(result.status == 0, "setup: imagegallery \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// Copies fixture images here: (name in the workspace, fixture), folders made as needed.
    func place(_ files: [(String, String)]) throws {
        for (name, fixture) in files {
            let target = file(name)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestPaths.fixture("images/" + fixture), toPath: target)
        }
    }

    /// The sources every test starts from: a PNG file named `--weird.png`, and a folder `-imgs`
    /// of two JPEGs. A gallery of both holds `DashWorkspace.standard`.
    func placeSources() throws {
        try place([("--weird.png", "2-tiles.png"), ("-imgs/1-sunset.jpg", "1-sunset.jpg"),
                   ("-imgs/3-lighthouse.jpg", "3-lighthouse.jpg")])
    }

    /// (file name in the gallery, fixture) of a gallery of `placeSources`' files, in order.
    static let standard = [("--weird.png", "2-tiles.png"), ("1-sunset.jpg", "1-sunset.jpg"),
                           ("3-lighthouse.jpg", "3-lighthouse.jpg")]

    /// A gallery of the standard sources, made by absolute paths.
    func makeGallery(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try placeSources()
        try await setup(["create", file(name), file("--weird.png"), file("-imgs")], sourceLocation: sourceLocation)
    }

    func gallery(_ name: String) throws -> Gallery { try GalleryReader(path: file(name)).gallery }

    /// Every image's stored bytes, in gallery order.
    func imageBytes(_ name: String) throws -> [[UInt8]] {
        let reader = try GalleryReader(path: file(name))
        return try reader.gallery.images.map { image in
            var bytes: [UInt8] = []
            try reader.readBlob(image) { bytes += $0 }
            return bytes
        }
    }

    func fixtureBytes(_ fixtures: [String]) throws -> [[UInt8]] {
        try fixtures.map { try FileBytes.read(TestPaths.fixture("images/" + $0)) }
    }

    /// Whether the gallery holds exactly these (file name, fixture) images, in order, byte for byte.
    func expect(_ name: String, holds images: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let gallery = try gallery(name)
        #expect(gallery.images.map { $0.filename ?? "?" } == images.map { $0.0 }, "\(name)", sourceLocation: sourceLocation)
        #expect(try imageBytes(name) == fixtureBytes(images.map { $0.1 }), "\(name): the image bytes differ",
                sourceLocation: sourceLocation)
    }

    /// `validate` by absolute paths: each file is a valid gallery.
    func expectValid(_ names: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await run(["validate"] + names.map(file))
        #expect(result.status == 0, "validate \(names): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
    }

    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: file(name)) }

    /// The names in a folder of the workspace; a missing folder throws.
    func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: file(folder)).sorted()
    }

    func json(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> Any {
        do {
            return try JSONSerialization.jsonObject(with: result.stdoutData)
        } catch {
            Issue.record("no JSON on standard output: \(result.stdout) / \(result.stderr)", sourceLocation: sourceLocation)
            throw error
        }
    }
}

@Suite("Dash-named paths: create and the reading commands")
struct DashNamedReadingTests {
    @Test(arguments: DashSpelling.allCases)
    func create(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try w.placeSources()
        try await w.succeed(s.command(["create"], [], [s.path("-g.imagegallery"), s.path("--weird.png"), s.path("-imgs")]))
        try w.expect("-g.imagegallery", holds: DashWorkspace.standard)
        #expect(try w.gallery("-g.imagegallery").title == "-g")
        try await w.expectValid(["-g.imagegallery"])
    }

    @Test(arguments: DashSpelling.allCases)
    func infoListAndTextconv(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        let id = try w.gallery("-g.imagegallery").id.manifestString

        let info = try await w.succeed(s.command(["info"], ["--json"], [s.path("-g.imagegallery")]))
        let described = try w.json(info) as? [String: Any]
        #expect(described?["id"] as? String == id && described?["imageCount"] as? Int == 3, "\(info.stdout)")

        let list = try await w.succeed(s.command(["list"], ["--json"], [s.path("-g.imagegallery")]))
        let listed = try w.json(list) as? [[String: Any]]
        #expect(listed?.map { $0["filename"] as? String } == DashWorkspace.standard.map { $0.0 }, "\(list.stdout)")

        let text = try await w.succeed(s.command(["textconv"], [], [s.path("-g.imagegallery")]))
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 5 && lines.first == "title\t-g" && lines[1] == "id\t\(id)", "\(text.stdout)")
        #expect(lines.dropFirst(2).map { $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst(6).first }
                == DashWorkspace.standard.map { Substring($0.0) }, "\(text.stdout)")
    }

    /// A file, and a folder searched for galleries, with the report written to `-report.json`.
    @Test(arguments: DashSpelling.allCases)
    func validate(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try FileManager.default.createDirectory(atPath: w.file("-dir"), withIntermediateDirectories: false)
        try FileManager.default.copyItem(atPath: w.file("-g.imagegallery"), toPath: w.file("-dir/-in.imagegallery"))
        try await w.succeed(s.command(["validate"], ["--format", "json"] + s.option("--output", path: "-report.json"),
                                      [s.path("-g.imagegallery"), s.path("-dir")]))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: w.file("-report.json"))))
            as? [String: Any]
        let summary = report?["summary"] as? [String: Any]
        #expect(summary?["files"] as? Int == 2 && summary?["valid"] as? Int == 2, "\(String(describing: report))")
        let paths = (report?["files"] as? [[String: Any]])?.compactMap { $0["path"] as? String } ?? []
        #expect(paths.count == 2 && paths[0].hasSuffix("-g.imagegallery") && paths[1].hasSuffix("-in.imagegallery"), "\(paths)")

        // A broken dash-named gallery is found, not taken for an option: exit 1.
        try FileBytes.write(Array("not a zip".utf8), to: w.file("-bad.imagegallery"))
        let bad = try await w.run(s.command(["validate"], [], [s.path("-bad.imagegallery")]))
        #expect(bad.status == 1 && !bad.stderr.contains("internal error"), "\(bad.status): \(bad.stdout)\(bad.stderr)")
    }

    @Test(arguments: DashSpelling.allCases)
    func thumbnail(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["thumbnail"], ["-s", "64"], [s.path("-g.imagegallery"), s.path("-t.png")]))
        let png = try FileBytes.read(w.file("-t.png"))
        #expect(png.count > 24 && png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func be32(_ at: Int) -> Int { png[at ..< at + 4].reduce(0) { $0 << 8 | Int($1) } }
        // The first image, 2-tiles.png, is 480 × 360.
        #expect(png.count > 24 && be32(16) == 64 && be32(20) == 48, "\(png.prefix(24))")
    }

    @Test(arguments: DashSpelling.allCases)
    func extract(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["extract"], s.option("--to", path: "-out"), [s.path("-g.imagegallery")]))
        let names = ["1---weird.png", "2-1-sunset.jpg", "3-3-lighthouse.jpg"]
        #expect(try w.entries("-out") == names)
        #expect(try names.map { try FileBytes.read(w.file("-out/" + $0)) } == w.fixtureBytes(DashWorkspace.standard.map { $0.1 }))

        // Into the current folder, one image by position.
        try await w.succeed(s.command(["extract"], [], [s.path("-g.imagegallery"), "3"]))
        #expect(try FileBytes.read(w.file("3-3-lighthouse.jpg")) == w.fixtureBytes(["3-lighthouse.jpg"])[0])
    }

    @Test(arguments: DashSpelling.allCases)
    func versions(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        let result = try await w.succeed(s.command(["versions"], ["--json"], [s.path("-g.imagegallery")]))
        let versions = try w.json(result) as? [[String: Any]]
        #expect(versions?.count == 1 && versions?.first?["origin"] as? String == "current"
                && versions?.first?["imageCount"] as? Int == 3, "\(result.stdout)")
        #expect((versions?.first?["file"] as? String).map { $0.hasSuffix("/-g.imagegallery") } == true, "\(result.stdout)")
    }

    /// `view --no-open` writes the web gallery into the (private) cache and opens nothing.
    @Test(arguments: DashSpelling.allCases)
    func viewWithoutOpening(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        let result = try await w.succeed(s.command(["view"], ["--no-open", "--json"], [s.path("-g.imagegallery")]))
        let report = try w.json(result) as? [String: Any]
        let index = report?["index"] as? String ?? ""
        let cache = (w.file("cache/imagegallery/view") as NSString).standardizingPath + "/"
        #expect((index as NSString).standardizingPath.hasPrefix(cache) && FileManager.default.fileExists(atPath: index),
                "\(result.stdout)")
        #expect(report?["imageCount"] as? Int == 3 && report?["opened"] as? Bool == false, "\(result.stdout)")
    }

    /// `integrate status --system --prefix -opt` reads the files under that prefix (and
    /// /etc/magic); files put there by hand are reported current. Nothing is written.
    @Test(arguments: DashSpelling.allCases)
    func integrateStatus(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        let files = ["mime/packages/imagegallery.xml", "thumbnailers/imagegallery.thumbnailer",
                     "applications/imagegallery.desktop"]
        for relative in files {
            let target = w.file("-opt/share/" + relative)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: TestPaths.spec("freedesktop/" + (relative as NSString).lastPathComponent),
                                             toPath: target)
        }
        let result = try await w.succeed(["integrate", "status", "--system", "--json"] + s.option("--prefix", path: "-opt"))
        let status = try w.json(result) as? [String: Any]
        let reported = (status?["files"] as? [[String: Any]] ?? []).map { ($0["path"] as? String ?? "", $0["state"] as? String ?? "") }
        for relative in files {
            let expected = s.path("-opt") + "/share/" + relative
            #expect(reported.contains { $0 == expected && $1 == "current" }, "\(expected): \(reported)")
        }
    }
}

@Suite("Dash-named paths: the editing commands")
struct DashNamedEditingTests {
    @Test(arguments: DashSpelling.allCases)
    func add(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try w.place([("-more/4-dunes.jpg", "4-dunes.jpg"), ("-more/6-bubbles.png", "6-bubbles.png"),
                     ("-q.png", "7-quilt-palette.png")])
        try await w.setup(["create", w.file("-g.imagegallery"), w.file("-q.png")])
        try w.placeSources()
        try await w.succeed(s.command(["add"], ["--at", "1"], [s.path("-g.imagegallery"), s.path("--weird.png"), s.path("-more")]))
        try w.expect("-g.imagegallery", holds: [("--weird.png", "2-tiles.png"), ("4-dunes.jpg", "4-dunes.jpg"),
                                                ("6-bubbles.png", "6-bubbles.png"), ("-q.png", "7-quilt-palette.png")])
        try await w.expectValid(["-g.imagegallery"])
    }

    @Test(arguments: DashSpelling.allCases)
    func captionMoveRemoveAndRename(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        let g = s.path("-g.imagegallery")
        let weird = s.image("--weird.png", orPosition: 1)

        let text = s == .afterDoubleDash ? "-a caption" : "a caption"
        try await w.succeed(s.command(["caption"], [], [g, weird, text]))
        #expect(try w.gallery("-g.imagegallery").images.first?.caption == text)

        try await w.succeed(s.command(["move"], ["--to", "3"], [g, weird]))
        #expect(try w.gallery("-g.imagegallery").images.map { $0.filename ?? "?" } == ["1-sunset.jpg", "3-lighthouse.jpg", "--weird.png"])

        try await w.succeed(s.command(["remove"], [], [g, s.image("--weird.png", orPosition: 3)]))
        try w.expect("-g.imagegallery", holds: [("1-sunset.jpg", "1-sunset.jpg"), ("3-lighthouse.jpg", "3-lighthouse.jpg")])

        let title = s == .afterDoubleDash ? "-Trip" : "Trip"
        try await w.succeed(s.command(["rename"], [], [g, title]))
        #expect(try w.gallery("-g.imagegallery").title == title)
        try await w.expectValid(["-g.imagegallery"])
    }

    @Test(arguments: DashSpelling.allCases)
    func transfer(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-a.imagegallery")
        try w.place([("-b.jpg", "4-dunes.jpg")])
        try await w.setup(["create", w.file("-b.imagegallery"), w.file("-b.jpg")])
        let (a, b) = (s.path("-a.imagegallery"), s.path("-b.imagegallery"))

        try await w.succeed(s.command(["transfer"], ["--at", "1"], [a, b, s.image("--weird.png", orPosition: 1)]))
        try w.expect("-a.imagegallery", holds: [("1-sunset.jpg", "1-sunset.jpg"), ("3-lighthouse.jpg", "3-lighthouse.jpg")])
        try w.expect("-b.imagegallery", holds: [("--weird.png", "2-tiles.png"), ("-b.jpg", "4-dunes.jpg")])

        try await w.succeed(s.command(["transfer"], ["--copy"], [b, a, s.image("-b.jpg", orPosition: 2)]))
        try w.expect("-a.imagegallery", holds: [("1-sunset.jpg", "1-sunset.jpg"), ("3-lighthouse.jpg", "3-lighthouse.jpg"),
                                                ("-b.jpg", "4-dunes.jpg")])
        #expect(try w.gallery("-b.imagegallery").images.count == 2)
        try await w.expectValid(["-a.imagegallery", "-b.imagegallery"])
    }

    /// A Syncthing conflict copy beside `-g.imagegallery` is listed by `versions` and merged
    /// (then removed) by `resolve`.
    @Test(arguments: DashSpelling.allCases)
    func versionsAndResolveOfASyncConflictCopy(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        let copy = "-g.sync-conflict-20240101-120000-ABCDEFG.imagegallery"
        try FileManager.default.copyItem(atPath: w.file("-g.imagegallery"), toPath: w.file(copy))
        try w.place([("-q.png", "7-quilt-palette.png")])
        try await w.setup(["add", w.file(copy), w.file("-q.png")])

        let listed = try await w.succeed(s.command(["versions"], ["--json"], [s.path("-g.imagegallery")]))
        let versions = try w.json(listed) as? [[String: Any]] ?? []
        #expect(versions.count == 2 && versions.contains { $0["resolved"] as? Bool == false && $0["imageCount"] as? Int == 4 },
                "\(listed.stdout)")

        try await w.succeed(s.command(["resolve"], ["--merge", "--remove-others"], [s.path("-g.imagegallery")]))
        try w.expect("-g.imagegallery", holds: DashWorkspace.standard + [("-q.png", "7-quilt-palette.png")])
        #expect(!w.exists(copy))
        try await w.expectValid(["-g.imagegallery"])
    }

    /// git's merge driver, %O %A %B all dash-named: both sides' additions end up in ours.
    @Test(arguments: DashSpelling.allCases)
    func mergeDriver(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-base.imagegallery")
        for side in ["-ours.imagegallery", "-theirs.imagegallery"] {
            try FileManager.default.copyItem(atPath: w.file("-base.imagegallery"), toPath: w.file(side))
        }
        try w.place([("-o.jpg", "4-dunes.jpg"), ("-t.png", "6-bubbles.png")])
        try await w.setup(["add", w.file("-ours.imagegallery"), w.file("-o.jpg")])
        try await w.setup(["add", w.file("-theirs.imagegallery"), w.file("-t.png")])

        try await w.succeed(s.command(["merge-driver"], [],
                                      [s.path("-base.imagegallery"), s.path("-ours.imagegallery"), s.path("-theirs.imagegallery")]))
        let names = try w.gallery("-ours.imagegallery").images.map { $0.filename ?? "?" }
        #expect(names.count == 5 && Set(names) == Set(DashWorkspace.standard.map { $0.0 } + ["-o.jpg", "-t.png"]), "\(names)")
        try await w.expectValid(["-ours.imagegallery"])
    }
}

@Suite("Dash-named paths: convert in every direction")
struct DashNamedConvertTests {
    @Test(arguments: DashSpelling.allCases)
    func folderOfImagesToGallery(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try w.placeSources()
        try await w.succeed(s.command(["convert"], [], [s.path("-imgs"), s.path("-i.imagegallery")]))
        try w.expect("-i.imagegallery", holds: Array(DashWorkspace.standard.dropFirst()))
        #expect(try w.gallery("-i.imagegallery").title == "-imgs")
        try await w.expectValid(["-i.imagegallery"])
    }

    /// The case that crashed: `tar -cf ./-x.tar -C d .` then `convert -- -x.tar OUT`.
    @Test(arguments: DashSpelling.allCases)
    func tarArchiveToGallery(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try w.place([("d/1-sunset.jpg", "1-sunset.jpg"), ("d/2-tiles.png", "2-tiles.png")])
        let tar = try #require(Subprocess.which("tar"), "tar is not installed (make test installs it)")
        let made = try await Blocking.run { [folder = w.directory.path] in
            try Subprocess.run(tar, ["-cf", "./-x.tar", "-C", "d", "."], in: folder)
        }
        try #require(made.status == 0, "tar: \(made.stderr)")
        try await w.succeed(s.command(["convert"], [], [s.path("-x.tar"), s.path("out.imagegallery")]))
        try w.expect("out.imagegallery", holds: [("1-sunset.jpg", "1-sunset.jpg"), ("2-tiles.png", "2-tiles.png")])
        #expect(try w.gallery("out.imagegallery").title == "-x")
        try await w.expectValid(["out.imagegallery"])
    }

    @Test(arguments: DashSpelling.allCases)
    func comicBookToGallery(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("source.imagegallery")
        try await w.setup(["convert", w.file("source.imagegallery"), w.file("-c.cbz")])
        try await w.succeed(s.command(["convert"], [], [s.path("-c.cbz"), s.path("-c.imagegallery")]))
        // The pages keep their entry names in the comic (0001.png, ...) and the images' bytes.
        #expect(try w.imageBytes("-c.imagegallery") == w.fixtureBytes(DashWorkspace.standard.map { $0.1 }))
        #expect(try w.gallery("-c.imagegallery").title == "source")
        try await w.expectValid(["-c.imagegallery"])
    }

    @Test(arguments: DashSpelling.allCases)
    func galleryToComicBook(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["convert"], [], [s.path("-g.imagegallery"), s.path("-c.cbz")]))
        // Read back by absolute paths: the same images, in order.
        try await w.setup(["convert", w.file("-c.cbz"), w.file("back.imagegallery")])
        #expect(try w.imageBytes("back.imagegallery") == w.fixtureBytes(DashWorkspace.standard.map { $0.1 }))
    }

    /// Gallery → unpacked folder `-u` → gallery again, byte for byte.
    @Test(arguments: DashSpelling.allCases)
    func galleryToUnpackedAndBack(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["convert"], [], [s.path("-g.imagegallery"), s.path("-u")]))
        #expect(try w.entries("-u") == ["images", "manifest.json", "mimetype", "thumbnail.png"])
        #expect(try w.entries("-u/images").count == 3)

        try await w.succeed(s.command(["convert"], [], [s.path("-u"), s.path("-p.imagegallery")]))
        #expect(try FileBytes.read(w.file("-p.imagegallery")) == FileBytes.read(w.file("-g.imagegallery")))
    }

    @Test(arguments: DashSpelling.allCases)
    func galleryToImages(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["convert"], ["--to", "images"], [s.path("-g.imagegallery"), s.path("-im")]))
        let names = try w.entries("-im")
        #expect(names == ["001---weird.png", "002-1-sunset.jpg", "003-3-lighthouse.jpg"])
        #expect(try names.map { try FileBytes.read(w.file("-im/" + $0)) } == w.fixtureBytes(DashWorkspace.standard.map { $0.1 }))
    }

    @Test(arguments: DashSpelling.allCases)
    func galleryToWeb(_ s: DashSpelling) async throws {
        let w = try DashWorkspace()
        try await w.makeGallery("-g.imagegallery")
        try await w.succeed(s.command(["convert"], ["--to", "web"], [s.path("-g.imagegallery"), s.path("-web")]))
        #expect(w.exists("-web/index.html"))
        let images = try w.entries("-web/images")
        #expect(images == ["001.png", "002.jpg", "003.jpg"], "\(images)")
        #expect(try images.map { try FileBytes.read(w.file("-web/images/" + $0)) } == w.fixtureBytes(DashWorkspace.standard.map { $0.1 }))
    }

    /// The seed apps' JSON, one gallery (`-s.json` → `-s.imagegallery`) and a store (`-store.json`
    /// → folder `-st`), its images fetched from the loopback server of FetchCommandTests.swift.
    @Test(arguments: DashSpelling.allCases)
    func seedJSONToGalleries(_ s: DashSpelling) async throws {
        _ = try TestPaths.fetchHelper()
        let server = try LoopbackImageServer()
        let w = try DashWorkspace()
        func image(_ name: String) -> String { "{\"url\":\"\(server.url("/images/" + name))\"}" }
        try FileBytes.write(Array("{\"title\":\"-Trip\",\"images\":[\(image("1-sunset.jpg")),\(image("2-tiles.png"))]}".utf8),
                            to: w.file("-s.json"))
        try await w.succeed(s.command(["convert"], [], [s.path("-s.json"), s.path("-s.imagegallery")]))
        try w.expect("-s.imagegallery", holds: [("1-sunset.jpg", "1-sunset.jpg"), ("2-tiles.png", "2-tiles.png")])
        let gallery = try w.gallery("-s.imagegallery")
        #expect(gallery.title == "-Trip")
        #expect(gallery.images.map(\.source) == [server.url("/images/1-sunset.jpg"), server.url("/images/2-tiles.png")])

        let store = "[{\"title\":\"A\",\"images\":[\(image("4-dunes.jpg"))]},{\"title\":\"B\",\"images\":[\(image("6-bubbles.png"))]}]"
        try FileBytes.write(Array(store.utf8), to: w.file("-store.json"))
        try await w.succeed(s.command(["convert"], [], [s.path("-store.json"), s.path("-st")]))
        #expect(try w.entries("-st") == ["A.imagegallery", "B.imagegallery"])
        try w.expect("-st/A.imagegallery", holds: [("4-dunes.jpg", "4-dunes.jpg")])
        try w.expect("-st/B.imagegallery", holds: [("6-bubbles.png", "6-bubbles.png")])
        try await w.expectValid(["-s.imagegallery", "-st/A.imagegallery", "-st/B.imagegallery"])
    }
}
