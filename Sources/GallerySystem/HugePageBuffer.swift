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
    private static let hugePage = HugePages.size

    /// Nil when the system refuses the memory (an address-space limit).
    package init?(count: Int) {
        guard count > 0, count <= Int.max / 2 - Self.hugePage * 2 else { return nil }
        // Room to start on a 2 MiB boundary: the kernel backs only whole aligned huge pages.
        let length = (count + Self.hugePage - 1) / Self.hugePage * Self.hugePage + Self.hugePage
        let base = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let base, base != MAP_FAILED else { return nil }
        let start = (Int(bitPattern: base) + Self.hugePage - 1) & ~(Self.hugePage - 1)
        let aligned = UnsafeMutableRawPointer(bitPattern: start)!
        // Below half a huge page, zeroing a whole one would cost more than the faults it saves.
        if count >= Self.hugePage / 2 {
            HugePages.advise(UnsafeMutableRawBufferPointer(start: aligned, count: length - (start - Int(bitPattern: base))))
        }
        mapping = base
        mappedLength = length
        bytes = UnsafeMutableRawBufferPointer(start: aligned, count: count)
    }

    deinit { munmap(mapping, mappedLength) }
}

/// Asking the kernel for 2 MiB pages under memory about to be written.
package enum HugePages {
    /// The size of a transparent huge page on x86-64.
    package static let size = 2 << 20

    /// Asks that the whole 2 MiB pages inside `memory` be backed by huge pages when first
    /// written: memory not yet written to (a fresh mapping, malloc's for a large block). A
    /// hint only: refused (no THP in this kernel, memory the kernel will not give so), the
    /// pages stay small ones.
    package static func advise(_ memory: UnsafeMutableRawBufferPointer) {
        guard let base = memory.baseAddress else { return }
        let first = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + memory.count) & ~(size - 1)
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, end - first, MADV_HUGEPAGE)
    }
}
