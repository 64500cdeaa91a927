import GatehouseFlows
import NIOCore
import NIOHTTPTypes

/// Closes an HTTP/1 connection whose request, once its head has arrived, does not finish
/// arriving (body included) within the read timeout: a client that sends a body a byte at a
/// time cannot hold a connection. The head itself is bounded by the idle timeout, which runs
/// from the connection's start or its previous response until a whole head has been read.
final class RequestReadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    /// When the head of the request still arriving came; `nil` between requests.
    private var headArrived: NIODeadline?
    /// The one timer, armed while a request arrives and left armed between requests of a
    /// kept-alive connection: a request's head sets only ``headArrived``, so a connection pays
    /// for a timer once per timeout, not once per request (issue 35: a timer scheduled and
    /// cancelled per request).
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            let now = NIODeadline.now()
            headArrived = now
            if timer == nil { arm(at: now + timeout, context: context) }
        case .end:
            headArrived = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    /// At `deadline`: closes the connection if the request then arriving came a whole timeout
    /// ago; otherwise waits for the deadline of the request arriving now, or stops if none is.
    private func arm(at deadline: NIODeadline, context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            guard let arrived = handler.headArrived else { return }
            let due = arrived + handler.timeout
            if due <= NIODeadline.now() {
                context.close(promise: nil)
            } else {
                handler.arm(at: due, context: context)
            }
        }
    }

    private func stop() {
        timer?.cancel()
        timer = nil
        headArrived = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }
}
