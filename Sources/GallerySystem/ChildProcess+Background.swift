extension ChildProcess {
    /// Lets the child run on without this process waiting for it (a browser that xdg-open
    /// starts may stay as long as the user likes): our ends of its pipes are closed, and a
    /// thread of its own waits for the child to end, so that it leaves no zombie behind. Where
    /// no thread can be started the child is still left to run, and is reaped when we end.
    package func waitInBackground() {
        closeInput()
        let child = processID
        SystemThread.start(stackBytes: 64 << 10) { _ = Syscalls.wait(for: child) }?.detach()
    }
}
