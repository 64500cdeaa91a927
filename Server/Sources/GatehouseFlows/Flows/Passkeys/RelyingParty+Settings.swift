import GatehouseWebAuthn

extension RelyingParty {
    /// The relying party `settings` configure; `nil` when passkeys are off (no RP id).
    init?(_ settings: WebAuthnSettings) {
        guard let id = settings.rpID else { return nil }
        self.init(id: id, name: settings.rpName, origins: settings.allowedOrigins)
    }
}
