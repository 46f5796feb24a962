import Foundation
@testable import GalleryDocument
import GalleryFormat
import Testing

/// Three-way merge by image id: the properties the document layer and the git driver rely on.
@Suite("Three-way merge")
struct GalleryMergeTests {
    static let document = UUID(uuidString: "6F1C0D8E-2B44-4C39-9C0E-3B1A7E5D2F10")!

    static func image(_ n: Int, caption: String? = nil) -> GalleryImage {
        var digest = [UInt8](repeating: 0, count: 32)
        digest[0] = UInt8(n & 0xFF)
        digest[1] = UInt8(n >> 8)
        let sha = digest.withUnsafeBytes { SHA256Digest(bytes: $0) }
        return GalleryImage(id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))!, mediaType: .jpeg,
                            width: 10, height: 10, byteSize: 100, sha256: sha, caption: caption)
    }

    static func gallery(_ images: [GalleryImage], title: String = "Trip", modified: Int64 = 0) -> Gallery {
        Gallery(id: document, revision: UUID(), title: title, created: Timestamp(seconds: 0),
                modified: Timestamp(seconds: modified), images: images)
    }

    func ids(_ gallery: Gallery) -> [Int] { gallery.images.map { Int($0.id.uuidString.suffix(12))! } }

    @Test func mergingAnythingWithItselfChangesNothing() throws {
        let x = Self.gallery((1 ... 5).map { Self.image($0) })
        let outcome = try GalleryMerge.merge(base: x, ours: x, theirs: x)
        #expect(outcome.isClean)
        #expect(outcome.gallery == x)
    }

    @Test func bothSidesAddingKeepBoth() throws {
        let base = Self.gallery((1 ... 3).map { Self.image($0) })
        let ours = Self.gallery((1 ... 3).map { Self.image($0) } + [Self.image(10)])
        let theirs = Self.gallery([Self.image(1), Self.image(20), Self.image(2), Self.image(3)])
        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(outcome.isClean)
        #expect(ids(outcome.gallery) == [1, 20, 2, 3, 10])
    }

    @Test func aReorderAndACaptionBothApply() throws {
        let base = Self.gallery((1 ... 4).map { Self.image($0) })
        let ours = Self.gallery([4, 3, 2, 1].map { Self.image($0) })
        let theirs = Self.gallery([Self.image(1), Self.image(2, caption: "harbour"), Self.image(3), Self.image(4)],
                                  title: "Harbour trip")
        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(outcome.isClean)
        #expect(ids(outcome.gallery) == [4, 3, 2, 1])
        #expect(outcome.gallery.images[2].caption == "harbour")
        #expect(outcome.gallery.title == "Harbour trip")
    }

    @Test func anImageMovedOnBothSidesAppearsOnce() throws {
        let base = Self.gallery((1 ... 4).map { Self.image($0) })
        let ours = Self.gallery([2, 3, 4, 1].map { Self.image($0) })
        let theirs = Self.gallery([2, 1, 3, 4].map { Self.image($0) })
        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(ids(outcome.gallery).sorted() == [1, 2, 3, 4])
        #expect(outcome.conflicts.map(\.kind) == [.order])
        // The same move on both sides is no conflict.
        let same = try GalleryMerge.merge(base: base, ours: ours, theirs: ours)
        #expect(same.isClean && ids(same.gallery) == [2, 3, 4, 1])
    }

    @Test func aDeleteAgainstAnEditIsAConflictThatLosesNothing() throws {
        let base = Self.gallery((1 ... 3).map { Self.image($0) })
        let ours = Self.gallery([Self.image(1), Self.image(3)])
        let theirs = Self.gallery([Self.image(1), Self.image(2, caption: "kept"), Self.image(3)])
        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(outcome.conflicts.map(\.kind) == [.deletedAndEdited(id: Self.image(2).id)])
        #expect(ids(outcome.gallery) == [1, 2, 3])
        #expect(outcome.gallery.images[1].caption == "kept")
        // A delete against no edit is simply a delete.
        let plain = try GalleryMerge.merge(base: base, ours: ours, theirs: base)
        #expect(plain.isClean && ids(plain.gallery) == [1, 3])
    }

    @Test func bothChangingOneFieldIsAConflictKeepingOurs() throws {
        let base = Self.gallery([Self.image(1, caption: "a")], title: "T")
        let ours = Self.gallery([Self.image(1, caption: "b")], title: "Ours")
        let theirs = Self.gallery([Self.image(1, caption: "c")], title: "Theirs")
        let outcome = try GalleryMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(Set(outcome.conflicts.map(\.kind)) == [.title, .imageField(id: Self.image(1).id, field: "caption")])
        #expect(outcome.gallery.title == "Ours" && outcome.gallery.images[0].caption == "b")
    }

    @Test func differentDocumentsAreRefused() {
        let x = Self.gallery([])
        var other = x
        other.id = UUID()
        #expect(throws: GalleryMerge.DifferentDocuments.self) { try GalleryMerge.merge(base: x, ours: x, theirs: other) }
    }

    /// Random edits on one side only: the merge is that side, whichever side it is.
    @Test func oneSidedEditsComeThroughUnchanged() throws {
        var generator = SystemRandomNumberGenerator()
        for round in 0 ..< 200 {
            let base = Self.gallery((0 ..< Int.random(in: 0 ... 8, using: &generator)).map { Self.image($0) })
            var images = base.images
            for step in 0 ..< Int.random(in: 1 ... 5, using: &generator) {
                switch Int.random(in: 0 ... 3, using: &generator) {
                case 0: images.insert(Self.image(100 + round * 10 + step), at: Int.random(in: 0 ... images.count, using: &generator))
                case 1 where !images.isEmpty: images.remove(at: Int.random(in: 0 ..< images.count, using: &generator))
                case 2 where images.count > 1: images.swapAt(0, images.count - 1)
                case 3 where !images.isEmpty: images[0].caption = "edit \(step)"
                default: break
                }
            }
            let edited = Self.gallery(images, title: round % 2 == 0 ? "Trip" : "Renamed")
            let left = try GalleryMerge.merge(base: base, ours: edited, theirs: base)
            let right = try GalleryMerge.merge(base: base, ours: base, theirs: edited)
            #expect(left.isClean && left.gallery.images == edited.images && left.gallery.title == edited.title)
            #expect(right.isClean && right.gallery.images == edited.images && right.gallery.title == edited.title)
        }
    }
}

/// The cover in a three-way merge: merged as the title is, and dropped, with a notice, when its
/// image was removed on one side.
@Suite("Three-way merge: cover")
struct GalleryMergeCoverTests {
    func gallery(_ numbers: [Int], cover: Int? = nil) -> Gallery {
        var gallery = GalleryMergeTests.gallery(numbers.map { GalleryMergeTests.image($0) })
        gallery.cover = cover.map { GalleryMergeTests.image($0).id }
        return gallery
    }

    @Test func oneSidesChoiceApplies() throws {
        let outcome = try GalleryMerge.merge(base: gallery([1, 2, 3]), ours: gallery([1, 2, 3]),
                                             theirs: gallery([1, 2, 3], cover: 3))
        #expect(outcome.isClean && outcome.conflicts.isEmpty)
        #expect(outcome.gallery.cover == GalleryMergeTests.image(3).id)
    }

    @Test func theCoversImageRemovedOnOneSideFallsBackAndIsSaid() throws {
        for (ours, theirs) in [(gallery([1, 2, 3], cover: 2), gallery([1, 3])),
                               (gallery([1, 3]), gallery([1, 2, 3], cover: 2))] {
            let outcome = try GalleryMerge.merge(base: gallery([1, 2, 3], cover: 2), ours: ours, theirs: theirs)
            #expect(outcome.gallery.cover == nil)
            #expect(outcome.gallery.coverImage == GalleryMergeTests.image(1))
            #expect(outcome.isClean, "a notice, not a conflict")
            #expect(outcome.conflicts.map(\.kind) == [.coverFellBack(id: GalleryMergeTests.image(2).id)])
            #expect(outcome.conflicts.first?.description.contains("the first image is the cover again") == true)
        }
        // Chosen on one side while the other removed the image.
        let outcome = try GalleryMerge.merge(base: gallery([1, 2, 3]), ours: gallery([1, 2, 3], cover: 2),
                                             theirs: gallery([1, 3]))
        #expect(outcome.gallery.cover == nil && outcome.gallery.brokenRule() == nil)
        #expect(outcome.conflicts.map(\.kind) == [.coverFellBack(id: GalleryMergeTests.image(2).id)])
    }

    @Test func twoChoicesConflictAndOursIsKept() throws {
        let outcome = try GalleryMerge.merge(base: gallery([1, 2, 3]), ours: gallery([1, 2, 3], cover: 2),
                                             theirs: gallery([1, 2, 3], cover: 3))
        #expect(!outcome.isClean)
        #expect(outcome.conflicts.map(\.kind) == [.cover])
        #expect(outcome.gallery.cover == GalleryMergeTests.image(2).id)
    }
}
