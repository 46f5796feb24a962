// swift-tools-version: 6.1
// A side benchmark, not part of the product: opens a gallery's manifest with ZIPFoundation and
// Foundation's JSONDecoder, and with this project's GalleryReader, so that the two can be timed
// in one run (Benchmarks/zipfoundation.sh; figures in Benchmarks/RESULTS.md, section n).
// Built on its own, into its own folder: nothing in the project depends on it.
//
// Two executables, not one with two modes: ZIPFoundation's system library target (CZLib) and
// the project's (CZlib) both declare the clang module `CZlib`, and SwiftPM hands every module
// map of a target's dependencies to its compile, so a target that depends on both fails with
// "redefinition of module 'CZlib'". Each executable depends on one side only; both take the
// same argument, do the same work and print the same line.
//
// It lives in Benchmarks/zipfoundation/manifest-open, not in Benchmarks/zipfoundation itself: a
// root package is identified by its folder's name, and one named `zipfoundation` has the same
// identity as ZIPFoundation's URL, so SwiftPM takes the dependency for the root package itself
// ("product 'ZIPFoundation' ... not found in package 'ZIPFoundation'").
import PackageDescription

// A package at a path is named by its folder's name, not by its manifest's `name`: the
// repository's checkout folder (`main` here, `imagegallery` in a usual clone).
let project = Context.packageDirectory.split(separator: "/").dropLast(3).last.map { $0.lowercased() } ?? "imagegallery"

let package = Package(
    name: "zipfoundation-benchmark",
    dependencies: [
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", exact: "0.9.20"),
        .package(path: "../../.."),
    ],
    targets: [
        // ZIPFoundation 0.9.20 + Foundation's JSONDecoder.
        .executableTarget(
            name: "manifest-open-zipfoundation",
            dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        // This project's GalleryReader, as `imagegallery info` and `list` open a file.
        .executableTarget(
            name: "manifest-open-imagegallery",
            dependencies: [.product(name: "GalleryFormat", package: project)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
