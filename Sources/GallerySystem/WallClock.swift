/// The time of day as the system keeps it, to the nanosecond (`Date` rounds through a Double).
package enum WallClock {
    /// Seconds and nanoseconds since 1970, UTC.
    package static var now: (seconds: Int64, nanoseconds: Int32) { Syscalls.realTime }
}
