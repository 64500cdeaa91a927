// Apple-only call sites in this file (SwiftUI): View, LabeledContent, Label, Text. The status,
// its title and its masking come from AccountStatus, which is tested on Linux.
#if canImport(SwiftUI)
public import SwiftUI

/// A settings row: "Signed in", "Guest" or "Not signed in", with the masked identifier.
///
/// ```swift
/// Section("Account") { AccountStatusView(auth: auth) }
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct AccountStatusView: View {
    private let auth: AuthService?
    private let fixed: AccountStatus

    /// A row that follows the service's ``AuthService/accountStatus``.
    public init(auth: AuthService) {
        self.auth = auth
        self.fixed = AccountStatus(kind: .unknown, maskedIdentifier: nil, isConfirmedByServer: false)
    }

    /// A row for a fixed status (previews).
    public init(status: AccountStatus) {
        self.auth = nil
        self.fixed = status
    }

    public var body: some View {
        let status = auth?.accountStatus ?? fixed
        LabeledContent {
            Text(status.maskedIdentifier ?? "")
        } label: {
            Label(status.title, systemImage: Self.symbol(for: status.kind))
        }
    }

    private static func symbol(for kind: AccountStatus.Kind) -> String {
        switch kind {
        case .signedIn: return "person.crop.circle.badge.checkmark"
        case .guest: return "person.crop.circle.badge.questionmark"
        case .signedOut: return "person.crop.circle.badge.xmark"
        case .unknown: return "person.crop.circle"
        case .unavailable: return "exclamationmark.circle"
        }
    }
}
#endif
