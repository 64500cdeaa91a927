import Foundation
import GatehouseFlows
import GatehouseServer
import Testing

@Suite("apple-app-site-association")
struct AppleAppSiteAssociationTests {
    @Test func namesEachAppUnderWebcredentials() throws {
        let text = try AppleAppSiteAssociation.json(
            teamID: "abcde12345",
            bundleIDs: ["com.example.app", "com.example.clip"]
        )
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let apps = (object["webcredentials"] as? [String: Any])?["apps"] as? [String]
        #expect(apps == ["ABCDE12345.com.example.app", "ABCDE12345.com.example.clip"])
        #expect(object.keys.sorted() == ["webcredentials"])
    }

    @Test(arguments: [
        ("ABC", ["com.example.app"]), ("ABCDE12345", []), ("ABCDE12345", ["com/example"]),
        ("ABCDE12345", [".com.example"]), ("ABCDE-2345", ["com.example.app"]),
    ])
    func refusesWhatCannotBeAnAppID(_ team: String, _ bundles: [String]) {
        #expect(throws: AppleAppSiteAssociation.InvalidAppID.self) {
            try AppleAppSiteAssociation.json(teamID: team, bundleIDs: bundles)
        }
    }
}
