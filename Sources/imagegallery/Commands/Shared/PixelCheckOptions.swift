import ArgumentParser
import GalleryBuilder
import GalleryImaging

/// `--check-pixels`, for `create`, `add` and `convert` (of images, a folder or an archive):
/// every image is decoded, as `validate --deep` decodes it, before anything is written.
///
/// Without it an image is taken by what its header and structure say (issue 28: what the
/// header readers find without decoding is refused either way); pixel data that is corrupt in a
/// structurally sound file is the one class the format leaves to a deep check.
struct PixelCheckOptions: ParsableArguments {
    @Flag(name: .customLong("check-pixels"), help: ArgumentHelp(
        "Decode every image first, as validate --deep does, and refuse one whose pixels do not decode.",
        discussion: "Without it, images are taken by their headers and structure, and corrupt pixel data in a sound file "
            + "is found only by validate --deep. An image past a decode limit is taken, with a warning, as validate "
            + "--deep warns of it."))
    var checkPixels = false

    /// Decodes `images` when asked (with a progress bar): refuses the first whose pixels do
    /// not decode (exit 65, its `--deep` id), warns of those past a decode limit.
    func check(_ images: [SourceImage]) throws {
        guard checkPixels, !images.isEmpty else { return }
        let bar = ProgressBar("Decoding", total: UInt64(images.count))
        let unchecked: [SourceImage.UncheckedPixels]
        do {
            defer { bar.finish() }
            unchecked = try SourceImage.checkPixels(images) { done in
                bar.update(UInt64(done), detail: "\(done)/\(images.count)")
            }
        }
        for image in unchecked {
            Terminal.warning("\(image.name): its pixels were not checked: \(image.reason) (validate --deep warns of it: IG-BLB-009)")
        }
    }
}
