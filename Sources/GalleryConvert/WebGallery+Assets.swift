/// The style sheet and the script every web gallery carries, written as local files (no CDN,
/// no module loading, nothing `file://` forbids). Plain ASCII, so their encoding never matters.
///
/// Their text is in `WebGallery/gallery.css` and `WebGallery/gallery.js`, compiled into the
/// binary (Package.swift embeds the folder), where `scripts/check-front-end` checks the script's
/// syntax with Node (`make test`). The files end without a newline, as the raw strings that held
/// them before did: a web gallery written now is byte for byte the one written then.
enum WebGalleryAssets {
    /// The grid is a justified flow of fixed-height rows, as the seed's collection view laid out
    /// thumbnails; an image page is a stage (the seed's scroll view) above the caption and the
    /// paging strip.
    static var stylesheet: [UInt8] { PackageResources.gallery_css }

    /// Keys, zoom and pan, and the strip: a classic script, since browsers load no modules from
    /// `file://`. A page works without it (links and a fitted image); the state it keeps is
    /// mirrored in `data-` attributes of `<body>` for tests to read.
    static var script: [UInt8] { PackageResources.gallery_js }

    /// The index's slideshow, a script of its own: image pages, which link to it, carry none of it.
    static var slideshow: [UInt8] { PackageResources.slideshow_js }
}
