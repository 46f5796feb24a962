// A JPEG's APP13 segment: Photoshop's image resources ("Photoshop 3.0\0", then `8BIM` blocks),
// of which resource 0x0404 holds the IPTC-IIM datasets (record 2: city, sublocation, by-line…).
// A strip rewrites the datasets it removes out of that resource, and drops resource 0x0425
// (the digest of the old IPTC data, which would no longer match); other resources stay.

/// Photoshop image resources and their IPTC datasets.
struct PhotoshopResources {
    struct Resource {
        var signature: [UInt8]
        var id: Int
        /// The Pascal name with its padding, as written.
        var name: [UInt8]
        var data: [UInt8]
    }

    static let signature = Array("Photoshop 3.0\0".utf8)
    static let iptc = 0x0404
    static let iptcDigest = 0x0425

    /// IPTC record 2 datasets of interest.
    static let locationDatasets: [Int: String] = [
        90: "IPTC City", 92: "IPTC Sub-location", 95: "IPTC Province-State", 100: "IPTC Country-PrimaryLocationCode",
        101: "IPTC Country-PrimaryLocationName", 26: "IPTC ContentLocationCode", 27: "IPTC ContentLocationName",
    ]
    static let identityDatasets: [Int: String] = [80: "IPTC By-line"]
    static let dateCreated = 55

    var resources: [Resource] = []

    /// Reads the resources after the signature; throws on a block that runs past the segment.
    init(segment: [UInt8]) throws {
        guard segment.starts(with: Self.signature) else { throw MetadataError("the APP13 segment is not Photoshop's") }
        var index = Self.signature.count
        while index + 12 <= segment.count {
            let signature = Array(segment[index ..< index + 4])
            guard ["8BIM", "PHUT", "AgHg", "DCSR"].map({ Array($0.utf8) }).contains(signature) else {
                throw MetadataError("an APP13 resource at \(index) has the signature \(String.shownFourCC(signature))")
            }
            let id = segment.be16(index + 4)
            let nameLength = Int(segment[index + 6])
            let nameEnd = index + 6 + (nameLength + 2) & ~1
            guard nameEnd + 4 <= segment.count else { throw MetadataError("an APP13 resource at \(index) is cut short") }
            let size = Int(segment.be32(nameEnd))
            let dataStart = nameEnd + 4
            guard size <= segment.count - dataStart else {
                throw MetadataError("the APP13 resource 0x\(String(id, radix: 16)) at \(index) declares \(size) bytes, past the segment")
            }
            resources.append(Resource(signature: signature, id: id, name: Array(segment[index + 6 ..< nameEnd]),
                                      data: Array(segment[dataStart ..< dataStart + size])))
            index = dataStart + size + (size & 1)
        }
    }

    /// The segment again, resources in their order.
    var segment: [UInt8] {
        var bytes = Self.signature
        for resource in resources {
            bytes += resource.signature + [UInt8(resource.id >> 8), UInt8(resource.id & 0xFF)] + resource.name
            bytes += bigEndian32(resource.data.count) + resource.data
            if resource.data.count & 1 == 1 { bytes.append(0) }
        }
        return bytes
    }

    /// Record 2's datasets: (dataset number, value range) in the resource's data.
    static func datasets(_ data: [UInt8]) throws -> [(number: Int, record: Int, range: Range<Int>, whole: Range<Int>)] {
        var found: [(Int, Int, Range<Int>, Range<Int>)] = []
        var index = 0
        while index + 5 <= data.count, data[index] == 0x1C {
            let (record, number, length) = (Int(data[index + 1]), Int(data[index + 2]), data.be16(index + 3))
            guard length & 0x8000 == 0 else { throw MetadataError("an IPTC dataset at \(index) has an extended length") }
            guard index + 5 + length <= data.count else { throw MetadataError("an IPTC dataset at \(index) runs past its resource") }
            found.append((number, record, index + 5 ..< index + 5 + length, index ..< index + 5 + length))
            index += 5 + length
        }
        return found
    }

    func report(into privacy: inout ImagePrivacy) throws {
        for resource in resources where resource.id == Self.iptc {
            for dataset in try Self.datasets(resource.data) where dataset.record == 2 {
                if let name = Self.locationDatasets[dataset.number] { privacy.add(name, .location) }
                if let name = Self.identityDatasets[dataset.number] { privacy.add(name, .identity) }
                if dataset.number == Self.dateCreated {
                    privacy.noteCaptureTime(String(decoding: resource.data[dataset.range], as: UTF8.self))
                }
            }
        }
    }

    /// Removes the datasets `scope` names; false when none was there.
    mutating func strip(_ scope: MetadataScope) throws -> Bool {
        var changed = false
        for index in resources.indices where resources[index].id == Self.iptc {
            let data = resources[index].data
            var kept: [UInt8] = []
            for dataset in try Self.datasets(data) {
                let doomed = dataset.record == 2 && ((scope.removesLocation && Self.locationDatasets[dataset.number] != nil)
                    || (scope.removesIdentity && Self.identityDatasets[dataset.number] != nil))
                if doomed { changed = true } else { kept += data[dataset.whole] }
            }
            resources[index].data = kept
        }
        if changed { resources.removeAll { $0.id == Self.iptcDigest } }
        return changed
    }
}

func bigEndian32(_ value: Int) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}
