/// The words of the gate's session-error screen. Each default is English and localizable: add
/// the keys below to a `Gatehouse.strings` table in the app's main bundle, or pass your own.
public struct AuthGateTexts: Sendable, Equatable {
    /// Heading of the session-error screen (`gate.error.title`).
    public var errorTitle: String
    /// The retry button (`gate.retry`).
    public var retry: String
    /// The button that clears the stored session (`gate.signInAgain`).
    public var signInAgain: String
    /// Title of the confirmation (`gate.confirm.title`).
    public var confirmTitle: String
    /// Body of the confirmation (`gate.confirm.message`).
    public var confirmMessage: String
    /// The confirming button (`gate.confirm.action`).
    public var confirmAction: String
    /// The cancelling button (`gate.confirm.cancel`).
    public var cancel: String

    /// The defaults, looked up in the app's `Gatehouse.strings` table.
    public init(
        errorTitle: String = GatehouseText.localized("gate.error.title", "Could not restore your session."),
        retry: String = GatehouseText.localized("gate.retry", "Retry"),
        signInAgain: String = GatehouseText.localized("gate.signInAgain", "Sign in again"),
        confirmTitle: String = GatehouseText.localized("gate.confirm.title", "Sign in again?"),
        confirmMessage: String = GatehouseText.localized(
            "gate.confirm.message",
            "The saved session on this device will be removed. Your account and your data are not affected."
        ),
        confirmAction: String = GatehouseText.localized("gate.confirm.action", "Sign in again"),
        cancel: String = GatehouseText.localized("gate.confirm.cancel", "Cancel")
    ) {
        self.errorTitle = errorTitle
        self.retry = retry
        self.signInAgain = signInAgain
        self.confirmTitle = confirmTitle
        self.confirmMessage = confirmMessage
        self.confirmAction = confirmAction
        self.cancel = cancel
    }

    /// The label of an action's button.
    public func label(for action: AuthGate.SessionErrorAction) -> String {
        switch action {
        case .retry: return retry
        case .signInAgain: return signInAgain
        }
    }
}
