import FoundationEssentials
import GallerySystem

/// Memory shared by concurrent decodes: each takes what it needs in one piece and waits until
/// that much is free, so together they never pass the total. Taking in one piece means no
/// decode holds part of the budget while it waits for more, so none can deadlock.
public final class MemoryBudget: @unchecked Sendable {
    /// The bytes all reservations together may hold; a single reservation larger than this is
    /// refused at once rather than waiting forever.
    public let total: Int
    private var available: Int
    private let condition = SystemCondition()

    /// A budget of `total` bytes, all free.
    public init(total: Int) {
        self.total = total
        available = total
    }

    /// Runs `body` holding `bytes` of the budget; throws when `bytes` exceeds the whole budget.
    public func withReservation<T>(_ bytes: Int, _ body: () throws -> T) throws -> T {
        guard bytes <= total else {
            throw ImageDecodeError(.pastLimit, "the image needs about \(bytes >> 20) MiB to decode, past the memory limit "
                                   + "of \(total >> 20) MiB")
        }
        condition.lock()
        while available < bytes { condition.wait() }
        available -= bytes
        condition.unlock()
        defer {
            condition.lock()
            available += bytes
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
