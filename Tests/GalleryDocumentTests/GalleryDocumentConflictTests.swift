import Foundation
@testable import GalleryDocument
import GalleryFormat
import GalleryTestSupport
import Testing

/// Someone else writes the file: before the save, during it, restoring the mtime, as a sync
/// client's conflict copy. Nothing of either side may be lost; theirs stays on disk and ours
/// becomes an unresolved version. Then the ways out: replace, mark resolved, remove, merge.
@Suite("Document conflicts")
struct GalleryDocumentConflictTests {
    let directory: TemporaryDirectory
    var path: String { directory.file("trip.imagegallery") }

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The saved document every test starts from (one image, `base`), and another revision of
    /// it made elsewhere by adding image B (`theirs`, a file in the "elsewhere" folder).
    struct Start {
        var documentID: UUID
        var base: GalleryImage
        var theirs: String
        var theirsBytes: [UInt8]
        var theirsImage: GalleryImage
    }

    func start() async throws -> Start {
        let created = try await GalleryDocument.create(at: path, title: "Trip", options: directory.documentOptions())
        let base = try await created.insertImage(data: TestImage.png(seed: 1), filename: "base.png")
        try await created.save()
        let documentID = try await created.gallery.id
        try await created.close()
        var added: GalleryImage?
        let theirs = try await otherRevision(of: path, in: directory) { other in
            added = try await other.insertImage(data: TestImage.png(seed: 2), filename: "theirs.png")
        }
        #expect(try DiskGallery.read(theirs).id == documentID, "the copy is the same document")
        return Start(documentID: documentID, base: base, theirs: theirs, theirsBytes: try FileBytes.read(theirs),
                     theirsImage: try #require(added))
    }

    func open(_ options: DocumentOptions? = nil) async throws -> GalleryDocument {
        let document = GalleryDocument(path: path, options: options ?? directory.documentOptions())
        #expect(try await document.open().state == .normal)
        return document
    }

    /// What every conflicting save must leave: their bytes on disk, the document showing
    /// theirs, ours as the one unresolved version (a valid gallery with `holding`, our added
    /// image's bytes intact), and their file kept as a resolved version too.
    @discardableResult
    func expectKeptAsVersion(_ result: DocumentCloseResult, _ document: GalleryDocument, theirsBytes: [UInt8],
                             documentID: UUID, holding: [GalleryImage], ours: (image: GalleryImage, bytes: [UInt8])?,
                             theirs isTheirs: (Gallery) -> Bool,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws -> DocumentVersion? {
        guard case .keptAsVersion(let versionID) = result else {
            Issue.record("the save returned \(result), not keptAsVersion", sourceLocation: sourceLocation)
            return nil
        }
        #expect(await document.state == .inConflict, sourceLocation: sourceLocation)
        #expect(try FileBytes.read(path) == theirsBytes, "their file stays on disk, byte for byte", sourceLocation: sourceLocation)
        let unresolved = try await document.unresolvedVersions()
        #expect(unresolved.map(\.id) == [versionID], sourceLocation: sourceLocation)
        guard let version = unresolved.first else { return nil }
        #expect(version.origin == .ours && !version.isResolved && version.missingImages.isEmpty, sourceLocation: sourceLocation)
        #expect(version.documentID == documentID, sourceLocation: sourceLocation)
        let kept = try GalleryReader(path: version.file)
        #expect(kept.gallery.id == documentID, sourceLocation: sourceLocation)
        #expect(Set(kept.gallery.images.map(\.id)) == Set(holding.map(\.id)), sourceLocation: sourceLocation)
        if let ours {
            #expect(try DiskGallery.blobs(version.file)[ours.image.id] == ours.bytes, sourceLocation: sourceLocation)
        }
        try DiskGallery.expectValid(version.file, sourceLocation: sourceLocation)

        // The document reads theirs now; nothing is unsaved.
        let content = try await document.gallery
        #expect(isTheirs(content), "the document shows \(content.title), \(content.images.map(\.filename))",
                sourceLocation: sourceLocation)
        #expect(await document.hasUnsavedChanges == false, sourceLocation: sourceLocation)
        // Their file is kept too, in case a later writer loses it.
        let others = try await document.otherVersions()
        let theirCopy = others.first { $0.origin == .theirs }
        #expect(theirCopy?.isResolved == true, "their file is kept as a resolved version: \(others)",
                sourceLocation: sourceLocation)
        if let theirCopy {
            #expect(try FileBytes.read(theirCopy.file) == theirsBytes, sourceLocation: sourceLocation)
        }
        return version
    }

    // MARK: (a) A copy over the file before the save

    @Test func aCopyOverTheFileBeforeTheSaveIsAConflict() async throws {
        let start = try await start()
        let document = try await open()
        let events = await document.events()
        let oursBytes = TestImage.png(seed: 3)
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png")
        try Disk.run("/bin/cp", [start.theirs, path])

        let result: DocumentCloseResult
        do {
            result = try await document.save()
        } catch {
            Issue.record("the conflicting save threw instead of keeping ours: \(error)")
            #expect(try FileBytes.read(path) == start.theirsBytes, "their file must stay even so")
            #expect(await document.hasUnsavedChanges, "and our edits must still be in memory")
            return
        }
        let version = try await expectKeptAsVersion(
            result, document, theirsBytes: start.theirsBytes, documentID: start.documentID,
            holding: [start.base, ours], ours: (ours, oursBytes),
            theirs: { $0.images.map(\.id) == [start.base.id, start.theirsImage.id] })

        #expect(try await document.close() == .unchanged)
        var seen: [DocumentEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.compactMap(\.conflictVersion).map(\.id) == [version?.id].compactMap { $0 })
        #expect(seen.compactMap(\.state).contains(.inConflict))
    }

    /// The same as (a), with our new image first: its thumbnail comes from our own bytes, not
    /// from the file as we read it (which cp overwrote in place).
    @Test func aCopyOverTheFileIsAConflictWhenOursBeginsWithANewImage() async throws {
        let start = try await start()
        let document = try await open()
        let oursBytes = TestImage.png(seed: 3)
        let events = await document.events()
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png", at: 0)
        try Disk.run("/bin/cp", [start.theirs, path])
        let result = try await document.save()
        let version = try await expectKeptAsVersion(
            result, document, theirsBytes: start.theirsBytes, documentID: start.documentID,
            holding: [start.base, ours], ours: (ours, oursBytes),
            theirs: { $0.images.map(\.id) == [start.base.id, start.theirsImage.id] })
        #expect(try await document.close() == .unchanged)
        var seen: [DocumentEvent] = []
        for await event in events { seen.append(event) }
        #expect(seen.compactMap(\.conflictVersion).map(\.id) == [version?.id].compactMap { $0 })
        #expect(seen.compactMap(\.state) == [.inConflict, .closed])
        #expect(seen.compactMap(\.savedRevision).isEmpty, "nothing of ours reached the file")
        // The last content event is theirs, read back after the conflict.
        #expect(seen.compactMap(\.content).last?.images.map(\.id) == [start.base.id, start.theirsImage.id])
    }

    /// An unresolved version outlives the editing session: the next open is in conflict.
    @Test func anUnresolvedVersionIsStillThereAfterReopening() async throws {
        let (document, version, _, _) = try await conflicted()
        try await document.close()
        let again = GalleryDocument(path: path, options: directory.documentOptions())
        let result = try await again.open()
        #expect(result.state == .inConflict)
        #expect(result.unresolvedVersions.map(\.id) == [version.id])
        try await again.close()
    }

    // MARK: (b) Same size, mtime restored

    /// Another revision of exactly the same size as the file (its title changed to one of the
    /// same length, its revision renewed until the deflated manifest comes out the same size).
    func sameSizeRevision(of file: String, title: String) throws -> String? {
        let reader = try GalleryReader(path: file)
        let size = try FileBytes.read(file).count
        let thumbnail = try reader.thumbnail()
        let folder = directory.file("elsewhere")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for attempt in 0 ..< 500 {
            var gallery = reader.gallery
            gallery.title = title
            gallery.revision = UUID()
            let candidate = folder + "/same-size-\(attempt).imagegallery"
            try GalleryWriter.write(gallery, thumbnail: thumbnail, to: candidate, overwrite: false, durable: false) { image in
                .entry(reader.archive, try reader.blobEntry(for: image))
            }
            if try FileBytes.read(candidate).count == size { return candidate }
            unlink(candidate)
        }
        return nil
    }

    @Test func aSameSizeWriteWithTheMtimeRestoredIsAConflict() async throws {
        let start = try await start()
        let document = try await open()
        let oursBytes = TestImage.png(seed: 3)
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png")

        let theirs = try #require(try sameSizeRevision(of: path, title: "Trap"), "no same-size revision in 500 tries")
        let theirsBytes = try FileBytes.read(theirs)
        #expect(try theirsBytes != FileBytes.read(path) && theirsBytes.count == FileBytes.read(path).count)
        let reference = directory.file("elsewhere/reference")
        try Disk.run("/bin/cp", ["-p", path, reference])  // the original times
        try Disk.run("/bin/cp", [theirs, path])
        try Disk.run("/usr/bin/touch", ["-r", reference, path])
        let now = try #require(Disk.status(path)), was = try #require(Disk.status(reference))
        #expect(now.st_size == was.st_size)
        #expect(now.st_mtim.tv_sec == was.st_mtim.tv_sec && now.st_mtim.tv_nsec == was.st_mtim.tv_nsec,
                "the mtime is restored: only the ctime and the content tell")

        let result: DocumentCloseResult
        do {
            result = try await document.save()
        } catch {
            Issue.record("the conflicting save threw instead of keeping ours: \(error)")
            #expect(try FileBytes.read(path) == theirsBytes, "their file must stay even so")
            return
        }
        try await expectKeptAsVersion(result, document, theirsBytes: theirsBytes, documentID: start.documentID,
                                      holding: [start.base, ours], ours: (ours, oursBytes),
                                      theirs: { $0.title == "Trap" && $0.images.map(\.id) == [start.base.id] })
        try await document.close()
    }

    // MARK: (c) A write in the save window

    @Test func aCopyDuringTheSaveWindowIsAConflict() async throws {
        let start = try await start()
        let shot = OneShot()
        var options = directory.documentOptions()
        let theirs = start.theirs
        options.beforeSwap = { target in
            guard shot.fire() else { return }
            shot.note(try Subprocess.run("/bin/cp", [theirs, target]).status)
        }
        let document = try await open(options)
        let oursBytes = TestImage.png(seed: 3)
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png")

        let result: DocumentCloseResult
        do {
            result = try await document.save()
        } catch {
            Issue.record("the conflicting save threw instead of keeping ours: \(error)")
            #expect(try FileBytes.read(path) == start.theirsBytes, "their file must stay even so")
            #expect(await document.hasUnsavedChanges, "and our edits must still be in memory")
            return
        }
        #expect(shot.statuses == [0], "cp ran once, in the save window")
        try await expectKeptAsVersion(result, document, theirsBytes: start.theirsBytes, documentID: start.documentID,
                                      holding: [start.base, ours], ours: (ours, oursBytes),
                                      theirs: { $0.images.map(\.id) == [start.base.id, start.theirsImage.id] })
        #expect(Disk.names(in: directory.path).filter { $0.contains(".save-") }.isEmpty, "no save file is left behind")
        try await document.close()
    }

    /// The other common writer: a new file renamed over the document (as a sync client or
    /// another editor's safe save does), in the save window.
    @Test func aRenameDuringTheSaveWindowIsAConflict() async throws {
        let start = try await start()
        let staged = directory.file("elsewhere/staged.imagegallery")
        try Disk.run("/bin/cp", [start.theirs, staged])
        let shot = OneShot()
        var options = directory.documentOptions()
        options.beforeSwap = { target in
            guard shot.fire() else { return }
            shot.note(try Subprocess.run("/bin/mv", [staged, target]).status)
        }
        let document = try await open(options)
        let oursBytes = TestImage.png(seed: 3)
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png")
        let result = try await document.save()
        #expect(shot.statuses == [0])
        try await expectKeptAsVersion(result, document, theirsBytes: start.theirsBytes, documentID: start.documentID,
                                      holding: [start.base, ours], ours: (ours, oursBytes),
                                      theirs: { $0.images.map(\.id) == [start.base.id, start.theirsImage.id] })
        try await document.close()
    }

    // MARK: (d) A clean document

    /// With nothing unsaved there is nothing to keep: save leaves theirs alone, revert reads
    /// it, and no version is made.
    @Test func aCleanDocumentTakesTheirsWithoutAVersion() async throws {
        let start = try await start()
        let document = try await open()
        try Disk.run("/bin/cp", [start.theirs, path])
        #expect(try await document.save() == .unchanged)
        #expect(try FileBytes.read(path) == start.theirsBytes)
        #expect(await document.state == .normal)

        try await document.revert()
        #expect(try await document.gallery.images.map(\.id) == [start.base.id, start.theirsImage.id])
        #expect(await document.state == .normal)
        #expect(try await document.otherVersions().isEmpty)
        #expect(Disk.names(in: directory.versionStore.folder(for: start.documentID).string).isEmpty)

        // And from there it edits and saves as usual.
        try await document.setTitle("On top of theirs")
        guard case .saved = try await document.save() else {
            Issue.record("the save after revert did not go through")
            return
        }
        let disk = try DiskGallery.read(path)
        #expect(disk.title == "On top of theirs" && disk.images.map(\.id) == [start.base.id, start.theirsImage.id])
        try DiskGallery.expectValid(path)
        try await document.close()
    }

    /// Clean when the file changed, edited afterwards: the edit was made on what we read, not
    /// on theirs, so the save is a conflict.
    @Test func anEditAfterAnExternalChangeIsAConflict() async throws {
        let start = try await start()
        let document = try await open()
        try Disk.run("/bin/cp", [start.theirs, path])
        try await document.setTitle("Ours")

        let result: DocumentCloseResult
        do {
            result = try await document.save()
        } catch {
            Issue.record("the conflicting save threw instead of keeping ours: \(error)")
            #expect(try FileBytes.read(path) == start.theirsBytes, "their file must stay even so")
            #expect(await document.hasUnsavedChanges, "and our edits must still be in memory")
            return
        }
        let version = try await expectKeptAsVersion(
            result, document, theirsBytes: start.theirsBytes, documentID: start.documentID, holding: [start.base],
            ours: nil, theirs: { $0.title == "Trip" && $0.images.count == 2 })
        #expect(version?.title == "Ours")
        try await document.close()
    }

    /// Their file is not a gallery at all: ours is kept as a version, their bytes stay, and
    /// the document says the save did not reach the file.
    @Test func aFileReplacedByNonsenseKeepsOursAndReportsIt() async throws {
        let start = try await start()
        let document = try await open()
        let oursBytes = TestImage.png(seed: 3)
        let ours = try await document.insertImage(data: oursBytes, filename: "ours.png")
        let nonsense = Array("this is not a gallery any more\n".utf8)
        let staged = directory.file("elsewhere/nonsense")
        try FileBytes.write(nonsense, to: staged)
        try Disk.run("/bin/mv", [staged, path])

        let result = try await document.save()
        guard case .keptAsVersion(let id) = result else {
            Issue.record("the save returned \(result)")
            return
        }
        #expect(try FileBytes.read(path) == nonsense)
        let version = try #require(try await document.unresolvedVersions().first { $0.id == id })
        #expect(Set(try DiskGallery.read(version.file).images.map(\.id)) == [start.base.id, ours.id])
        #expect(try DiskGallery.blobs(version.file)[ours.id] == oursBytes)
        #expect(await document.saveError != nil, "the document could not read the file back: that is a saving error")
        #expect(await document.state == .savingError)
    }
}
