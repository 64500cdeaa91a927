import Foundation
import Gatehouse
import GatehouseCLI
import Testing

@Suite("gatehouse sessions output")
struct SessionTableTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let here = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    let there = UUID(uuidString: "AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE")!

    var sessions: [DeviceSession] {
        [
            DeviceSession(
                id: there,
                device: "evil\u{1B}[2J\u{202E}phone",
                createdAt: now.addingTimeInterval(-300),
                refreshedAt: now.addingTimeInterval(-120),
                ip: "10.0.0.2",
                methods: ["password"],
                isCurrent: false
            ),
            DeviceSession(
                id: here,
                device: nil,
                createdAt: now.addingTimeInterval(-3 * 86_400),
                refreshedAt: now.addingTimeInterval(-2 * 3600),
                ip: nil,
                methods: ["otp"],
                isCurrent: true
            ),
        ]
    }

    @Test func theTableMarksThisDeviceAndPrintsNoTerminalControls() {
        let text = SessionTable(sessions).text(now: now)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0].contains("ID") && lines[0].contains("DEVICE") && lines[0].contains("LAST ACTIVE"))
        #expect(lines[1].hasPrefix(" ") && lines[1].contains("aaaaaaaa-bbbb") && lines[1].contains("2 min ago"))
        #expect(lines[2].hasPrefix("*") && lines[2].contains("unknown device") && lines[2].contains("3 days ago"))
        #expect(lines[2].contains("2 h ago") && lines[2].hasSuffix("-"))
        #expect(!text.contains("\u{1B}") && !text.contains("\u{202E}") && text.contains("evil[2Jphone"))
        #expect(SessionTable([]).text(now: now) == "No sessions.")
    }

    @Test func theJSONUsesTheServersFieldNames() {
        let json = JSONOutput.render(SessionTable(sessions))
        #expect(json.contains(#""id":"11111111-2222-3333-4444-555555555555""#))
        #expect(json.contains(#""current":true"#) && json.contains(#""amr":["otp"]"#))
        #expect(json.contains(#""refreshed_at":"2027-01-15T06:00:00.000Z""#))
        #expect(json.hasPrefix(#"{"sessions":["#))
    }
}
