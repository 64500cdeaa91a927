import Foundation
import Testing

/// `docs/configuration.md` lists exactly the environment variables the server reads.
@Suite("The configuration reference and the server's code agree")
struct ConfigurationReferenceTests {
    static let reference = "docs/configuration.md"
    static let serverSources = "Server/Sources"

    /// Names the server's sources hold but that are not settings of a deployment, each with the
    /// reason. A name here must still be read by the code (a stale entry fails), and must not be
    /// listed in the reference. Test-only variables (`GATEHOUSE_TEST_POSTGRES_URL`,
    /// `GATEHOUSE_SERVER_BIN`) are read by the test targets, which this scan does not cover.
    static let notSettings: [String: String] = [
        "GATEHOUSE_EXTERNAL_": "the prefix of the per-provider variables (GATEHOUSE_EXTERNAL_<NAME>_CLIENT_ID, …), "
            + "which the reference lists with their placeholder in the table of provider sign-ins",
        "GOTRUE_EXTERNAL_": "the prefix of GoTrue's spellings of the same per-provider variables",
        "GOTRUE_EXTERNAL_GITHUB_URL": "GoTrue's spelling of GATEHOUSE_EXTERNAL_GITHUB_URL (a per-provider variable, "
            + "listed with its placeholder)",
    ]

    /// The values an interpolated name takes. `EnvironmentReader.provider(_:defaults:)` reads
    /// `GATEHOUSE_\(name)_CLIENT_IDS` and `GATEHOUSE_\(name)_JWKS_URL`; its callers pass the
    /// provider's name as a literal, which this pattern collects from the same sources.
    static let interpolations: [String: String] = [
        "name": #"\.provider\(\s*"([A-Z0-9_]+)""#
    ]

    @Test func everyVariableTheServerReadsIsInTheReference() throws {
        let read = try Self.namesReadByTheServer()
        let listed = try Self.namesListedInTheReference()
        let missing = read.subtracting(listed).subtracting(Self.notSettings.keys).sorted()
        #expect(
            missing.isEmpty,
            "The server reads \(missing.joined(separator: ", ")), which \(Self.reference) does not list: add a row (default and meaning) to the table of its task."
        )
    }

    @Test func everyVariableInTheReferenceIsReadByTheServer() throws {
        let read = try Self.namesReadByTheServer()
        let listed = try Self.namesListedInTheReference()
        let stale = listed.subtracting(read).sorted()
        #expect(
            stale.isEmpty,
            "\(Self.reference) lists \(stale.joined(separator: ", ")), which no file of \(Self.serverSources) reads: remove the row, or fix its spelling."
        )
    }

    @Test func exclusionsAreReadAndNotListed() throws {
        let read = try Self.namesReadByTheServer()
        let listed = try Self.namesListedInTheReference()
        for name in Self.notSettings.keys.sorted() {
            #expect(read.contains(name), "\(name) is excluded but no longer read: drop the exclusion.")
            #expect(!listed.contains(name), "\(name) is excluded as not a setting but listed in \(Self.reference).")
        }
    }

    @Test func eachVariableHasOneRow() throws {
        let rows = try Self.referenceRows()
        var seen: [String: Int] = [:]
        for name in rows.flatMap(\.self) { seen[name, default: 0] += 1 }
        let repeated = seen.filter { $0.value > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "Listed more than once in \(Self.reference): \(repeated.joined(separator: ", ")).")
        #expect(
            rows.allSatisfy { $0.count == 1 },
            "A row of \(Self.reference) names several variables; give each its own row."
        )
    }

    /// The scan finds the variables it must: a scan that found nothing would make both
    /// directions pass.
    @Test func theScanSeesTheKnownReads() throws {
        let read = try Self.namesReadByTheServer()
        for name in [
            "GATEHOUSE_HOST", "GATEHOUSE_LOG_LEVEL", "GATEHOUSE_METRICS_HOST", "GATEHOUSE_APPLE_CLIENT_IDS",
            "GATEHOUSE_GOOGLE_CLIENT_IDS", "GATEHOUSE_GOOGLE_JWKS_URL", "GATEHOUSE_WEBAUTHN_RP_ID",
        ] {
            #expect(read.contains(name), "the scan of \(Self.serverSources) missed \(name)")
        }
        #expect(read.count > 50)
    }

    // MARK: - Reading the code and the reference

    /// Every `GATEHOUSE_…` or `GOTRUE_…` name that appears as a whole string literal in a Swift
    /// file of the server (outside comments), with interpolated names expanded.
    static func namesReadByTheServer() throws -> Set<String> {
        let files = Repository.files(under: serverSources, endingIn: ".swift")
        #expect(!files.isEmpty, "no Swift files under \(serverSources)")
        var names: Set<String> = []
        var templates: [(prefix: String, placeholder: String, suffix: String, file: String)] = []
        var code = ""
        for file in files {
            let text = try Repository.text(file)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            let source = lines.joined(separator: "\n")
            code += source + "\n"
            for match in source.matches(of: #/"((?:GATEHOUSE|GOTRUE)_[A-Z0-9_]+)"/#) {
                names.insert(String(match.1))
            }
            for match in source.matches(of: #/"((?:GATEHOUSE|GOTRUE)_[A-Z0-9_]*)\\\((\w+)\)([A-Z0-9_]*)"/#) {
                templates.append((String(match.1), String(match.2), String(match.3), file))
            }
        }
        for template in templates {
            let patternText = try #require(
                interpolations[template.placeholder],
                "\(template.file) reads \(template.prefix)\\(\(template.placeholder))\(template.suffix): teach ConfigurationReferenceTests.interpolations the values of `\(template.placeholder)`."
            )
            let pattern = try Regex<(Substring, Substring)>(patternText)
            let values = Set(code.matches(of: pattern).map { String($0.1) })
            #expect(!values.isEmpty, "no values found for \\(\(template.placeholder)) in \(template.file)")
            for value in values { names.insert(template.prefix + value + template.suffix) }
        }
        return names
    }

    /// The names in the first cell of each table row of the reference, one array per row.
    static func referenceRows() throws -> [[String]] {
        let text = try Repository.text(reference)
        var rows: [[String]] = []
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 2 else { continue }
            let first = cells[1]
            let names = first.matches(of: #/`((?:GATEHOUSE|GOTRUE)_[A-Z0-9_]+)`/#).map { String($0.1) }
            if !names.isEmpty { rows.append(names) }
        }
        return rows
    }

    static func namesListedInTheReference() throws -> Set<String> {
        let names = Set(try referenceRows().flatMap(\.self))
        #expect(names.count > 50, "\(reference) lists \(names.count) variables; its tables were not read")
        return names
    }
}
