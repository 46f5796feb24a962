public import GallerySystem

extension FileIdentity {
    /// The last modification, as the format records times.
    public var modified: Timestamp { Timestamp(seconds: modifiedSeconds, nanoseconds: Int32(modifiedNanoseconds)) }
}
