import Foundation

/// The `apple-app-site-association` file an iOS app's passkeys need: served by the RP id's
/// domain at `https://<rp id>/.well-known/apple-app-site-association`, it names the apps
/// (`<team id>.<bundle id>`) whose `webcredentials:<rp id>` associated domain is genuine.
public enum AppleAppSiteAssociation {
    /// Why an app id was refused.
    public struct InvalidAppID: Error, CustomStringConvertible {
        public let description: String
    }

    /// The file's JSON for `teamID` and each of `bundleIDs`, pretty-printed.
    ///
    /// - Throws: ``InvalidAppID`` for a team id that is not 10 letters or digits, or a bundle id
    ///   with characters a bundle id cannot have.
    public static func json(teamID: String, bundleIDs: [String]) throws -> String {
        let team = teamID.uppercased()
        guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw InvalidAppID(
                description: "The team id is the 10 letters and digits of your Apple Developer team, not “\(teamID)”."
            )
        }
        guard !bundleIDs.isEmpty else { throw InvalidAppID(description: "Give at least one bundle id.") }
        for bundle in bundleIDs {
            let valid = bundle.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
            guard valid, !bundle.isEmpty, !bundle.hasPrefix("."), !bundle.hasSuffix(".") else {
                throw InvalidAppID(description: "“\(bundle)” is not a bundle id (letters, digits, dots and hyphens).")
            }
        }
        let apps = bundleIDs.map { "\(team).\($0)" }
        let object: [String: Any] = ["webcredentials": ["apps": apps]]
        let data = try JSONSerialization.data(
            withJSONObject: object,
            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        )
        return String(decoding: data, as: UTF8.self)
    }
}
