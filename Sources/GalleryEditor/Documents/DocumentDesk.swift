import Foundation
import GalleryDocument
import GalleryFormat
import GallerySystem
import SystemPackage

/// The galleries open in the editor: one `GalleryDocument` per file, shared by every page that
/// shows it, closed (with its final save) when the last of those pages goes.
///
/// The desk decides nothing about content: edits go to the document layer, and what the pages
/// see is the view of what the layer then holds, pushed to every page on each of its events.
package actor DocumentDesk {
    struct Open {
        var document: GalleryDocument
        var pages: Set<String>
        var saving = false
        var watcher: Task<Void, Never>?
        /// The view last pushed: "Saving…" goes out from it at once, since the document itself
        /// answers nothing until its save is done.
        var lastView: DocumentView?
        /// Counts publishes, so that a view computed before a newer one began is not sent after it.
        var published = 0
        /// The `images` member of the last view, and the images it was written from: most events
        /// (a save's start and end, a title, an undo of a caption…) leave the list as it was, and
        /// at 100,000 images writing it again took most of a view's time.
        var imagesJSON: (images: [GalleryImage], json: [UInt8], version: Int)?
        /// The version of the list the last event sent: later events that show the same list
        /// leave it out, and the pages take it from the view they hold.
        var sentVersion: Int?
    }

    let library: GalleryLibrary
    private let events: EditorEvents
    private let options: DocumentOptions
    var open: [String: Open] = [:]
    /// The next list's version: one count for every document, so that a page never takes one
    /// gallery's list (or an earlier opening's) for another's.
    private var nextImagesVersion = 1
    private var opening: [String: Task<GalleryDocument, any Error>] = [:]
    private var closing: [String: Task<Void, Never>] = [:]
    /// Pages whose event stream ended, each with the close that follows its grace period.
    private var leaving: [String: Task<Void, Never>] = [:]
    /// Where each large gallery's first look is kept for its next open; nil keeps none.
    let looks: FirstLooks?
    /// The blobs of the early looks given out, by key, until their documents are open: the first
    /// screen's thumbnails are asked for by id before then.
    var earlyBlobs: [String: [UUID: SHA256Digest]] = [:]
    /// The whole list kept with such a look, read when a page first asks for a piece of it, and
    /// let go when its document opens; one at a time (17 MB at 100,000 images), so that a page
    /// that left before its document opened leaves no more than one behind.
    var earlyLists: [String: FirstLooks.KeptList] = [:]

    package init(library: GalleryLibrary, events: EditorEvents, options: DocumentOptions, looks: FirstLooks? = nil) {
        self.library = library
        self.events = events
        self.options = options
        self.looks = looks
    }

    /// The document for `key`, opened for `page` if it is not open yet.
    ///
    /// One document per file, even when a page's requests for a gallery arrive together: a
    /// second `GalleryDocument` of the same file would find the first one's lock and open for
    /// reading only ("… is editing it"). So a request waits for an open or a close of that file
    /// that is under way, and never gets a document that is being closed.
    package func document(_ key: String, for page: String) async throws -> GalleryDocument {
        while true {
            if let closed = closing[key] {
                await closed.value
            } else if var entry = open[key] {
                entry.pages.insert(page)
                open[key] = entry
                return entry.document
            } else if let opened = opening[key] {
                _ = try await opened.value
            } else {
                let task = Task { try await load(key) }
                opening[key] = task
                _ = try await task.value
            }
        }
    }

    /// Opens the gallery the editor was started for, before any page asks: the browser takes
    /// 0.1–0.3 s to load the page that asks, and at 100,000 images the open is most of the first
    /// paint, so the two overlap. The document is held for `grace`, as a page that left is, for
    /// the page to take it; then, if none did, it closes like any other.
    ///
    /// Not when a first look is kept for the file as it is now (FirstLooks): the page draws that
    /// at once, and an open beside it would take the processor from the page's first paint on a
    /// small machine; the page asks for the document once its first screen is drawn.
    package func openAtLaunch(_ key: String, grace: Duration) async {
        if let looks, looks.mayHold(key: key), let path = try? await library.path(forKey: key),
           await Self.look(looks, key: key, path: FilePath(path)) != nil {
            return
        }
        _ = try? await document(key, for: Self.launchPage)
        await pageLeft(Self.launchPage, grace: grace)
    }

    /// How long an open that a page's early look led to waits for that page to take it.
    static let earlyHold = Duration.seconds(30)

    /// The launch open's holder among the pages: a colon, which no page's name has (`page`).
    private static let launchPage = "launch:opening"

    /// Opens `key`'s document and enters it with no page yet (the caller adds its own).
    private func load(_ key: String) async throws -> GalleryDocument {
        defer { opening[key] = nil }
        let path = try await library.path(forKey: key)
        let document = GalleryDocument(path: path, options: options)
        try await document.open()
        await rememberFile(of: document, key: key, opened: true)
        // Others' changes to the file reach the page at once (reload, or a conflict to settle).
        try? await document.startPresenting()
        let stream = await document.events()
        let watcher = Task { [weak self] in
            for await event in stream { await self?.handle(event, key: key) }
        }
        open[key] = Open(document: document, pages: [], watcher: watcher)
        earlyBlobs[key] = nil
        earlyLists[key] = nil
        return document
    }

    /// The document for `key` if a page has it open, or once the open under way ends: a page
    /// drawn from an early look asks for thumbnails while its document opens.
    package func openDocument(_ key: String) async throws -> GalleryDocument {
        if open[key] == nil, opening[key] == nil, closing[key] == nil, earlyBlobs[key] != nil {
            // Photos the thumbnail cache lacks, asked for by a page drawn from an early look
            // before it asks for its document: the open starts here, held for the page as the
            // launch open is.
            _ = try await document(key, for: Self.launchPage)
            await pageLeft(Self.launchPage, grace: Self.earlyHold)
        }
        if open[key] == nil, let opened = opening[key] { _ = try await opened.value }
        guard let entry = open[key] else { throw EditorError.noSuchGallery(key) }
        return entry.document
    }

    /// The document's view as the pages see it now; with `first`, its first look
    /// (`DocumentView.windowed(first:)`), whose list is not written whole.
    package func view(_ key: String, first: Int? = nil) async throws -> DocumentView {
        guard let entry = open[key] else { throw EditorError.noSuchGallery(key) }
        var view = try await DocumentView(key: key, document: entry.document, saving: entry.saving)
        if let first, first < view.galleryImages.count { return view.windowed(first: first) }
        (view.imagesJSON, view.imagesVersion) = await written(key, view.galleryImages)
        return view
    }

    /// Images `from ..< from + count` of the document's list (fewer at its end), its length, and
    /// the version of the list they were cut from: a page that opened with a first look fills its
    /// list in such pieces, and a piece of another version tells it the list changed meanwhile.
    /// While the list is its file's (no unsaved change), `token` names that file's revision, as
    /// an early look's does: a page that took the list kept with that look then keeps it.
    package func images(_ key: String, from: Int, count: Int)
        async throws -> (images: ArraySlice<GalleryImage>, total: Int, version: Int, token: String?) {
        guard let entry = open[key] else { throw EditorError.noSuchGallery(key) }
        let (gallery, filed) = try await entry.document.galleryAsFiled
        let images = gallery.images
        let version = await written(key, images).version
        let start = min(max(0, from), images.count)
        return (images[start ..< min(images.count, start + max(0, count))], images.count, version, filed.map(FirstLooks.token(of:)))
    }

    /// `images` as the pages read them, and its version: written once per list. Arrays that
    /// share storage compare at once, so a list that did not change is not written again.
    private func written(_ key: String, _ images: [GalleryImage]) async -> (json: [UInt8], version: Int) {
        if let cached = open[key]?.imagesJSON, cached.images == images { return (cached.json, cached.version) }
        // Written off the desk (50 ms at 100,000 images), so that the thumbnails of a page's
        // first screen, which ask the desk for their document, do not wait for it.
        let json = await Self.written(images)
        // Another view may have written the same list meanwhile: one version for one list.
        if let cached = open[key]?.imagesJSON, cached.images == images { return (cached.json, cached.version) }
        let version = nextImagesVersion
        nextImagesVersion += 1
        open[key]?.imagesJSON = (images, json, version)
        return (json, version)
    }

    @concurrent private static func written(_ images: [GalleryImage]) async -> [UInt8] { DocumentView.imagesJSON(images) }

    /// Whether `key` is open here (a file the editor holds is not renamed or trashed under it).
    package func isOpen(_ key: String) -> Bool { open[key] != nil }

    private func handle(_ event: DocumentEvent, key: String) async {
        switch event {
        case .saving:
            open[key]?.saving = true
            // Not for a document closed meanwhile: nothing would clear the mark.
            if open[key] != nil { await library.setSaving(key, true) }
            if var view = open[key]?.lastView {
                view.saving = true
                open[key]?.published += 1  // a view computed before the save began is stale now
                await send(view, key: key)
                return
            }
        case .saved:
            // The library learns of the new file while the desk still counts the save as under
            // way: a publish that runs in this await (a page's edit, an earlier event) sees
            // `saving` and lists no galleries, so no listing reads the new file in between.
            if let document = open[key]?.document { await rememberFile(of: document, key: key, opened: false) }
            await library.setSaving(key, false)
            open[key]?.saving = false
        case .conflict, .stateChanged(.savingError):
            // The file may not be what the document wrote: the next listing reads it.
            await library.invalidate(key)
            open[key]?.saving = false
        case .stateChanged, .contentChanged: break
        }
        await publish(key)
    }

    /// Gives the library what the document's file holds, from the document's own reader of it:
    /// the listing that follows a save or an open then reads no gallery (at 100,000 images, a
    /// 37 MB manifest). A document without its file (closed meanwhile) leaves the file to be read.
    private func rememberFile(of document: GalleryDocument, key: String, opened: Bool) async {
        if let file = await document.file {
            await library.remember(key, path: document.path, reader: file.reader, identity: file.identity)
            // The next open of this revision of the file shows its first look at once. Kept off
            // the desk: at 100,000 images the look and its list are 18 MB to write and hash. After
            // an open, once the page has drawn its first screen (the look is there already if this
            // file was opened before); after a save at once, since an editor closed straight
            // after its last save would otherwise keep none for the file it leaves.
            if let looks, file.reader.gallery.images.count > looks.count {
                let (gallery, fileName) = (file.reader.gallery, GalleryFileSystem.fileName(of: document.path))
                // On a thread of its own, behind the page: the work (150 ms at 100,000 images)
                // would hold one of the few threads that answer the page's requests meanwhile,
                // and take a core from the browser while the page scrolls.
                let store = { SystemThread.runInBackground { looks.store(gallery, key: key, fileName: fileName, identity: file.identity) } }
                if opened {
                    Task.detached(priority: .utility) {
                        try? await Task.sleep(for: looks.settle)
                        store()
                    }
                } else {
                    store()
                }
            }
        } else {
            await library.invalidate(key)
        }
    }

    /// Pushes the document's view to every page.
    package func publish(_ key: String) async {
        guard open[key] != nil else { return }
        open[key]!.published += 1
        let number = open[key]!.published
        // The view awaits the document, and a save's events may publish meanwhile: only the
        // newest view goes out, so an old "saving" can never follow "saved".
        guard let view = try? await view(key), open[key]?.published == number else { return }
        open[key]?.lastView = view
        await send(view, key: key)
        if case .some = open[key], !view.saving, !view.edited {
            await events.broadcast("library", data: await library.galleries())
        }
    }

    /// Sends the view to every page as an event: without its list of images when the last event
    /// sent that list (a page that missed it asks for the whole view, by the version it lacks).
    private func send(_ view: DocumentView, key: String) async {
        var event = view
        event.leavesOutImages = open[key]?.sentVersion == view.imagesVersion
        open[key]?.sentVersion = view.imagesVersion
        await events.broadcast("document", json: event.json)
    }

    /// The page's event stream ended (a reload, a closed tab): its documents stay open for
    /// `grace`, so that the page a reload makes finds them as they were, undo history and all,
    /// and are then closed unless another page has opened them meanwhile.
    package func pageLeft(_ page: String, grace: Duration) async {
        guard grace > .zero else { return await pageClosed(page) }
        leaving[page]?.cancel()
        leaving[page] = Task {
            try? await Task.sleep(for: grace)
            guard !Task.isCancelled else { return }
            leaving[page] = nil
            await pageClosed(page)
        }
    }

    /// The page's event stream is back before its grace period ended: nothing closes.
    package func pageReturned(_ page: String) {
        leaving.removeValue(forKey: page)?.cancel()
    }

    /// The page went (or, with `only`, left that gallery): documents no other page shows are
    /// closed, with their final save.
    package func pageClosed(_ page: String, only: String? = nil) async {
        for key in open.keys where only == nil || only == key {
            // Read afresh: a close awaited for an earlier key lets other requests change the desk.
            guard var entry = open[key], entry.pages.remove(page) != nil else { continue }
            if entry.pages.isEmpty {
                await close(key)
            } else {
                open[key] = entry
            }
        }
    }

    /// Closes `key`'s document (a final save). A save that fails keeps it open, edits and all.
    package func close(_ key: String) async {
        if let under = closing[key] { return await under.value }
        guard let entry = open[key] else { return }
        let task = Task {
            defer { closing[key] = nil }
            do {
                let closed = try await entry.document.close()
                entry.watcher?.cancel()
                open[key] = nil
                // A final save is a new file, which the listing reads; the file as the
                // document last read or saved it is remembered already.
                if closed != .unchanged { await library.invalidate(key) } else { await library.setSaving(key, false) }
                await events.broadcast("library", data: await library.galleries())
            } catch {
                await publish(key)
            }
        }
        closing[key] = task
        await task.value
    }

    /// Closes every document (the server is stopping); returns the failures, each naming its file.
    package func closeAll() async -> [String] {
        var failures: [String] = []
        for task in leaving.values { task.cancel() }
        leaving = [:]
        // An open or a close under way ends first, so that no document is left holding its lock.
        for task in opening.values { _ = try? await task.value }
        for task in closing.values { await task.value }
        for (key, entry) in open {
            do {
                _ = try await entry.document.close()
            } catch {
                failures.append("\(entry.document.path): \(error)")
            }
            entry.watcher?.cancel()
            open[key] = nil
        }
        return failures
    }
}
