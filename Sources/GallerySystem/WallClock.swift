import FoundationEssentials

/// The time of day as the system keeps it, to the nanosecond (`Date` rounds through a Double).
package enum WallClock {
    /// Seconds and nanoseconds since 1970, UTC.
    package static var now: (seconds: Int64, nanoseconds: Int32) { Syscalls.realTime }

    /// The time of day as a `Date`, for the records that keep one (a version's time, a
    /// gallery's creation): read here, so that the boundary check sees every read of the clock.
    package static var date: Date {
        let (seconds, nanoseconds) = now
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }
}
