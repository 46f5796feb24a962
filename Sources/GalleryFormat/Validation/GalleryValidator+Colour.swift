import GalleryImageHeaders

extension ValidationRun {
    /// Why a stored blob's colour description cannot be used, as the pictures made from it would
    /// find (issue 31): its segments, chunks or boxes, the profile's size, and the profile's own
    /// structure (``ICCProfileCheck``). A deflated blob is not read again for it; writers store
    /// images, so that is a hand-made archive's loss, not a user's.
    /// `whole` reads the entry's bytes when they are at hand in memory, instead of the file.
    static func colourProblem(of entry: ZipEntry, as type: MediaType, in archive: ZipArchive,
                              whole: ((UInt64, Int) throws -> [UInt8])?) -> ColourProblem? {
        guard type != .gif, let read = whole ?? (try? archive.storedBytes(of: entry)),
              let reading = try? ColourDescription.of(type, size: entry.uncompressedSize, read: read) else { return nil }
        return reading.structuralProblem
    }
}

extension ColourReading {
    /// Why our own checks refuse this description (IG-BLB-020 or IG-BLB-021): its segments,
    /// chunks or boxes, its profile's size, or the profile's structure (``ICCProfileCheck``).
    /// Nil when they pass, or when there is no profile to check.
    package var structuralProblem: ColourProblem? {
        if let problem { return ColourProblem(problem, code: .colourDescriptionUnusable) }
        do {
            if let profile = try description.iccProfile() { _ = try ICCProfileCheck.check(profile) }
            return nil
        } catch {
            return error
        }
    }
}
