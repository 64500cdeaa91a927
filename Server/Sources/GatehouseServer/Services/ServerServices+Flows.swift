import Foundation
import GatehouseServerSupport
import GatehouseStorage
import GatehouseWebAuthn

/// Each flow, built with only the services it needs.
extension ServerServices {
    /// The growing delays after wrong passwords, shared by sign-in and `current_password`.
    var passwordDelays: FailedPasswordDelays {
        FailedPasswordDelays(limiter: limiter, table: rateLimits.table)
    }

    var passwordSignIn: PasswordSignIn {
        PasswordSignIn(
            storage: storage,
            passwords: passwords,
            delays: passwordDelays,
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    var refreshRotation: RefreshRotation {
        RefreshRotation(
            storage: storage,
            refreshTokens: refreshTokens,
            sessions: sessions,
            audit: audit,
            rules: RefreshDecision.Rules(configuration),
            now: now
        )
    }

    var idTokenSignIn: IDTokenSignIn {
        IDTokenSignIn(
            storage: storage,
            verifiers: idTokens,
            apple: apple,
            authenticator: authenticator,
            sensitive: sensitiveActions,
            sessions: sessions,
            linking: identityLinking,
            audit: audit,
            now: now
        )
    }

    /// The linking rules every provider sign-in shares.
    var identityLinking: IdentityLinking {
        IdentityLinking(audit: audit, delivery: delivery, signupDisabled: configuration.signupDisabled)
    }

    /// Where a sign-in's redirect may land (`GATEHOUSE_SITE_URL`, `GATEHOUSE_URI_ALLOW_LIST`).
    var redirects: RedirectPolicy {
        RedirectPolicy(siteURL: configuration.siteURL, allowList: configuration.uriAllowList)
    }

    var oauthAuthorization: OAuthAuthorization {
        OAuthAuthorization(
            storage: storage,
            providers: oauthProviders,
            redirects: redirects,
            sensitive: sensitiveActions,
            now: now
        )
    }

    var oauthCallback: OAuthCallback {
        OAuthCallback(
            storage: storage,
            providers: oauthProviders,
            linking: identityLinking,
            sessions: sessions,
            sensitive: sensitiveActions,
            lifetime: SessionLifetime(configuration),
            sealing: ProviderTokenSealing(vault: vault),
            apple: apple,
            audit: audit,
            siteURL: configuration.siteURL,
            logger: logger,
            now: now
        )
    }

    var pkceExchange: PKCEExchange {
        PKCEExchange(
            storage: storage,
            sessions: sessions,
            sealing: ProviderTokenSealing(vault: vault),
            audit: audit,
            now: now
        )
    }

    var logout: Logout {
        Logout(storage: storage, sensitive: sensitiveActions, audit: audit, verified: tokens.verified)
    }

    var signUp: SignUp {
        SignUp(
            storage: storage,
            policy: policy,
            passwords: passwords,
            rateLimits: rateLimits,
            delivery: delivery,
            sessions: sessions,
            audit: audit,
            settings: SignUpSettings(configuration),
            now: now
        )
    }

    var anonymousSignUp: AnonymousSignUp {
        AnonymousSignUp(
            storage: storage,
            rateLimits: rateLimits,
            sessions: sessions,
            audit: audit,
            settings: SignUpSettings(configuration),
            now: now
        )
    }

    var magicCodeRequest: MagicCodeRequest {
        MagicCodeRequest(
            storage: storage,
            delivery: delivery,
            signupDisabled: configuration.signupDisabled,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    var passwordRecovery: PasswordRecovery { PasswordRecovery(storage: storage, delivery: delivery, audit: audit, now: now) }

    var codeResend: CodeResend { CodeResend(storage: storage, delivery: delivery, audit: audit, now: now) }

    var reauthentication: Reauthentication { Reauthentication(storage: storage, delivery: delivery, now: now) }

    var codeVerification: CodeVerification {
        CodeVerification(
            storage: storage,
            codes: codes,
            rateLimits: rateLimits,
            maximumAttempts: configuration.maximumCodeAttempts,
            emailChange: EmailChange(delivery: delivery),
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    var userUpdate: UserUpdate {
        UserUpdate(
            storage: storage,
            policy: policy,
            passwords: passwords,
            delays: passwordDelays,
            sensitive: sensitiveActions,
            emailChange: EmailChange(delivery: delivery),
            guestUpgrade: GuestUpgrade(autoconfirm: configuration.mailerAutoconfirm),
            delivery: delivery,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    var accountDeletion: AccountDeletion {
        AccountDeletion(
            storage: storage,
            sensitive: sensitiveActions,
            audit: audit,
            appleRevocations: appleRevocations,
            now: now
        )
    }

    /// The one enforcement of ``SensitiveActionPolicy``.
    var sensitiveActions: SensitiveActionGuard {
        SensitiveActionGuard(
            storage: storage,
            codes: codes,
            rateLimits: rateLimits,
            maximumAttempts: configuration.maximumCodeAttempts,
            delivery: delivery,
            now: now
        )
    }

    var mfaBudget: MFABudget { MFABudget(rateLimits: rateLimits) }

    var identityUnlink: IdentityUnlink {
        IdentityUnlink(
            storage: storage,
            sensitive: sensitiveActions,
            audit: audit,
            appleRevocations: appleRevocations,
            now: now
        )
    }

    /// `nil` when Sign in with Apple is off.
    var appleNotificationHandling: AppleNotificationHandling? {
        idTokens[.apple].map { verifier in
            AppleNotificationHandling(
                storage: storage,
                keys: verifier.keys,
                clientIDs: verifier.settings.clientIDs,
                leeway: configuration.idTokenLeeway,
                audit: audit,
                now: now
            )
        }
    }

    var factorSealing: FactorSecretSealing { FactorSecretSealing(vault: vault) }

    var factorEnrollment: FactorEnrollment {
        FactorEnrollment(
            storage: storage,
            sealing: factorSealing,
            sensitive: sensitiveActions,
            audit: audit,
            defaultIssuer: URL(string: configuration.siteURL)?.host ?? configuration.issuer,
            now: now
        )
    }

    var factorChallenge: FactorChallengeCreation {
        FactorChallengeCreation(
            storage: storage,
            budget: mfaBudget,
            audit: audit,
            now: now
        )
    }

    var factorVerification: FactorVerification {
        FactorVerification(
            storage: storage,
            sealing: factorSealing,
            budget: mfaBudget,
            sensitive: sensitiveActions,
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    var factorUnenrollment: FactorUnenrollment {
        FactorUnenrollment(storage: storage, sensitive: sensitiveActions, audit: audit)
    }

    var adminUserLookup: AdminUserLookup { AdminUserLookup(storage: storage) }

    var adminUserCreation: AdminUserCreation {
        AdminUserCreation(
            storage: storage,
            policy: policy,
            passwords: passwords,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    var adminUserUpdate: AdminUserUpdate {
        AdminUserUpdate(
            storage: storage,
            policy: policy,
            passwords: passwords,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    var adminUserDeletion: AdminUserDeletion {
        AdminUserDeletion(storage: storage, audit: audit, appleRevocations: appleRevocations, now: now)
    }

    var invitation: Invitation {
        Invitation(
            storage: storage,
            delivery: delivery,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    var linkGeneration: LinkGeneration {
        LinkGeneration(
            storage: storage,
            policy: policy,
            passwords: passwords,
            delivery: delivery,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            siteURL: configuration.siteURL,
            externalURL: configuration.externalURL,
            now: now
        )
    }

    var relyingParty: RelyingParty? { RelyingParty(configuration.webAuthn) }

    var passkeyChallenges: PasskeyChallenges { PasskeyChallenges(storage: storage) }

    var passkeyRegistration: PasskeyRegistration {
        PasskeyRegistration(
            storage: storage,
            relyingParty: relyingParty,
            challenges: passkeyChallenges,
            sensitive: sensitiveActions,
            audit: audit,
            now: now
        )
    }

    var passkeySignIn: PasskeySignIn {
        PasskeySignIn(
            storage: storage,
            relyingParty: relyingParty,
            challenges: passkeyChallenges,
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    var passkeyManagement: PasskeyManagement {
        PasskeyManagement(storage: storage, sensitive: sensitiveActions, audit: audit, now: now)
    }
}
