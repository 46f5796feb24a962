import GalleryFormat
import GalleryImaging
import GallerySystem
import SystemPackage

/// One thumbnail, made by a process that has shut itself in first (Specs/security.md, "The
/// confined thumbnailer"). The order is the design:
/// 1. open INPUT and OUTPUT, and lower the resource limits;
/// 2. Landlock and a seccomp filter that still allows `openat` (Landlock keeps it to INPUT,
///    OUTPUT and the library folders): from here no byte of INPUT has been read;
/// 3. read the container and the manifest (Swift, bounds-checked), and load the library of the
///    first image's decoder if it is one loaded when first needed, and Little CMS when that
///    image will be decoded (its colour profile converted to sRGB);
/// 4. a second seccomp filter without `openat`: no C decoder runs before it;
/// 5. decode, filter, encode, and write OUTPUT in place.
struct ConfinedThumbnail {
    let size: Int
    let input: String
    let output: String

    /// Processor time: a 24 MP HEIC takes under a second here.
    static let cpuSeconds: UInt64 = 30
    /// The largest file written: a 4096 × 4096 RGBA PNG of noise is about 64 MiB.
    static let fileBytes: UInt64 = 128 << 20
    /// The address space, unless the caller set a lower limit: the 192 MiB decode budget, the
    /// binary, the libraries and the filter's thread, with room to spare.
    static let addressSpaceBytes: UInt64 = 1 << 30

    enum Failure: Error {
        case input(any Error)
        case output(any Error)
        case confinement(any Error)
        case data(any Error)
        /// The parent of a supervised child (OUTPUT was created by this run), once it has ended.
        case childEnded(Confinement.ChildEnd)
    }

    /// Opens both files, lowers the limits, works out the decode budget they leave (from /proc,
    /// which is closed after), and confines the process: the first filter, with `openat`.
    func confine() throws(Failure) -> (source: GalleryFile, target: GalleryFile, limits: DecodeLimits) {
        AddressSpace.fitAllocatorToLimit()
        let source: GalleryFile
        do { source = try GalleryFile.openForReading(FilePath(input)) } catch { throw .input(error) }
        let target: (file: GalleryFile, created: Bool)
        let limits: DecodeLimits
        do { target = try GalleryFile.openForWritingInPlace(FilePath(output)) } catch { throw .output(error) }
        // A new OUTPUT must not outlive a failure, and once confined the process cannot remove
        // it (that would take a right over its whole folder): a parent that reads nothing
        // waits for the confined child and removes it. The desktop hands over an OUTPUT it has
        // made already, and then no child is needed.
        if target.created, let end = Confinement.superviseChild() {
            if end != .exited(0) { GalleryFileSystem.remove(FilePath(output)) }
            throw .childEnded(end)
        }
        do {
            try Confinement.limitResources(cpuSeconds: Self.cpuSeconds, fileBytes: Self.fileBytes,
                                           addressSpaceBytes: Self.addressSpaceBytes, naming: input)
            limits = GalleryThumbnail.readingLimitsFittingAddressSpace()
            if try Confinement.restrictFiles(input: input, output: output) == 0 {
                Self.note("this kernel has no Landlock, so the files it could open are not limited; "
                          + "system calls still are (seccomp)")
            }
            try Confinement.restrictCalls(allowingOpen: true, naming: input)
        } catch {
            throw .confinement(error)
        }
        return (source, target.file, limits)
    }

    func run() throws(Failure) {
        // On a failure, a supervising parent removes an OUTPUT this run made; one that was
        // there stays as it was, since nothing was written to it.
        let (source, target, confinedLimits) = try confine()
        var limits = confinedLimits
        CurrentProcess.setEnvironment("JPEGMEM", "\(limits.maxBytes >> 20)M", replacing: true)
        let reader: GalleryReader
        do { reader = try GalleryReader(archive: ZipArchive(file: source)) } catch { throw .data(error) }
        let firstImage = GalleryThumbnail.loadDecoder(for: reader, longSide: size, limits: &limits)
        do { try Confinement.restrictCalls(allowingOpen: false, naming: input) } catch { throw .confinement(error) }
        let png: [UInt8]
        do {
            png = try GalleryThumbnail.bitmap(of: reader, longSide: size, limits: limits, notice: nil, firstImage: firstImage)
                .handOffPNG()
        } catch {
            throw .data(error)
        }
        do {
            try target.write(png, at: 0)
            try target.truncate(to: UInt64(png.count))
        } catch {
            throw .output(error)
        }
    }

    static func note(_ text: String) {
        StandardStream.error.write("imagegallery-thumbnailer: note: \(text)\n")
    }
}
