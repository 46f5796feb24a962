// The libFuzzer driver of Specs/security.md, "Fuzzing". Built only by scripts/fuzz, with
// `--sanitize fuzzer --sanitize address`, which makes libFuzzer supply `main`.
//
// One executable serves every target so that one link serves them all; the target is the
// executable's name (scripts/fuzz links `fuzz-png` and so on to it, so that the reproduction
// line libFuzzer prints runs the same target), else $IMAGEGALLERY_FUZZ_TARGET.
#if canImport(Glibc)
import Glibc
#endif
import GalleryFuzzing

nonisolated(unsafe) private var selected: FuzzTarget?

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    let program = argv.pointee[0].map { String(cString: $0) } ?? ""
    let name = program.split(separator: "/").last.map(String.init) ?? program
    let requested = name.hasPrefix("fuzz-") ? String(name.dropFirst(5))
        : getenv("IMAGEGALLERY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: requested) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        var message = "imagegallery-fuzz: no target '\(requested)'; run it as fuzz-NAME or set "
            + "IMAGEGALLERY_FUZZ_TARGET to one of: \(names)\n"
        message.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        exit(64)
    }
    // libjpeg's own allocations stay under the same cap as the thumbnailer's.
    setenv("JPEGMEM", "96M", 1)
    selected = target
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
