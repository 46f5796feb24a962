/// The process's address space, for programs that read hostile files under an address-space
/// limit (RLIMIT_AS, as `ulimit -v` and thumbnailer sandboxes set).
package enum AddressSpace {
    /// With a limit set, makes every thread allocate from glibc's main malloc arena: each further
    /// arena reserves 64 MiB of address space, and under a 256 MiB limit the binary, the thread
    /// stacks and two such arenas left about 20 MiB for the work itself, so a 64 MiB manifest
    /// or the listing of 40,000 images failed to allocate. Without a limit nothing changes.
    /// Call first thing in `main`, before any thread starts. True when it changed the allocator.
    @discardableResult
    package static func fitAllocatorToLimit() -> Bool { Syscalls.fitMallocToAddressLimit() }

    /// Makes glibc's malloc give memory back to the system as it is freed, for a server that
    /// works in bursts (the editor: a save of 100,000 images holds a 37 MB manifest, the image
    /// lists and the container's records for a second or two). By default a freed block of up
    /// to 32 MiB raises the size below which blocks come from the heap, where they stay after
    /// they are freed, and each thread that allocates may get a heap of its own: the process
    /// then keeps the peak of every burst, on every thread. Here blocks from 128 KiB up are
    /// mapped on their own and unmapped when freed, and two heaps serve every thread.
    /// Call first thing in `main`, before any thread starts.
    package static func returnFreedMemoryPromptly() { Syscalls.returnFreedMemoryPromptly() }

    /// For a command that runs once and ends: malloc's heap in memory the kernel may back with
    /// 2 MiB pages (`HugePages`). Opening 10,000 photos took 2,480 page faults, most of them
    /// malloc's fresh 4 KiB pages on three threads (the directory's entries, names and index;
    /// the headers read ahead; the images and their ids' index), and on a virtual machine each
    /// costs 1.6–3 µs; now 502 (Benchmarks/RESULTS.md, ac.3.9). Here every thread allocates from the main heap,
    /// blocks of up to 32 MiB come from it rather than from mappings of their own, and it grows
    /// 64 MiB at a time, advised for huge pages. Nothing is given back before the process ends,
    /// so a server must not (`returnFreedMemoryPromptly`), and nothing changes under an
    /// address-space limit, which the reserve would spend. Call first thing in `main`, before
    /// any thread starts. True when the heap was advised.
    @discardableResult
    package static func growHeapInHugePages() -> Bool {
        guard limit == nil else { return false }
        return Syscalls.growHeapInHugePages(by: 64 << 20)
    }

    /// The soft address-space limit in bytes, or nil when there is none.
    package static var limit: UInt64? { Syscalls.addressSpaceLimit }

    /// The address space the process has mapped now (the first field of /proc/self/statm, in
    /// pages), or nil where /proc does not say.
    ///
    /// The file is kept open from the first call, and each read at its start is a fresh count:
    /// a thumbnailer asks before and after it loads a decoder's libraries, by then confined to
    /// its two files (Landlock), where opening /proc is refused.
    package static func mappedBytes() -> Int? {
        guard let statm, let bytes = try? statm.read(at: 0, count: 64),
              let pages = String(decoding: bytes, as: UTF8.self).split(separator: " ").first.flatMap({ Int($0) }) else {
            return nil
        }
        return pages * Syscalls.pageSize
    }

    private static let statm = try? GalleryFile.openForReading("/proc/self/statm")
}
