import Foundation
import GatehouseFlows
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's answers: HTML pages, redirects after a form (303, to a path of the console
/// only), and the style sheet. ``ConsoleHeadersMiddleware`` adds the security headers.
enum ConsoleResponse {
    static func html(_ page: HTML, status: HTTPResponse.Status = .ok, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: page.markup))
        )
    }

    /// 303 to `path`, which must be one of the console's own (``ConsoleReturnPath``).
    static func redirect(_ path: ConsoleReturnPath, cookies: [String] = []) -> Response {
        var headers = HTTPFields()
        headers[.location] = path.path
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// One of the console's scripts (``ConsoleScript``).
    static func script(_ source: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/javascript; charset=utf-8"
        headers[.cacheControl] = "max-age=3600"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: source)))
    }

    static func css() -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/css; charset=utf-8"
        headers[.cacheControl] = "max-age=3600"
        return Response(
            status: .ok,
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: ConsoleStyle.css))
        )
    }
}
