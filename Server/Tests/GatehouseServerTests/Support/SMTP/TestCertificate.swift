/// A self-signed P-256 certificate for `localhost` (valid 2020–2120) and its key, for the test
/// SMTP listener's STARTTLS. Test-only: it protects nothing.
enum TestCertificate {
    static let certificatePEM = """
        -----BEGIN CERTIFICATE-----
        MIIBUzCB+6ADAgECAhRmIinfK3vJzXGOufZAgU7nXpmrrDAKBggqhkjOPQQDAjAU
        MRIwEAYDVQQDDAlsb2NhbGhvc3QwIBcNMjAwMTAxMDAwMDAwWhgPMjEyMDAxMDEw
        MDAwMDBaMBQxEjAQBgNVBAMMCWxvY2FsaG9zdDBZMBMGByqGSM49AgEGCCqGSM49
        AwEHA0IABKHF5AToZ/YuyKhEZLjPL9rNPsDrvf2/BXhNpMV1RTwy1gppSMiMpW2Z
        YgVH5FzN/BrMqr36sTwMuroir0UMq+2jKTAnMBQGA1UdEQQNMAuCCWxvY2FsaG9z
        dDAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIFUkGbVHZ/ZW7O0C
        Lap9AlIZd52jS84neP/fOYZ/sWvgAiA7uVM1ZDjO/BFu3qvbteyinis6XtF1G1+T
        1w9kbp5xJA==
        -----END CERTIFICATE-----

        """

    static let privateKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg7ROMqDVUgLnqhPpC
        Vpne2Os80bxAwC8D15R3koSPxQihRANCAAShxeQE6Gf2LsioRGS4zy/azT7A6739
        vwV4TaTFdUU8MtYKaUjIjKVtmWIFR+RczfwazKq9+rE8DLq6Iq9FDKvt
        -----END PRIVATE KEY-----

        """
}
