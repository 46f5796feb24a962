import GallerySystem

/// The opened folders watched with inotify: a gallery another program adds, removes, renames or
/// rewrites shows in every page's document browser without a reload.
enum LibraryWatch {
    /// One watch per folder; a folder that cannot be watched is listed anyway, and the page
    /// shows changes there on its next listing.
    static func start(_ state: EditorState) -> [FolderWatch] {
        state.library.roots.folders.compactMap { folder in
            try? FolderWatch(folder: folder, settle: .milliseconds(150)) { names, _ in
                guard names.contains(where: { $0.lowercased().hasSuffix(".imagegallery") }) else { return }
                Task { await state.events.broadcast("library", data: await state.library.galleries()) }
            }
        }
    }
}
