extension CurrentProcess {
    /// Ends the process with `status` (exit(3): what was printed is flushed first), for a
    /// program's one place that turns its outcome into an exit code.
    package static func exit(_ status: Int32) -> Never {
        Syscalls.exit(status)
    }
}
