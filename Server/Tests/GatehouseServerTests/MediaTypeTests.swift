import Foundation
import Testing

@testable import GatehouseFlows
@testable import GatehouseServer

/// The JSON routes' `Content-Type` check, read as bytes.
@Suite("Media types")
struct MediaTypeTests {
    @Test(arguments: [
        "application/json", "Application/JSON", "application/json; charset=utf-8", " application/json ;charset=UTF-8",
        "\tapplication/json\t", "application/vnd.api+json", "APPLICATION/PROBLEM+JSON; q=1", "application/+json",
    ])
    func jsonIsAccepted(contentType: String) {
        #expect(MediaType.isJSON(contentType))
    }

    @Test(arguments: [
        "", ";", "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data",
        "application/json5", "application/jsonx", "text/json", "application", "application/", "+json", "text/x+json",
        "application/json-seq", "application/ json", "xapplication/json",
    ])
    func otherTypesAreRefused(contentType: String) {
        #expect(!MediaType.isJSON(contentType))
    }
}
