import ArgumentParser
import GatehouseFlows
import GatehouseServer

extension GatehouseServerCommand {
    /// `gatehouse-server apple-app-site-association --team-id T --bundle-id B`.
    struct AppleAppSiteAssociationFile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple-app-site-association",
            abstract: "Print the apple-app-site-association file an iOS app's passkeys need.",
            discussion: """
                Serve the output at https://<GATEHOUSE_WEBAUTHN_RP_ID>/.well-known/apple-app-site-association \
                (content type application/json, no redirect), and give the app the associated domain \
                webcredentials:<GATEHOUSE_WEBAUTHN_RP_ID>.
                """
        )

        @Option(help: "Your Apple Developer team id (10 letters and digits).")
        var teamID: String

        @Option(help: "The app's bundle id; repeat for several apps.")
        var bundleID: [String]

        func run() throws {
            do {
                print(try AppleAppSiteAssociation.json(teamID: teamID, bundleIDs: bundleID))
            } catch let error as AppleAppSiteAssociation.InvalidAppID {
                throw ValidationError(error.description)
            }
        }
    }
}
