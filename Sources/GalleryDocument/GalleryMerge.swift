import FoundationEssentials
import GalleryFormat
import GalleryImageHeaders

/// Three-way merge of two galleries descended from one base, keyed by image id: what each side
/// changed is kept, and only true conflicts (both sides changed one thing differently, or one
/// deleted what the other edited) are reported. Nothing either side added is ever lost.
///
/// - Images: the set is merged by id; each image's fields are merged one by one (the caption
///   on one side and the file name on the other both apply); the image's content (its blob)
///   counts as one field.
/// - Order: the side that reordered the images it shares with the base gives the order; what
///   the other side added is placed after the image it followed there. An image moved on both
///   sides appears once.
/// - `merge(x, x, x) == x`; `merge(b, o, b) == o` and `merge(b, b, t) == t` up to `modified`.
public enum GalleryMerge {
    /// Something both sides changed incompatibly; the merge kept one side (said in ``kind``).
    public struct Conflict: Sendable, Hashable, CustomStringConvertible {
        /// What conflicted, and which side was kept.
        public enum Kind: Sendable, Hashable {
            /// Both sides changed the title differently; ours is kept.
            case title
            /// Both sides changed one field of an image differently; ours is kept.
            case imageField(id: UUID, field: String)
            /// One side deleted an image the other edited; the edited image is kept.
            case deletedAndEdited(id: UUID)
            /// Both sides added an image with one id but different content; ours is kept.
            case addedTwice(id: UUID)
            /// Both sides reordered the images they share, differently; our order is kept.
            case order
            /// Both sides chose a different cover; ours is kept.
            case cover
            /// The cover's image was removed on one side, so the first image is the cover again:
            /// said, but no conflict (``isNotice``).
            case coverFellBack(id: UUID)
        }

        /// What conflicted.
        public var kind: Kind
        /// The conflict in words, saying which side was kept.
        public var description: String {
            switch kind {
            case .title: "both sides changed the title; ours is kept"
            case .imageField(let id, let field): "both sides changed the \(field) of image \(id.manifestString); ours is kept"
            case .deletedAndEdited(let id): "one side deleted image \(id.manifestString), the other edited it; it is kept"
            case .addedTwice(let id): "both sides added image \(id.manifestString) differently; ours is kept"
            case .order: "both sides reordered the images differently; our order is kept"
            case .cover: "both sides chose a different cover; ours is kept"
            case .coverFellBack(let id):
                "image \(id.manifestString), the cover, was removed on one side; the first image is the cover again"
            }
        }

        /// True for what the merge only says: it settled it, and nobody's choice was overruled.
        public var isNotice: Bool { if case .coverFellBack = kind { true } else { false } }
    }

    /// What a merge gives: the merged gallery, and what it could not settle.
    public struct Outcome: Sendable {
        /// The merged gallery; its `modified` is the later of the two sides'.
        public var gallery: Gallery
        /// What both sides changed incompatibly, in the order found (title and order first, then the
        /// images).
        public var conflicts: [Conflict]
        /// True when nothing conflicted (notices aside).
        public var isClean: Bool { conflicts.allSatisfy(\.isNotice) }
    }

    /// Thrown when the three galleries do not share one document id: they have no common history.
    public struct DifferentDocuments: Error, CustomStringConvertible {
        /// Why the merge was refused, in words.
        public var description: String { "the galleries are different documents (their ids differ): they cannot be merged" }
    }

    /// Merges `ours` and `theirs`, both descended from `base`. Pure: reads and writes nothing.
    ///
    /// - Throws: ``DifferentDocuments`` when the three ids are not one.
    public static func merge(base: Gallery, ours: Gallery, theirs: Gallery) throws -> Outcome {
        guard base.id == ours.id, base.id == theirs.id else { throw DifferentDocuments() }
        var conflicts: [Conflict] = []
        var merged = ours

        merged.title = pick(base.title, ours.title, theirs.title) { conflicts.append(Conflict(kind: .title)) }
        merged.modified = max(ours.modified, theirs.modified)
        merged.created = base.created

        // The images each side has, by id.
        let baseByID = Dictionary(base.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let oursByID = Dictionary(ours.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let theirsByID = Dictionary(theirs.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        var kept: [UUID: GalleryImage] = [:]
        var imageConflicts: [Conflict] = []
        for id in orderedUnion(base.images.map(\.id), ours.images.map(\.id), theirs.images.map(\.id)) {
            let b = baseByID[id], o = oursByID[id], t = theirsByID[id]
            switch (b, o, t) {
            case (let b?, let o?, let t?):
                kept[id] = mergeImage(b, o, t) { field in imageConflicts.append(Conflict(kind: .imageField(id: id, field: field))) }
            case (let b?, let o?, nil):
                // Theirs deleted it: gone, unless ours edited it.
                if o != b { kept[id] = o; imageConflicts.append(Conflict(kind: .deletedAndEdited(id: id))) }
            case (let b?, nil, let t?):
                if t != b { kept[id] = t; imageConflicts.append(Conflict(kind: .deletedAndEdited(id: id))) }
            case (_?, nil, nil):
                break
            case (nil, let o?, let t?):
                kept[id] = o
                if o != t { imageConflicts.append(Conflict(kind: .addedTwice(id: id))) }
            case (nil, let o?, nil):
                kept[id] = o
            case (nil, nil, let t?):
                kept[id] = t
            case (nil, nil, nil):
                break
            }
        }

        let order = mergeOrder(base: base.images.map(\.id), ours: ours.images.map(\.id), theirs: theirs.images.map(\.id),
                               keep: Set(kept.keys)) { conflicts.append(Conflict(kind: .order)) }
        merged.images = order.map { kept[$0]! }
        conflicts += imageConflicts
        mergeCover(base: base, ours: ours, theirs: theirs, into: &merged, conflicts: &conflicts)
        return Outcome(gallery: merged, conflicts: conflicts)
    }

    /// The cover as the title is merged; when the image either side had as its cover is gone
    /// from the merge, the first image stands for the gallery again, and the merge says so.
    private static func mergeCover(base: Gallery, ours: Gallery, theirs: Gallery, into merged: inout Gallery,
                                   conflicts: inout [Conflict]) {
        merged.cover = pick(base.cover, ours.cover, theirs.cover) { conflicts.append(Conflict(kind: .cover)) }
        merged.settleCover()
        let present = Set(merged.images.map(\.id))
        if merged.cover == nil, let lost = [ours.cover, theirs.cover, base.cover].compactMap({ $0 }).first(where: { !present.contains($0) }) {
            conflicts.append(Conflict(kind: .coverFellBack(id: lost)))
        }
    }

    /// The value each side agrees on, or the one that changed; ours (and `conflict`) when both
    /// changed it differently.
    static func pick<T: Equatable>(_ base: T, _ ours: T, _ theirs: T, conflict: () -> Void) -> T {
        if ours == theirs { return ours }
        if ours == base { return theirs }
        if theirs == base { return ours }
        conflict()
        return ours
    }

    static func mergeImage(_ b: GalleryImage, _ o: GalleryImage, _ t: GalleryImage,
                           conflict: (String) -> Void) -> GalleryImage {
        var image = o
        // The blob and what describes it change together: one field.
        struct Content: Equatable {
            var mediaType: MediaType, width: Int, height: Int, byteSize: UInt64, sha256: SHA256Digest
            init(_ image: GalleryImage) {
                (mediaType, width, height, byteSize, sha256) = (image.mediaType, image.width, image.height, image.byteSize, image.sha256)
            }
        }
        let content = pick(Content(b), Content(o), Content(t)) { conflict("content") }
        (image.mediaType, image.width, image.height, image.byteSize, image.sha256)
            = (content.mediaType, content.width, content.height, content.byteSize, content.sha256)
        image.caption = pick(b.caption, o.caption, t.caption) { conflict("caption") }
        image.filename = pick(b.filename, o.filename, t.filename) { conflict("filename") }
        image.source = pick(b.source, o.source, t.source) { conflict("source") }
        image.added = pick(b.added, o.added, t.added) { conflict("added") }
        return image
    }

    /// Every id, once, in the order first seen: base, then ours, then theirs.
    static func orderedUnion(_ lists: [UUID]...) -> [UUID] {
        var seen = Set<UUID>()
        return lists.joined().filter { seen.insert($0).inserted }
    }

    /// The merged order of the ids in `keep`.
    static func mergeOrder(base: [UUID], ours: [UUID], theirs: [UUID], keep: Set<UUID>, conflict: () -> Void) -> [UUID] {
        // How each side ordered the images all three still have.
        let shared = Set(base).intersection(ours).intersection(theirs)
        func relative(_ list: [UUID]) -> [UUID] { list.filter { shared.contains($0) } }
        let oursMoved = relative(ours) != relative(base)
        let theirsMoved = relative(theirs) != relative(base)
        if oursMoved && theirsMoved && relative(ours) != relative(theirs) { conflict() }
        let (primary, secondary) = theirsMoved && !oursMoved ? (theirs, ours) : (ours, theirs)

        var result = primary.filter { keep.contains($0) }
        var placed = Set(result)
        // What only the primary side added; where both sides added after one image, the
        // primary side's additions come first, as diff3 puts ours before theirs.
        let primaryAdded = Set(primary).subtracting(base).subtracting(secondary)
        let secondaryOnly = Set(secondary).subtracting(base).subtracting(primary)
        func secondaryAdded(_ id: UUID) -> Bool { secondaryOnly.contains(id) }
        func skippingPrimaryAdditions(from index: Int) -> Int {
            var index = index
            while index < result.count, primaryAdded.contains(result[index]) { index += 1 }
            return index
        }
        // What only the secondary side has goes after the image it followed there.
        var previous: UUID?
        for id in secondary {
            defer { if placed.contains(id) { previous = id } }
            guard keep.contains(id), !placed.contains(id) else { continue }
            if let previous, let index = result.firstIndex(of: previous) {
                result.insert(id, at: secondaryAdded(previous) ? index + 1 : skippingPrimaryAdditions(from: index + 1))
            } else {
                result.insert(id, at: skippingPrimaryAdditions(from: 0))
            }
            placed.insert(id)
        }
        // Every kept image is in ours or theirs, so both passes together placed them all.
        return result
    }
}
