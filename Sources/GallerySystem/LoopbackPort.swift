/// A port on 127.0.0.1 that a server of ours said it listens on (the editor's record).
package enum LoopbackPort {
    /// Whether something accepts connections on 127.0.0.1:`port` now, answering within
    /// `wait`. A process that is still there is not yet a server that answers: one that has
    /// closed its listening sockets as it stops (or hangs) refuses, and its link is dead.
    /// False too when the question itself cannot be asked (no socket to be had).
    package static func accepts(_ port: Int, within wait: Duration = .seconds(1)) -> Bool {
        let (seconds, attoseconds) = wait.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        return (try? Syscalls.loopbackAccepts(port: port, milliseconds: max(0, milliseconds)).get()) ?? false
    }
}
