import Foundation
import GatehouseStorage
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The table of rate-limit buckets (``RateLimitTable``): every bucket has its own key prefix
/// (the windows of two buckets never share an id, in memory or in PostgreSQL's `rate_limits`),
/// a window that lasts and a limit that admits, and the lengths and limits the flows counted with
/// before the table existed.
@Suite("Rate-limit table")
struct RateLimitTableTests {
    @Test func everyBucketHasItsOwnKeyPrefix() {
        let prefixes = RateLimitBucket.allCases.map(\.keyPrefix)
        #expect(Set(prefixes).count == prefixes.count)
        for prefix in prefixes {
            #expect(!prefix.isEmpty)
            // A prefix holding the separator could make one bucket's window id another's.
            #expect(!prefix.contains(RateLimitBucket.separator), "\(prefix)")
        }
        #expect(RateLimitBucket.token.windowID("192.0.2.1") == "token|192.0.2.1")
    }

    @Test(arguments: [0.0, 60, 86_400])
    func everyWindowLastsAndAdmits(codeSpacing: TimeInterval) {
        let table = RateLimitTable(limits: RateLimitSettings(), codeSpacing: codeSpacing)
        for bucket in RateLimitBucket.allCases {
            let window = table.window(bucket)
            #expect(window.bucket == bucket)
            #expect(window.window > 0, "\(bucket)")
            #expect(window.limit > 0, "\(bucket)")
        }
    }

    /// The lengths and default limits the flows passed as literals before: counters already in a
    /// database keep their meaning.
    @Test func theTableKeepsTheLengthsAndLimitsTheFlowsCountedWith() {
        let table = RateLimitTable(limits: RateLimitSettings(), codeSpacing: 60)
        let expected: [RateLimitBucket: (window: TimeInterval, limit: Int)] = [
            .token: (300, 150), .oauth: (300, 150), .passkey: (300, 60), .verify: (300, 30), .otp: (300, 30),
            .sensitiveChanges: (300, 30), .anonymous: (3600, 30), .mfa: (60, 15), .mfaUser: (3600, 30),
            .mfaFailures: (3600, 30), .emailRecipientClient: (3600, 5), .emailRecipient: (3600, 20),
            .emailSent: (3600, 30), .emailSentUnconfirmed: (3600, 20), .signupEmail: (3600, 10),
            .unknownRecipient: (60, 1), .failedPasswordMinute: (60, 5), .failedPasswordTenMinutes: (600, 10),
            .failedPasswordHour: (3600, 20), .failedPassword: (86_400, 100), .consoleActions: (300, 60),
        ]
        #expect(Set(expected.keys) == Set(RateLimitBucket.allCases))
        for (bucket, numbers) in expected {
            #expect(
                table.window(bucket) == RateLimitWindow(bucket: bucket, limit: numbers.limit, window: numbers.window)
            )
        }
    }

    /// A limit set in the configuration reaches its bucket, and only its bucket.
    @Test func aConfiguredLimitReachesItsBucket() {
        var limits = RateLimitSettings()
        limits.mfaPerUser = 7
        limits.token = 9
        let table = RateLimitTable(limits: limits, codeSpacing: 60)
        #expect(table.limit(.mfaUser) == 7)
        #expect(table.limit(.mfa) == 15)
        #expect(table.limit(.token) == 9)
        #expect(table.limit(.oauth) == 9)
    }
}
