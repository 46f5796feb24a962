internal import CGalleryShim

/// The process's address space, for programs that read hostile files under an address-space
/// limit (RLIMIT_AS, as `ulimit -v` and thumbnailer sandboxes set).
public enum AddressSpace {
    /// With a limit set, makes every thread allocate from glibc's main malloc arena: each further
    /// arena reserves 64 MiB of address space, and under a 256 MiB limit the binary, the thread
    /// stacks and two such arenas left about 20 MiB for the work itself, so a 64 MiB manifest
    /// or the listing of 40,000 images failed to allocate. Without a limit nothing changes.
    /// Call first thing in `main`, before any thread starts. True when it changed the allocator.
    @discardableResult
    public static func fitAllocatorToLimit() -> Bool { ig_fit_malloc_to_address_limit() == 1 }
}
