import ArgumentParser
import GalleryFormat
import GalleryMetadata

/// `--privacy` on `info` and `list`: read each image's metadata and say what it carries.
struct PrivacyOption: ParsableArguments {
    @Flag(name: .customLong("privacy"), help: ArgumentHelp(
        "Read each image's metadata and say which carry a location (GPS, XMP or IPTC place names) or identity fields "
            + "(serial numbers, MakerNote, owner, artist), with capture times and original file names.",
        discussion: "It reads every image, so it takes longer than the plain command, which reads only the manifest."))
    var enabled = false

    /// `info --privacy --json`'s member: the counts, the summary and the images that carry something.
    struct Report: Encodable {
        var images: Int
        var withLocation: Int
        var withIdentity: Int
        var withFilename: Int
        var summary: String
        var carrying: [PrivacySurvey.Entry]

        init(_ survey: PrivacySurvey) {
            images = survey.entries.count
            (withLocation, withIdentity, withFilename) = (survey.withLocation, survey.withIdentity, survey.withFilename)
            summary = survey.summary
            carrying = survey.entries.filter { !$0.location.isEmpty || !$0.identity.isEmpty || !$0.problems.isEmpty }
        }

        func printText() {
            print("Privacy:".padded(13) + summary)
            for entry in carrying { PrivacyOption.printEntry(entry, indent: "  ") }
        }
    }

    /// Every image of the gallery read, with progress on standard error when it is a terminal.
    static func survey(_ reader: GalleryReader) -> PrivacySurvey {
        let progress = LazyProgress("Reading metadata")
        defer { progress.finish() }
        let total = reader.gallery.images.count
        return PrivacySurvey(reader) { progress.update(count: $0, of: total) }
    }

    /// `list --privacy`: every image's findings, then the summary (on standard error with `--json`,
    /// which prints the array alone).
    func list(_ survey: PrivacySurvey, json: Bool) throws {
        if json {
            try Terminal.printJSONArray(survey.entries)
            return
        }
        for entry in survey.entries { Self.printEntry(entry, indent: "") }
        print(survey.summary)
    }

    static func printEntry(_ entry: PrivacySurvey.Entry, indent: String) {
        var parts: [String] = []
        if !entry.location.isEmpty { parts.append("location: " + entry.location.joined(separator: ", ")) }
        if !entry.identity.isEmpty { parts.append("identity: " + entry.identity.joined(separator: ", ")) }
        if let time = entry.captureTime { parts.append("taken \(time)") }
        if parts.isEmpty && entry.problems.isEmpty { parts.append("no location or identity") }
        let name = entry.filename.map { " (\($0))" } ?? ""
        print(Terminal.neutralised("\(indent)\(entry.position)\(name): " + parts.joined(separator: "; ")))
        for problem in entry.problems { print(Terminal.neutralised("\(indent)  not read: \(problem)")) }
    }
}
