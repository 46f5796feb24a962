// swift-tools-version: 6.1
// imagegallery: a toolkit for the .imagegallery document format.
import PackageDescription

/// For the thumbnailer, which the desktop starts for every new file: with the static Swift
/// runtime, its C++ support comes statically too, libstdc++ from packaging/link (a link to
/// Debian 12's GCC 12 archive, found before the shared library) and libgcc. Loading and
/// relocating libstdc++.so was a third of its start (0.6 ms). Where the link's target is
/// missing, the linker takes the shared library, as before; with the shared Swift runtime
/// (debug builds) nothing there links C++ itself, so nothing changes.
let staticCxxRuntime = ["-L", Context.packageDirectory + "/packaging/link", "-Xclang-linker", "-static-libgcc"]

/// swift-system's `FilePath`, `FileDescriptor` and `Errno`: the types GallerySystem's API takes
/// and throws, named by every module that carries paths.
let systemPackage: Target.Dependency = .product(name: "SystemPackage", package: "swift-system")

/// The pixel loops (decoding, filtering, colour, encoding) optimised in debug builds too: at
/// -Onone a 3000 × 2000 photo's 1280-pixel rendition took 3.3 s against 0.12 s in release, and
/// every test that makes a thumbnail, a rendition or a web gallery paid that 27 times over
/// (on a loaded machine the editor's browser checks waited past their limits for it).
/// Debug information and `@testable import` are unaffected.
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "imagegallery",
    // Linux only: GallerySystem calls Glibc and Linux system calls directly, so no other platform is claimed.
    products: [
        .executable(name: "imagegallery", targets: ["imagegallery"]),
        .executable(name: "imagegallery-fetch", targets: ["imagegallery-fetch"]),
        .executable(name: "imagegallery-editor", targets: ["imagegallery-editor"]),
        .executable(name: "imagegallery-thumbnailer", targets: ["imagegallery-thumbnailer"]),
        // The types of the operating-system layer that the libraries' API takes and throws
        // (GalleryFile, FileIdentity, FileSystemError, ProcessID); the rest of it is package-only.
        .library(name: "GallerySystem", targets: ["GallerySystem"]),
        // What an image file says about itself (type, geometry, structure, description), read
        // from its bytes without decoding pixels: ImageHeader, MediaType and ImageKind are in
        // GalleryFormat's and GalleryImaging's API.
        .library(name: "GalleryImageHeaders", targets: ["GalleryImageHeaders"]),
        .library(name: "GalleryFormat", targets: ["GalleryFormat"]),
        .library(name: "GalleryImaging", targets: ["GalleryImaging"]),
        .library(name: "GalleryBuilder", targets: ["GalleryBuilder"]),
        .library(name: "GalleryDocument", targets: ["GalleryDocument"]),
        .library(name: "GalleryFetch", targets: ["GalleryFetch"]),
        .library(name: "GalleryConvert", targets: ["GalleryConvert"]),
        .library(name: "GalleryMetadata", targets: ["GalleryMetadata"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // HTTP for fetching images (issue 6). Chosen over FoundationNetworking's URLSession on
        // measured grounds: a configurable redirect cap with loop detection, a connect timeout,
        // no libcurl (and its 35 shared libraries) in the static binary, less memory and a
        // faster start. See the README, "Why AsyncHTTPClient".
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        // `make docs`: the DocC catalogues (GalleryFormat, GalleryBuilder, GalleryDocument), built by the plugin
        // with --warnings-as-errors so that a broken symbol link fails. Nothing links it.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Typed file descriptors, errno values and permissions for GallerySystem, the one module
        // that talks to the operating system.
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        // The editor's local HTTP server (`imagegallery edit`, issue 17), in imagegallery-editor only:
        // the binary that thumbnails and validates links none of it.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // Hummingbird's own dependencies, named for the editor's lifetime (signals, graceful
        // shutdown) and its log, which goes to standard error so that standard output stays the URL.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        // System C libraries from Debian (a module map and a shim header each, in
        // Sources/CLibraries), never exposed in public API (internal imports only).
        .systemLibrary(name: "CZlib", path: "Sources/CLibraries/CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate, for an entry read whole (the manifest of up to 10,000 photos): one call over
        // the whole buffer inflates it in 60 % of zlib's time (Benchmarks/RESULTS.md, ac.3.8).
        .systemLibrary(name: "CDeflate", path: "Sources/CLibraries/CDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        // libarchive's header only: COnDemand loads the library when an archive is first read.
        .systemLibrary(name: "CArchive", path: "Sources/CLibraries/CArchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CLibraries/CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // libjpeg(-turbo)'s scanline reader, for rows filtered while the rest decode; TurboJPEG
        // (the same code behind a whole-image API) encodes.
        .systemLibrary(name: "CJPEG", path: "Sources/CLibraries/CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CTurboJPEG", path: "Sources/CLibraries/CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // Format 2.0's decoders (Specs/security.md says what limits each): the headers of libwebp
        // (with its demuxer, for an animation's first frame), giflib, libavif and libheif. None is
        // linked: COnDemand loads each when it is first needed (libavif and libheif bring some
        // thirty libraries with them, which every start would otherwise pay for).
        .systemLibrary(name: "CWebP", path: "Sources/CLibraries/CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/CLibraries/CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CAVIF", path: "Sources/CLibraries/CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", path: "Sources/CLibraries/CHEIF", providers: [.apt(["libheif-dev"])]),
        // Little CMS 2, for photos that carry a colour profile (issue 31): its header only, loaded
        // by COnDemand when a picture is first converted to sRGB.
        .systemLibrary(name: "CLCMS2", path: "Sources/CLibraries/CLCMS2", providers: [.apt(["liblcms2-dev"])]),

        // CRC-32 with carry-less multiplication, zlib's where the CPU lacks it; SHA-256 by
        // libcrypto (loaded by COnDemand when a process hashes enough), the SHA extensions or
        // plain C. Optimised in debug builds too: every test that writes a gallery hashes it.
        .target(name: "CGalleryChecksum", dependencies: ["COnDemand"],
                cSettings: [.unsafeFlags(["-O2"], .when(configuration: .debug))], linkerSettings: [.linkedLibrary("z")]),
        // The few Linux calls Swift cannot reach directly (declared only under _GNU_SOURCE, or
        // flags glibc does not export to Swift); used by GallerySystem alone.
        .target(name: "CGallerySystem"),
        // The functions format 2.0's decoders and the archive reader call, under the libraries'
        // own names, forwarding to each library once it is loaded with dlopen (include/on_demand.h
        // says why).
        .target(name: "COnDemand"),
        // libpng and libjpeg report errors by longjmp, which Swift cannot catch: every call to
        // them is made here.
        .target(name: "CImageCodecs", dependencies: ["CPNG", "CJPEG"]),

        // Everything that talks to the operating system: descriptors, safe saves, renames,
        // locks, folders, file identity, the allocator. Every raw call is in its Raw/ folder.
        .target(
            name: "GallerySystem",
            dependencies: ["CGallerySystem", systemPackage]
        ),
        // What an image file says about itself, read from its bytes without decoding pixels: its
        // type, header, geometry, structure and description (the JPEG, PNG, WebP, GIF and
        // ISOBMFF walks); below the format, which turns its findings into diagnostics.
        .target(name: "GalleryImageHeaders", dependencies: ["GallerySystem", "CGalleryChecksum"]),
        .target(
            name: "GalleryFormat",
            dependencies: ["GalleryImageHeaders", "GallerySystem", "CZlib", "CDeflate", "CGalleryChecksum", systemPackage]
        ),
        .target(
            name: "GalleryImaging",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GallerySystem", "CZlib", "CImageCodecs", "CTurboJPEG", "CWebP", "CGIF", "CAVIF", "CHEIF", "CLCMS2", "COnDemand",
                           systemPackage],
            swiftSettings: optimisedInDebug
        ),
        // Images (files, folders, fetched, from archives) into a new gallery: every writer's way in.
        .target(
            name: "GalleryBuilder",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GallerySystem",
                           systemPackage]
        ),
        // What an image carries besides its picture (location, identity, capture time) in its
        // EXIF, XMP, IPTC and text, read and removed without re-encoding (issue 32).
        .target(
            name: "GalleryMetadata",
            dependencies: ["GalleryImageHeaders", "GalleryFormat"]
        ),
        // Documents over time: merge, versions, locks and the editing lifecycle (issue 5).
        .target(
            name: "GalleryDocument",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryBuilder", "GalleryMetadata",
                           "GallerySystem", systemPackage]
        ),
        // Images from URLs, through an HTTP cache on disk (issue 6).
        .target(
            name: "GalleryFetch",
            dependencies: [
                "GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GallerySystem",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                systemPackage,
            ]
        ),
        // Conversion to and from folders, archives (through libarchive), comic books, the seed
        // apps' JSON and a static web gallery (issue 7).
        .target(
            name: "GalleryConvert",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryBuilder", "GalleryMetadata", "GallerySystem",
                           "CArchive", "COnDemand",
                           systemPackage],
            // The web gallery's style sheet and script (WebGallery/gallery.css and gallery.js), every
            // file of the folder compiled into the binary.
            resources: [.embedInCode("WebGallery")]
        ),
        // What imagegallery, the editor and the fetch helper say to each other, and how each finds
        // and runs the companion programs; no networking in it.
        .target(
            name: "GalleryPrograms",
            dependencies: ["GallerySystem", "GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryBuilder",
                           systemPackage]
        ),
        // The network side of imagegallery, in an executable of its own (see GalleryPrograms/FetchHelper.swift):
        // the HTTP stack then costs nothing to the commands that only read.
        .executableTarget(
            name: "imagegallery-fetch",
            dependencies: ["GalleryFormat", "GalleryFetch", "GalleryPrograms", systemPackage]
        ),
        // The gallery editor: a local web app over the document layer (issue 17). Its front end
        // (plain HTML, CSS and JavaScript as ES modules, no build step) is compiled into the binary.
        .target(
            name: "GalleryEditor",
            dependencies: [
                "GalleryFormat", "GalleryImaging", "GalleryBuilder", "GalleryDocument", "GallerySystem", "GalleryPrograms",
                "GalleryConvert", "GalleryMetadata",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The connection a refused body arrives on is closed (Routes' BodyLimits).
                .product(name: "NIOCore", package: "swift-nio"),
                systemPackage,
            ],
            // Every file of FrontEnd/, each a PackageResources member: EditorRoutes.frontEndFiles is
            // the one list of them, which FrontEndFilesTests holds to the folder.
            resources: [.embedInCode("FrontEnd")]
        ),
        .executableTarget(
            name: "imagegallery-editor",
            dependencies: ["GalleryEditor", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The freedesktop thumbnailer as a program of its own (issue 19): the container reader,
        // the decoders and the PNG encoder, and nothing else (no argument parser, no
        // libarchive, no ICU), confined before it reads a byte (Specs/security.md).
        // Linked by lld with packed relative relocations (DT_RELR, which Debian 12's glibc 2.36
        // reads): the loader then applies 38,000 relocations from 6 KB instead of 930 KB, and
        // a start takes about 0.5 ms less (Benchmarks/RESULTS.md, section s).
        .executableTarget(
            name: "imagegallery-thumbnailer",
            dependencies: ["GalleryFormat", "GalleryImaging", "GallerySystem", systemPackage],
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
                                          + staticCxxRuntime)]
        ),
        // The bodies of the fuzz targets (Specs/security.md), a library so that the regression
        // tests run every crash the fuzzers found through the same code.
        .target(
            name: "GalleryFuzzing",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryConvert", "GalleryMetadata", "GallerySystem",
                           systemPackage]
        ),
        .executableTarget(
            name: "imagegallery",
            dependencies: [
                "GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryBuilder", "GalleryDocument", "GalleryConvert",
                "GalleryMetadata", "GalleryPrograms", "GallerySystem",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                systemPackage,
            ],
            // The desktop integration files of Specs/freedesktop (a link), compiled into the
            // binary so that `integrate install` needs nothing beside it: the same files the
            // Debian package installs (scripts/make-deb).
            resources: [
                .embedInCode("Freedesktop/imagegallery.xml"),
                .embedInCode("Freedesktop/imagegallery.thumbnailer"),
                .embedInCode("Freedesktop/imagegallery.desktop"),
                .embedInCode("Freedesktop/io.github.imagegallery.imagegallery.desktop"),
                .embedInCode("Freedesktop/imagegallery.magic"),
                .embedInCode("Freedesktop/icons"),
            ],
            // Linked as the thumbnailer is, for every command's start (scripts, git's textconv
            // and merge driver run it often): packed relative relocations and the static C++
            // runtime; with libarchive loaded on demand, `--version` takes 5.6 ms instead of
            // 9.2 (Benchmarks/RESULTS.md, section u).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"]
                                          + staticCxxRuntime)]
        ),

        .target(name: "GalleryTestSupport", dependencies: ["GalleryFormat", "CZlib"], path: "Tests/GalleryTestSupport"),
        .testTarget(
            name: "GallerySystemTests",
            dependencies: ["GallerySystem", "GalleryTestSupport", systemPackage]
        ),
        .testTarget(
            name: "GalleryFormatTests",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GallerySystem", "GalleryTestSupport", "CArchive",
                           systemPackage],
            // These tests read our ZIPs with libarchive as another reader would, linked as usual.
            linkerSettings: [.linkedLibrary("archive")]
        ),
        .testTarget(
            name: "GalleryImagingTests",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GallerySystem", "GalleryTestSupport", "CTurboJPEG",
                           systemPackage]
        ),
        .testTarget(
            name: "GalleryBuilderTests",
            dependencies: ["GalleryFormat", "GalleryBuilder", "GallerySystem", "GalleryTestSupport"]
        ),
        .testTarget(
            name: "GalleryMetadataTests",
            dependencies: ["GalleryMetadata", "GalleryImageHeaders", "GalleryTestSupport"]
        ),
        .testTarget(
            name: "GalleryDocumentTests",
            dependencies: ["GalleryFormat", "GalleryDocument", "GalleryMetadata", "GallerySystem", "GalleryTestSupport",
                           systemPackage]
        ),
        .testTarget(
            name: "GalleryFetchTests",
            dependencies: ["GalleryFormat", "GalleryFetch", "GalleryTestSupport"]
        ),
        .testTarget(
            name: "GalleryConvertTests",
            dependencies: ["GalleryConvert", "GalleryTestSupport"]
        ),
        .testTarget(
            name: "GalleryFuzzingTests",
            dependencies: ["GalleryFuzzing", "GalleryTestSupport"]
        ),
        // The command line's own logic, through the executable's module.
        .testTarget(name: "ImageGalleryCommandTests", dependencies: ["imagegallery", "GalleryImageHeaders", systemPackage]),
        .testTarget(
            name: "GalleryEditorTests",
            dependencies: ["GalleryEditor", "GalleryDocument", "GalleryImageHeaders", "GalleryFormat", "GallerySystem", "GalleryTestSupport",
                           systemPackage]
        ),
        // The built programs run as subprocesses, one command at a time, in a folder per command
        // (Create, Read, Validate, Edit, Convert, Fetch, Thumbnail, Paths).
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GallerySystem", "GalleryTestSupport", systemPackage]
        ),
        // The programs with the machinery around them rather than one command: the desktops'
        // clients (GIO, GNOME's and XFCE's thumbnailers, KDE's previews, the confined thumbnailer),
        // the editor in real browsers, git's merge driver and pre-commit, CI's workflow, make demo,
        // the sanitizer run and the hostile corpus over every command.
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["GalleryFormat", "GalleryImaging", "GalleryTestSupport"]
        ),
        // The DocC articles' code, compiled and run as a library user would: the public
        // products only, no @testable, no test support. A test there fails when an article's
        // code block is not in these sources verbatim.
        .testTarget(
            name: "LibraryExampleTests",
            dependencies: ["GallerySystem", "GalleryImageHeaders", "GalleryFormat", "GalleryImaging", "GalleryBuilder", "GalleryDocument", "GalleryFetch", "GalleryConvert",
                           systemPackage]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The libFuzzer driver exists only in the fuzzing build (scripts/fuzz sets the variable): it has
// no `main` of its own, since libFuzzer supplies one under `--sanitize fuzzer`.
if Context.environment["IMAGEGALLERY_FUZZ"] == "1" {
    package.products.append(.executable(name: "imagegallery-fuzz", targets: ["imagegallery-fuzz"]))
    package.targets.append(.executableTarget(name: "imagegallery-fuzz", dependencies: ["GalleryFuzzing"], path: "Tests/Fuzz"))
}
