import Foundation
import GalleryFormat
import GalleryTestSupport
import Testing

/// `imagegallery cover` and the cover through every path that shows one (issue 33): the
/// thumbnail, `info`, the validator, a comic's `FrontCover` both ways, and a merge that removes it.
@Suite("Cover")
struct CoverCommandTests {
    func ok(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
    }

    func info(_ workspace: EditingWorkspace, _ path: String? = nil) throws -> [String: Any] {
        let result = try workspace.run(["info", path ?? workspace.gallery, "--json"])
        return try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any] ?? [:]
    }

    @Test func choosingAndUnsettingTheCover() throws {
        let workspace = try EditingWorkspace(images: 3)
        let g = workspace.gallery
        ok(try workspace.run(["cover", g, "image-2.png", "--json"]))
        let cover = try info(workspace)["cover"] as? [String: Any]
        #expect(cover?["position"] as? Int == 3 && cover?["chosen"] as? Bool == true)
        #expect(try info(workspace)["formatVersion"] as? String == "1.1")
        #expect(try workspace.isValid())
        let text = try workspace.run(["info", g]).stdout
        #expect(text.contains("Cover:       image 3 (image-2.png), chosen"), "\(text)")

        // The thumbnail command shows the cover: as a gallery of that image alone shows it.
        let alone = workspace.directory.file("alone.imagegallery")
        ok(try workspace.run(["create", alone, try workspace.image(2)]))
        let (ours, theirs) = (workspace.directory.file("ours.png"), workspace.directory.file("theirs.png"))
        ok(try workspace.run(["thumbnail", "-s", "128", g, ours]))
        ok(try workspace.run(["thumbnail", "-s", "128", alone, theirs]))
        #expect(try FileBytes.read(ours) == FileBytes.read(theirs))

        // git diff sees the choice.
        let textconv = try workspace.run(["textconv", g]).stdout
        #expect(textconv.contains("\ncover\t\(try workspace.content().images[2].id.manifestString)\n"), "\(textconv)")

        ok(try workspace.run(["cover", g, "--unset"]))
        #expect(try workspace.content().cover == nil)
        #expect(try info(workspace)["formatVersion"] as? String == "1.0")
        #expect((try info(workspace)["cover"] as? [String: Any])?["chosen"] as? Bool == false)
    }

    @Test func usageErrorsChangeNothing() throws {
        let workspace = try EditingWorkspace(images: 2)
        let before = try FileBytes.read(workspace.gallery)
        for arguments in [["cover", workspace.gallery], ["cover", workspace.gallery, "1", "--unset"],
                          ["cover", workspace.gallery, "9"]] {
            let result = try workspace.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
        }
        #expect(try workspace.run(["cover", workspace.gallery, "9"]).stderr.contains(workspace.gallery))
        #expect(try FileBytes.read(workspace.gallery) == before)
    }

    @Test func removingTheCoversImageFallsBackToTheFirst() throws {
        let workspace = try EditingWorkspace(images: 3)
        ok(try workspace.run(["cover", workspace.gallery, "2"]))
        ok(try workspace.run(["remove", workspace.gallery, "2"]))
        #expect(try workspace.content().cover == nil)
        #expect(try info(workspace)["formatVersion"] as? String == "1.0")
        #expect(try workspace.isValid())
    }

    /// A manifest whose cover names no image: written by Python's zipfile, as another tool would.
    @Test func theValidatorRefusesACoverNamingNoImage() throws {
        let workspace = try EditingWorkspace(images: 2)
        let broken = workspace.directory.file("broken.imagegallery")
        let script = """
            import json, sys, zipfile
            source, target = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w") as zout:
                for info in zin.infolist():
                    data = zin.read(info.filename)
                    if info.filename == "manifest.json":
                        manifest = json.loads(data)
                        manifest["formatVersion"] = "1.1"
                        manifest["cover"] = "9b6f7c1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
                        data = (json.dumps(manifest, indent=2) + "\\n").encode()
                    zout.writestr(info, data)
            """
        let made = try Subprocess.run("/usr/bin/python3", ["-c", script, workspace.gallery, broken])
        #expect(made.status == 0, "\(made.stderr)")
        let result = try workspace.run(["validate", broken])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("IG-MAN-017"), "\(result.stdout)")
    }

    @Test func aComicMarksTheCoverAndGivesItBack() throws {
        let workspace = try EditingWorkspace(images: 3)
        ok(try workspace.run(["cover", workspace.gallery, "image-1.png"]))
        let comic = workspace.directory.file("trip.cbz")
        ok(try workspace.run(["convert", workspace.gallery, comic]))
        let info = try Subprocess.run("/usr/bin/unzip", ["-p", comic, "ComicInfo.xml"]).stdout
        #expect(info.contains("<Page Image=\"1\" Type=\"FrontCover\""), "\(info)")
        #expect(!info.contains("<Page Image=\"0\" Type=\"FrontCover\""), "\(info)")

        let back = workspace.directory.file("back.imagegallery")
        ok(try workspace.run(["convert", comic, back]))
        let gallery = try workspace.content(back)
        #expect(gallery.coverImage?.filename == gallery.images[1].filename && gallery.cover != nil)

        // Without a chosen cover, page 1 is the FrontCover and the gallery comes back 1.0.
        ok(try workspace.run(["cover", workspace.gallery, "--unset"]))
        let plain = workspace.directory.file("plain.cbz")
        ok(try workspace.run(["convert", workspace.gallery, plain]))
        #expect(try Subprocess.run("/usr/bin/unzip", ["-p", plain, "ComicInfo.xml"]).stdout
            .contains("<Page Image=\"0\" Type=\"FrontCover\""))
        let plainBack = workspace.directory.file("plain.imagegallery")
        ok(try workspace.run(["convert", plain, plainBack]))
        #expect(try workspace.content(plainBack).cover == nil)
    }

    /// git's merge driver: theirs removed the cover's image; the merge falls back and says so.
    @Test func aMergeThatRemovesTheCoversImageSaysSo() throws {
        let workspace = try EditingWorkspace(images: 3)
        ok(try workspace.run(["cover", workspace.gallery, "3"]))
        let (base, theirs) = (workspace.directory.file("base.imagegallery"), workspace.directory.file("theirs.imagegallery"))
        try FileBytes.write(try FileBytes.read(workspace.gallery), to: base)
        try FileBytes.write(try FileBytes.read(workspace.gallery), to: theirs)
        ok(try workspace.run(["remove", theirs, "3"]))
        ok(try workspace.run(["caption", workspace.gallery, "1", "ours"]))
        let result = try workspace.run(["merge-driver", base, workspace.gallery, theirs])
        #expect(result.status == 0, "a notice, not a conflict: \(result.stderr)")
        #expect(result.stderr.contains("the first image is the cover again"), "\(result.stderr)")
        let merged = try workspace.content()
        #expect(merged.cover == nil && merged.images.count == 2 && merged.images[0].caption == "ours")
        #expect(try workspace.isValid())
    }
}
