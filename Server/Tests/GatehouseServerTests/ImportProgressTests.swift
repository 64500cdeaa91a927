import Foundation
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The progress `gatehouse-server import` shows (issue 38): its line as a pure function, and
/// that a run whose output is not a terminal prints no control character unless asked to.
@Suite("Import: progress")
struct ImportProgressTests {
    @Test func theLineHasABarCountsAndPercentAndNeverShrinks() {
        #expect(ImportProgress.line(done: 0, total: 10_000) == "\rimporting [....................]     0/10000   0%")
        #expect(
            ImportProgress.line(done: 2_500, total: 10_000) == "\rimporting [#####...............]  2500/10000  25%"
        )
        #expect(
            ImportProgress.line(done: 10_000, total: 10_000) == "\rimporting [####################] 10000/10000 100%"
        )
        #expect(ImportProgress.line(done: 12, total: 10, barWidth: 4) == "\rimporting [####] 10/10 100%")
        #expect(ImportProgress.line(done: 0, total: 0, barWidth: 4) == "\rimporting [####] 0/0 100%")
        let widths = Set(
            stride(from: 0, through: 10_000, by: 997).map { ImportProgress.line(done: $0, total: 10_000).count }
        )
        #expect(widths.count == 1)
        // A carriage return and nothing else below the space: no escape sequence.
        #expect(
            ImportProgress.line(done: 3, total: 7).unicodeScalars.filter { $0.value < 0x20 || $0 == "\u{7F}" } == ["\r"]
        )
    }

    @Test func shownOnATerminalOrWhenAskedOnly() {
        #expect(ImportProgress.isShown(requested: nil, standardErrorIsTerminal: true))
        #expect(!ImportProgress.isShown(requested: nil, standardErrorIsTerminal: false))
        #expect(ImportProgress.isShown(requested: true, standardErrorIsTerminal: false))
        #expect(!ImportProgress.isShown(requested: false, standardErrorIsTerminal: true))
    }

    @Test func aRunOnPipesPrintsNoControlCharacterUnlessAsked() async throws {
        let scene = try await ImportScene.make()
        defer { scene.remove() }
        let users = (0..<5).map { #"{"user_id":"auth0|p\#($0)","email":"p\#($0)@example.com","email_verified":true}"# }
        let file = try scene.file("users.ndjson", users.joined(separator: "\n") + "\n")

        let quiet = try await scene.run(["--from", "auth0", file, "--batch-size", "2"])
        #expect(quiet.status == 0, "\(quiet.errors)")
        let controls = (quiet.output + quiet.errors).unicodeScalars.filter {
            $0.value < 0x20 && $0 != "\n" || $0 == "\u{7F}"
        }
        #expect(controls.isEmpty, "\(quiet.output.debugDescription) \(quiet.errors.debugDescription)")
        #expect(quiet.errors.isEmpty, "\(quiet.errors.debugDescription)")

        let shown = try await scene.run(["--from", "auth0", file, "--batch-size", "2", "--progress"])
        #expect(shown.status == 0, "\(shown.errors)")
        #expect(
            shown.errors
                == [2, 4, 5].map { ImportProgress.line(done: $0, total: 5) }.joined() + ImportProgress.end,
            "\(shown.errors.debugDescription)"
        )
        #expect(!shown.output.contains("\r"))
    }
}
