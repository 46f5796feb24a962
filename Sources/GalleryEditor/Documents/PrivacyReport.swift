import Foundation
import GalleryFormat
import GalleryMetadata

/// What a gallery's photos carry that says where they were taken or who took them, as the page
/// shows it: a badge on each photo that carries some, and one line for the gallery.
///
/// Only the photos that carry something (or whose metadata could not be read) are listed: a
/// gallery of 100,000 plain photos answers in a few bytes.
package struct PrivacyReport: Encodable, Sendable {
    /// One listed photo's findings, as `ImagePrivacy` names them ("EXIF GPS", "XMP photoshop:City").
    package struct Entry: Encodable, Sendable, Equatable {
        package var location: [String]
        package var identity: [String]
        package var captureTime: String?
        package var problems: [String]?
    }

    /// The gallery's line: "3 of 12 photos carry a location; 2 carry identity fields".
    package var summary: String
    package var imageCount: Int
    package var withLocation: Int
    package var withIdentity: Int
    package var unreadable: Int
    /// By image id.
    package var images: [String: Entry]

    /// The report of `gallery`'s images, each as `privacy` (by SHA-256) has it.
    package init(gallery: Gallery, privacy: [SHA256Digest: ImagePrivacy]) {
        images = [:]
        for image in gallery.images {
            guard let found = privacy[image.sha256],
                  found.carriesLocation || found.carriesIdentity || !found.problems.isEmpty else { continue }
            images[image.id.manifestString] = Entry(location: found.location, identity: found.identity,
                                                    captureTime: found.captureTime,
                                                    problems: found.problems.isEmpty ? nil : found.problems)
        }
        imageCount = gallery.images.count
        withLocation = images.values.count { !$0.location.isEmpty }
        withIdentity = images.values.count { !$0.identity.isEmpty }
        unreadable = images.values.count { $0.problems != nil }
        summary = Self.summary(total: imageCount, location: withLocation, identity: withIdentity, unreadable: unreadable)
    }

    static func summary(total: Int, location: Int, identity: Int, unreadable: Int) -> String {
        guard total > 0 else { return "" }
        var parts: [String]
        if location == 0 && identity == 0 {
            parts = [total == 1 ? "The photo carries no location or identity fields"
                : "None of the \(total) photos carries a location or identity fields"]
        } else {
            parts = ["\(location) of \(total) photo\(total == 1 ? "" : "s") \(location == 1 ? "carries" : "carry") a location"]
            if identity > 0 { parts.append("\(identity) \(identity == 1 ? "carries" : "carry") identity fields") }
        }
        if unreadable > 0 { parts.append("\(unreadable) could not be read in full") }
        return parts.joined(separator: "; ")
    }

    /// The report as the page reads it.
    package var json: [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data("{}".utf8))
    }
}
