import Foundation
package import GatehouseServerSupport
import GatehouseStorage
import GatehouseWebAuthn

/// Each flow, built with only the services it needs.
extension ServerServices {
    /// The growing delays after wrong passwords, shared by sign-in and `current_password`.
    var passwordDelays: FailedPasswordDelays {
        FailedPasswordDelays(limiter: limiter, table: rateLimits.table)
    }

    package var passwordSignIn: PasswordSignIn {
        PasswordSignIn(
            storage: storage,
            passwords: passwords,
            delays: passwordDelays,
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    package var refreshRotation: RefreshRotation {
        RefreshRotation(
            storage: storage,
            refreshTokens: refreshTokens,
            sessions: sessions,
            audit: audit,
            rules: RefreshDecision.Rules(configuration),
            now: now
        )
    }

    package var idTokenSignIn: IDTokenSignIn {
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
    package var redirects: RedirectPolicy {
        RedirectPolicy(siteURL: configuration.siteURL, allowList: configuration.uriAllowList)
    }

    package var oauthAuthorization: OAuthAuthorization {
        OAuthAuthorization(
            storage: storage,
            providers: oauthProviders,
            redirects: redirects,
            sensitive: sensitiveActions,
            now: now
        )
    }

    package var oauthCallback: OAuthCallback {
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

    package var pkceExchange: PKCEExchange {
        PKCEExchange(
            storage: storage,
            sessions: sessions,
            sealing: ProviderTokenSealing(vault: vault),
            audit: audit,
            now: now
        )
    }

    package var logout: Logout {
        Logout(storage: storage, sensitive: sensitiveActions, audit: audit, verified: tokens.verified)
    }

    package var signUp: SignUp {
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

    package var anonymousSignUp: AnonymousSignUp {
        AnonymousSignUp(
            storage: storage,
            rateLimits: rateLimits,
            sessions: sessions,
            audit: audit,
            settings: SignUpSettings(configuration),
            now: now
        )
    }

    package var magicCodeRequest: MagicCodeRequest {
        MagicCodeRequest(
            storage: storage,
            delivery: delivery,
            signupDisabled: configuration.signupDisabled,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    package var passwordRecovery: PasswordRecovery {
        PasswordRecovery(storage: storage, delivery: delivery, audit: audit, now: now)
    }

    package var codeResend: CodeResend { CodeResend(storage: storage, delivery: delivery, audit: audit, now: now) }

    package var reauthentication: Reauthentication { Reauthentication(storage: storage, delivery: delivery, now: now) }

    package var codeVerification: CodeVerification {
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

    package var userUpdate: UserUpdate {
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

    package var accountDeletion: AccountDeletion {
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

    package var identityUnlink: IdentityUnlink {
        IdentityUnlink(
            storage: storage,
            sensitive: sensitiveActions,
            audit: audit,
            appleRevocations: appleRevocations,
            now: now
        )
    }

    /// `nil` when Sign in with Apple is off.
    package var appleNotificationHandling: AppleNotificationHandling? {
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

    package var factorEnrollment: FactorEnrollment {
        FactorEnrollment(
            storage: storage,
            sealing: factorSealing,
            sensitive: sensitiveActions,
            audit: audit,
            defaultIssuer: URL(string: configuration.siteURL)?.host ?? configuration.issuer,
            now: now
        )
    }

    package var factorChallenge: FactorChallengeCreation {
        FactorChallengeCreation(
            storage: storage,
            budget: mfaBudget,
            audit: audit,
            now: now
        )
    }

    package var factorVerification: FactorVerification {
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

    package var factorUnenrollment: FactorUnenrollment {
        FactorUnenrollment(storage: storage, sensitive: sensitiveActions, audit: audit)
    }

    package var adminUserLookup: AdminUserLookup { AdminUserLookup(storage: storage) }

    package var adminUserCreation: AdminUserCreation {
        AdminUserCreation(
            storage: storage,
            policy: policy,
            passwords: passwords,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    package var adminUserUpdate: AdminUserUpdate {
        AdminUserUpdate(
            storage: storage,
            policy: policy,
            passwords: passwords,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    package var adminUserDeletion: AdminUserDeletion {
        AdminUserDeletion(storage: storage, audit: audit, appleRevocations: appleRevocations, now: now)
    }

    package var invitation: Invitation {
        Invitation(
            storage: storage,
            delivery: delivery,
            audit: audit,
            metadataLimit: MetadataLimit(configuration),
            now: now
        )
    }

    package var linkGeneration: LinkGeneration {
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

    package var passkeyRegistration: PasskeyRegistration {
        PasskeyRegistration(
            storage: storage,
            relyingParty: relyingParty,
            challenges: passkeyChallenges,
            sensitive: sensitiveActions,
            audit: audit,
            now: now
        )
    }

    package var passkeySignIn: PasskeySignIn {
        PasskeySignIn(
            storage: storage,
            relyingParty: relyingParty,
            challenges: passkeyChallenges,
            sessions: sessions,
            audit: audit,
            now: now
        )
    }

    package var passkeyManagement: PasskeyManagement {
        PasskeyManagement(storage: storage, sensitive: sensitiveActions, audit: audit, now: now)
    }
}
