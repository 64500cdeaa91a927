import Foundation

/// Where the sample app's Gatehouse server is: `GATEHOUSE_URL` when the scheme sets it, else
/// the server on this Mac (`swift run --package-path Server gatehouse-server`), which the iOS
/// Simulator reaches at 127.0.0.1 too. A device needs the Mac's address and an https URL, or an
/// App Transport Security exception (README.md).
enum ExampleServer {
    static var url: URL {
        if let text = ProcessInfo.processInfo.environment["GATEHOUSE_URL"], let url = URL(string: text) {
            return url
        }
        return URL(string: "http://127.0.0.1:9999")!
    }
}
