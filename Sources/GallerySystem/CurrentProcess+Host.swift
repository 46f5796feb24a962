import FoundationEssentials

extension CurrentProcess {
    /// The machine's name, as a lock or a version records who wrote it: with the boot id it
    /// tells a lock held on this machine from one held on another that shares the folder.
    package static var hostName: String { ProcessInfo.processInfo.hostName }
}
