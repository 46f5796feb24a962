import Glibc

/// A buffer written once and read through (a central directory, a manifest inflated whole), in
/// memory of its own that the kernel may back with 2 MiB pages once it is a megabyte or more.
///
/// Each 4 KiB page first written costs a page fault, and on a virtual machine a fault costs
/// 1.6–3 µs: a 3.7 MB manifest inflated into memory from malloc took 910 of them, on the path
/// every open of a 10,000-photo gallery waits for (Benchmarks/RESULTS.md, ac.3.8). With
/// transparent huge pages on request (`madvise`, Debian's default) two faults fill it. Where
/// the kernel has no huge page to give, it falls back to small ones, as malloc's would be.
package final class HugePageBuffer: @unchecked Sendable {
    /// The buffer: `count` bytes, uninitialised until written.
    package let bytes: UnsafeMutableRawBufferPointer
    private let mapping: UnsafeMutableRawPointer
    private let mappedLength: Int
    private static let hugePage = 2 << 20

    /// Nil when the system refuses the memory (an address-space limit).
    package init?(count: Int) {
        guard count > 0, count <= Int.max / 2 - Self.hugePage * 2 else { return nil }
        // Room to start on a 2 MiB boundary: the kernel backs only whole aligned huge pages.
        let length = (count + Self.hugePage - 1) / Self.hugePage * Self.hugePage + Self.hugePage
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base, base != MAP_FAILED else { return nil }
        let start = (Int(bitPattern: base) + Self.hugePage - 1) & ~(Self.hugePage - 1)
        let aligned = UnsafeMutableRawPointer(bitPattern: start)!
        // A hint: refused (no THP in this kernel), the pages are small ones. Below half a huge
        // page, zeroing a whole one would cost more than the faults it saves.
        if count >= Self.hugePage / 2 {
            _ = madvise(aligned, length - (start - Int(bitPattern: base)), MADV_HUGEPAGE)
        }
        mapping = base
        mappedLength = length
        bytes = UnsafeMutableRawBufferPointer(start: aligned, count: count)
    }

    deinit { munmap(mapping, mappedLength) }
}
