import ArgumentParser
import FoundationEssentials
import GalleryFormat
import GallerySystem
import SystemPackage

extension ImageGallery {
    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Write a gallery's original image bytes to files.",
            discussion: """
                Files are named NN-NAME.EXT, where NN is the image's position (zero-padded), NAME the original \
                file name when the gallery records a safe one, and EXT the extension of its media type. Every \
                image is checked (CRC-32, size, SHA-256) before any file appears: all are written to hidden \
                temporary files, flushed to disk together, then renamed into place, so a damaged image leaves no \
                file at all; an existing file is never replaced unless --force is given.
                """
        )

        @OptionGroup var gallery: GalleryFileArgument
        @OptionGroup var output: OutputOptions

        @Argument(help: "Images to extract, by 1-based position or by id (default: all).")
        var selectors: [String] = []

        @Option(name: .customLong("to"), help: "The folder to write into (created if missing; default: the current folder).")
        var directory: String = "."

        @Flag(help: "Replace existing files.")
        var force = false


        struct Written: Encodable {
            var index: Int
            var id: String
            var path: String
            var byteSize: UInt64
            var sha256: String
        }

        func run() throws {
            let reader = try GalleryReader(path: gallery.file)
            let images = reader.gallery.images
            let chosen = try select(from: images)
            let width = String(images.count).count
            let base = FilePath(directory)
            let targets = chosen.map { index in (index, base.appending(Self.fileName(for: images[index], index: index, width: width))) }

            // Refuse before writing anything, so a refused run leaves no partial set behind.
            if !force {
                for (_, path) in targets where PathKind.of(path) != .missing {
                    throw CommandFailure(message: "\(path.string): already exists (use --force to replace it)",
                                         status: ExitStatus.cannotCreate)
                }
            }
            do throws(FileSystemError) {
                try GalleryFileSystem.makeFolders(base)
                // As mkdir -p: a file of that name is not the folder asked for.
                guard PathKind.of(base) == .directory else {
                    throw FileSystemError(kind: .alreadyExists, path: directory, operation: "create the folder", code: .fileExists)
                }
            } catch {
                throw CommandFailure(message: "\(directory): cannot create the folder", status: ExitStatus.cannotCreate)
            }

            let total = chosen.reduce(0) { $0 + images[$1].byteSize }
            let progress = ProgressBar("Extracting", total: total)
            var done: UInt64 = 0
            var written: [Written] = []
            // Every image goes to a hidden temporary file first; all of them are flushed in
            // one go and only then renamed into place, so a failure (a damaged image) or a
            // crash leaves no image file at all, and the flush costs one journal commit for
            // the set rather than one per image (10,000 images took 37 s one by one).
            var staged: [(temporary: FilePath, target: FilePath)] = []
            var committed = 0
            defer { for item in staged.dropFirst(committed) { GalleryFileSystem.remove(item.temporary) } }
            for (index, path) in targets {
                let image = images[index]
                let file = try GalleryFile.createTemporary(in: path.removingLastComponent(), prefix: path.lastComponentName)
                staged.append((file.filePath, path))
                try Self.write(image, from: reader, to: file)
                done += image.byteSize
                progress.update(done, detail: "\(written.count + 1)/\(targets.count)")
                written.append(Written(index: index + 1, id: image.id.manifestString, path: path.string,
                                       byteSize: image.byteSize, sha256: image.sha256.hex))
            }
            progress.finish()
            try GalleryFileSystem.synchronizeFileSystem(of: base)
            for item in staged {
                if force {
                    try GalleryFileSystem.replace(item.target, with: item.temporary)
                } else {
                    try GalleryFileSystem.moveNoReplace(item.temporary, to: item.target)
                }
                committed += 1
            }
            try GalleryFileSystem.synchronizeDirectory(base)
            if output.json {
                try Terminal.printJSON(written)
            } else {
                for item in written { print(item.path) }
            }
        }

        /// Positions (0-based) of the selected images, in the order asked, without repeats.
        func select(from images: [GalleryImage]) throws -> [Int] {
            guard !selectors.isEmpty else { return Array(images.indices) }
            var chosen: [Int] = []
            for selector in selectors {
                let index: Int
                if let number = Int(selector) {
                    guard (1 ... images.count).contains(number) else {
                        throw ValidationError("there is no image \(number): the gallery has \(images.count)")
                    }
                    index = number - 1
                } else if let id = UUID(uuidString: selector), let found = images.firstIndex(where: { $0.id == id }) {
                    index = found
                } else {
                    throw ValidationError("\"\(selector)\" is neither an image position nor the id of an image in \(gallery.file)")
                }
                if !chosen.contains(index) { chosen.append(index) }
            }
            return chosen
        }

        /// `NN-stem.ext`: the order survives a plain directory listing, and no name can leave the folder.
        static func fileName(for image: GalleryImage, index: Int, width: Int) -> String {
            let number = (index + 1).zeroPadded(toWidth: width)
            let ext = image.mediaType.fileExtension
            guard let original = image.filename, GalleryImage.isSafeFilename(original) else { return "\(number).\(ext)" }
            var stem = GalleryFileSystem.splitExtension(original).stem
            // Keep names within the usual 255-byte limit.
            while stem.utf8.count > 200 { stem.removeLast() }
            return "\(number)-\(stem).\(ext)"
        }

        /// Streams the verified bytes into `file`, starting a large one's write-back early so
        /// that the final flush is short. The bytes may be partly written before a mismatch is thrown:
        /// the file is a temporary one, removed on failure.
        static func write(_ image: GalleryImage, from reader: GalleryReader, to file: GalleryFile) throws {
            var offset: UInt64 = 0
            try reader.readBlob(image) { chunk in
                try file.write(chunk, at: offset)
                offset += UInt64(chunk.count)
            }
            // Small files are left to the final flush: a call each would cost more than it saves.
            if offset >= 1 << 20 { file.startWriteback(at: 0, count: offset) }
        }
    }
}
