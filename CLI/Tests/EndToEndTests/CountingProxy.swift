import Foundation
import GatehouseProcessTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A loopback HTTP proxy (a small Python program) in front of the server that counts the
/// refresh-token grants passing through it; `GET /__refresh_count` answers the count.
final class CountingProxy: @unchecked Sendable {
    private let process: ChildProcess
    let url: URL

    private static let program = #"""
        import http.client, http.server, sys, threading
        upstream_host, upstream_port = sys.argv[1], int(sys.argv[2])
        count = 0
        lock = threading.Lock()

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args):
                pass
            def forward(self):
                global count
                if self.path == "/__refresh_count":
                    body = str(count).encode()
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                if self.path.startswith("/token") and "grant_type=refresh_token" in self.path:
                    with lock:
                        count += 1
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                connection = http.client.HTTPConnection(upstream_host, upstream_port, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                connection.request(self.command, self.path, body=body, headers=headers)
                reply = connection.getresponse()
                data = reply.read()
                self.send_response(reply.status)
                for k, v in reply.getheaders():
                    if k.lower() not in ("connection", "transfer-encoding", "content-length"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                connection.close()
            do_GET = do_POST = do_PUT = do_DELETE = forward

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    init(upstream: URL) async throws {
        process = ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "-c", Self.program, upstream.host ?? "127.0.0.1", String(upstream.port ?? 80)]
        )
        let output = Pipe()
        process.standardOutput = .pipe(output)
        try process.run()
        let line = await Blocking.run { output.fileHandleForReading.availableData }
        let port = try #require(
            Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        )
        url = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// How many refresh grants reached the server through the proxy.
    func refreshCount() async throws -> Int {
        let (data, _) = try await URLSession.shared.data(from: url.appendingPathComponent("__refresh_count"))
        return try #require(Int(String(decoding: data, as: UTF8.self)))
    }

    /// Kills the proxy (SIGKILL) and waits for it to exit.
    func stop() {
        process.killBlocking()
    }

    deinit { stop() }
}
