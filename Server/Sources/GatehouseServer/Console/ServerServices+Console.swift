import Foundation
import GatehouseFlows
import GatehouseStorage

/// The console's parts, built from the same services (and flows) as the API.
extension ServerServices {
    var consoleCookie: ConsoleCookie {
        ConsoleCookie(isHTTPS: configuration.apiExternalURL?.lowercased().hasPrefix("https://") ?? false)
    }

    var consoleSecrets: ConsoleSecrets { ConsoleSecrets(secret: codes.secret) }

    var consoleSessions: ConsoleSessions {
        ConsoleSessions(storage: storage, secrets: consoleSecrets, lifetime: sessionLifetime, now: now)
    }

    var consoleSignIn: ConsoleSignIn {
        ConsoleSignIn(
            storage: storage,
            rateLimits: rateLimits,
            passwordSignIn: passwordSignIn,
            passkeySignIn: passkeySignIn,
            authenticator: authenticator,
            challenge: factorChallenge,
            verification: factorVerification,
            audit: audit,
            now: now
        )
    }

    var consoleUserActions: ConsoleUserActions {
        ConsoleUserActions(
            lookup: adminUserLookup,
            update: adminUserUpdate,
            ending: adminSessionEnding,
            unenrollment: factorUnenrollment,
            passkeys: passkeyManagement,
            recovery: passwordRecovery,
            resend: codeResend,
            deletion: adminUserDeletion,
            page: ConsoleUserPage(storage: storage, sessions: sessionListing, passkeys: passkeyManagement, now: now),
            storage: storage,
            audit: audit
        )
    }

    var consoleController: ConsoleController {
        ConsoleController(
            storage: storage,
            cookie: consoleCookie,
            secrets: consoleSecrets,
            sessions: consoleSessions,
            signIn: consoleSignIn,
            passkeysEnabled: configuration.webAuthn.isEnabled,
            lookup: adminUserLookup,
            actions: consoleUserActions,
            vault: vault,
            audit: audit,
            refusals: refusals,
            rateLimits: rateLimits,
            now: now
        )
    }
}
