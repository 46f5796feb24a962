// swift-tools-version: 6.1
// imagegallery: a toolkit for the .imagegallery document format.
import PackageDescription

let package = Package(
    name: "imagegallery",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "imagegallery", targets: ["imagegallery"]),
        .library(name: "GalleryFormat", targets: ["GalleryFormat"]),
        .library(name: "GalleryImaging", targets: ["GalleryImaging"]),
        .library(name: "GalleryDocument", targets: ["GalleryDocument"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // SHA-256 (content addressing) and SHA-1 (UUIDv5) through BoringSSL, which uses the
        // CPU's SHA extensions; a pure-Swift hash was far slower (see Benchmarks/RESULTS.md).
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
    ],
    targets: [
        // System C libraries from Debian, never exposed in public API (internal imports only).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),

        // The few libc calls Swift cannot reach directly.
        .target(name: "CGalleryShim", linkerSettings: [.linkedLibrary("z")]),
        // libpng reports errors by longjmp, which Swift cannot catch: every libpng call is made here.
        .target(name: "CImageCodecs", dependencies: ["CPNG"]),

        .target(
            name: "GalleryFormat",
            dependencies: ["CZlib", "CGalleryShim", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(
            name: "GalleryImaging",
            dependencies: ["GalleryFormat", "CZlib", "CImageCodecs", "CTurboJPEG"]
        ),
        // Documents over time: merge, versions, locks and the editing lifecycle (issue 5).
        .target(name: "GalleryDocument", dependencies: ["GalleryFormat", "GalleryImaging"]),
        .executableTarget(
            name: "imagegallery",
            dependencies: [
                "GalleryFormat", "GalleryImaging", "GalleryDocument",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The desktop integration files of Specs/freedesktop (a link), compiled into the
            // binary so that `integrate install` needs nothing beside it.
            resources: [
                .embedInCode("Freedesktop/imagegallery.xml"),
                .embedInCode("Freedesktop/imagegallery.thumbnailer"),
                .embedInCode("Freedesktop/imagegallery.desktop"),
                .embedInCode("Freedesktop/imagegallery.magic"),
            ]
        ),

        .target(name: "GalleryTestSupport", dependencies: ["GalleryFormat", "CZlib"], path: "Tests/GalleryTestSupport"),
        .testTarget(
            name: "GalleryFormatTests",
            dependencies: ["GalleryFormat", "GalleryImaging", "GalleryTestSupport", "CArchive"]
        ),
        .testTarget(
            name: "GalleryImagingTests",
            dependencies: ["GalleryFormat", "GalleryImaging", "GalleryTestSupport", "CTurboJPEG"]
        ),
        .testTarget(
            name: "GalleryDocumentTests",
            dependencies: ["GalleryFormat", "GalleryDocument", "GalleryTestSupport"]
        ),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["GalleryFormat", "GalleryTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
