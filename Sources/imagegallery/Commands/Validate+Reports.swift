import FoundationEssentials
import GalleryFormat
import GallerySystem

/// The machine-readable reports beyond JSON: SARIF 2.1.0 for code-scanning services and JUnit
/// XML for CI test views.
extension ImageGallery.Validate {
    /// SARIF 2.1.0: one run, a rule per diagnostic id, a result per finding.
    func sarifReport(_ reports: [ValidationReport]) throws -> String {
        let catalogue = DiagnosticCode.catalogue
        let ruleIndex = Dictionary(uniqueKeysWithValues: catalogue.enumerated().map { ($1.id, $0) })
        func level(_ severity: Severity) -> String {
            switch severity {
            case .fatal, .error: "error"
            case .warning: "warning"
            case .info: "note"
            }
        }
        let rules: [JSONValue] = catalogue.map { code in
            [
                "id": .string(code.id),
                "name": .string(code.id.replacingScalars(["-": ""])),
                "shortDescription": ["text": .string(code.summary)],
                "fullDescription": ["text": "\(code.summary) (severity \(code.severity.rawValue))."],
                "help": ["text": .string("\(code.id): \(code.summary). Specs/diagnostics.md in the imagegallery project says what "
                                         + "would be right."),
                         "markdown": "**\(code.id)**: \(code.summary). See `Specs/diagnostics.md` for what would be right."],
                "defaultConfiguration": ["level": .string(level(code.severity))],
                "properties": ["severity": .string(code.severity.rawValue)],
            ]
        }
        var results: [JSONValue] = []
        for report in reports {
            for finding in report.diagnostics {
                var physical: [String: JSONValue] = ["artifactLocation": ["uri": .string(Self.uri(report.path))]]
                if let offset = finding.location.offset, finding.location.jsonPointer == nil {
                    physical["region"] = ["byteOffset": .integer(Int(offset))]
                }
                var location: [String: JSONValue] = ["physicalLocation": .object(physical)]
                var logical: [JSONValue] = []
                if let entry = finding.location.entry { logical.append(["fullyQualifiedName": .string(entry), "kind": "member"]) }
                if let pointer = finding.location.jsonPointer {
                    logical.append(["fullyQualifiedName": .string((finding.location.entry ?? "manifest.json") + "#" + pointer),
                                    "kind": "element"])
                }
                if !logical.isEmpty { location["logicalLocations"] = .array(logical) }
                var text = finding.message
                if let cause = finding.cause { text += " (\(cause))" }
                results.append([
                    "ruleId": .string(finding.code.id),
                    "ruleIndex": .integer(ruleIndex[finding.code.id] ?? 0),
                    "level": .string(level(finding.severity)),
                    "message": ["text": .string(text)],
                    "locations": [.object(location)],
                ])
            }
        }
        let document: JSONValue = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "imagegallery",
                    "version": .string(GalleryVersion.string),
                    "semanticVersion": .string(GalleryVersion.string),
                    "rules": .array(rules),
                ]],
                "columnKind": "unicodeCodePoints",
                "results": .array(results),
            ]],
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// A relative path as a URI reference (SARIF artifact locations are URIs).
    static func uri(_ path: String) -> String {
        // Foundation's `urlPathAllowed` (RFC 3986's path characters but ";") without ":",
        // which would make a relative path read as a scheme.
        PercentEncoding.encode(path, keeping: "-._~!$&'()*+,=@/")
    }

    /// JUnit XML: one test case per file, failed when the file is invalid.
    func junitReport(_ reports: [ValidationReport]) -> String {
        let failures = reports.filter { !passes($0) }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let totals = "tests=\"\(reports.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\""
        xml += "<testsuites name=\"imagegallery validate\" \(totals)>\n"
        xml += "  <testsuite name=\"imagegallery validate\" \(totals)>\n"
        for report in reports {
            xml += "    <testcase classname=\"imagegallery.validate\" name=\"\(MarkupText.escape(report.path, for: .xmlAttribute))\""
            let lines = report.diagnostics.map { finding in
                "\(finding.severity.rawValue) \(finding.code.id) \(finding.location.entry.map { $0 + ": " } ?? "")\(finding.message)"
            }
            if passes(report) {
                if lines.isEmpty {
                    xml += "/>\n"
                } else {
                    xml += ">\n      <system-out>\(MarkupText.escape(lines.joined(separator: "\n"), for: .xmlText))</system-out>\n    </testcase>\n"
                }
            } else {
                let errors = report.count(.fatal) + report.count(.error)
                let message = "\(errors) error\(errors == 1 ? "" : "s"), \(report.count(.warning)) warning\(report.count(.warning) == 1 ? "" : "s")"
                xml += ">\n      <failure type=\"invalid\" message=\"\(MarkupText.escape(message, for: .xmlAttribute))\">"
                xml += MarkupText.escape(lines.joined(separator: "\n"), for: .xmlText) + "</failure>\n    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    /// GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding,
    /// which the run's page shows as an annotation on the file, then a line per file. What a
    /// hostile file puts in a message (an entry's name, a title) is shown with its control
    /// characters as escapes and then escaped as the runner unescapes it, so nothing in it can
    /// start a workflow command of its own; each file's summary line starts with our name, so
    /// neither can a file's name.
    func githubReport(_ reports: [ValidationReport]) -> String {
        func data(_ text: String) -> String {
            Terminal.neutralised(text).replacingScalars(["%": "%25", "\r": "%0D", "\n": "%0A"])
        }
        func property(_ text: String) -> String {
            data(text).replacingScalars([":": "%3A", ",": "%2C"])
        }
        var lines: [String] = []
        for report in reports {
            for finding in report.diagnostics {
                let command = switch finding.severity {
                case .fatal, .error: "error"
                case .warning: "warning"
                case .info: "notice"
                }
                var text = (finding.location.entry.map { $0 + ": " } ?? "") + finding.message
                if let cause = finding.cause { text += " (\(cause))" }
                lines.append("::\(command) file=\(property(report.path)),title=\(property(finding.code.id))::\(data(text))")
            }
            let errors = report.count(.fatal) + report.count(.error)
            lines.append(data("imagegallery validate: \(report.path): \(passes(report) ? "valid" : "invalid"), \(errors) error\(errors == 1 ? "" : "s"), "
                              + "\(report.count(.warning)) warning\(report.count(.warning) == 1 ? "" : "s")"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a file passes, `--strict` applied.
    func passes(_ report: ValidationReport) -> Bool { report.isValid && !(strict && report.count(.warning) > 0) }
}
