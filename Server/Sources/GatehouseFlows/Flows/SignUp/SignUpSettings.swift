import GatehouseCore
import GatehouseServerSupport
import HTTPTypes

/// The sign-up switches and limits of ``ServerConfiguration`` that the sign-up flows apply.
struct SignUpSettings: Sendable {
    /// `GATEHOUSE_DISABLE_SIGNUP`.
    var disabled: Bool
    /// `GATEHOUSE_MAILER_AUTOCONFIRM`.
    var autoconfirm: Bool
    /// `GATEHOUSE_ANONYMOUS_USERS`.
    var anonymousUsers: Bool
    /// The size limit of the `data` a sign-up stores.
    var metadataLimit: MetadataLimit

    init(_ configuration: ServerConfiguration) {
        disabled = configuration.signupDisabled
        autoconfirm = configuration.mailerAutoconfirm
        anonymousUsers = configuration.anonymousUsers
        metadataLimit = MetadataLimit(configuration)
    }

    /// 422 `signup_disabled` when sign-ups are off.
    func checkEnabled() throws {
        if disabled {
            throw APIError(.unprocessableContent, .signupDisabled, "Signups not allowed for this instance")
        }
    }
}
