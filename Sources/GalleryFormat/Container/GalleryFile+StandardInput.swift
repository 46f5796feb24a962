public import GallerySystem
import SystemPackage

extension GalleryFile {
    /// Copies all of standard input into a nameless temporary file (it vanishes when closed),
    /// refusing more than `limit` bytes: a gallery read from a pipe is then read by position,
    /// and a pipe that never ends is a bomb (IG zipBomb), not a full disk.
    public static func spoolStandardInput(limit: UInt64, directory: String = "/tmp") throws -> GalleryFile {
        let file = try createAnonymous(in: FilePath(directory), naming: "-")
        var total: UInt64 = 0
        try StandardInput.readChunks { chunk in
            total += UInt64(chunk.count)
            guard total <= limit else {
                throw GalleryError(.zipBomb, "standard input holds more than \(limit) bytes", location: Location(file: "-"))
            }
            try file.write(chunk, at: total - UInt64(chunk.count))
        }
        return file
    }
}
