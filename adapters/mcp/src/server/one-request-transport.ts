// A transport for one JSON-RPC request answered with one JSON-RPC response: the stateless MCP faces'
// common case (a single request, answered as JSON). The SDK's web-standard transport does the same
// through a fetch Request, a Response and its body stream, and its close builds an error to reject
// requests that are never pending here; profiled, that was most of the SDK's share of a call.
// Whoever hosts it decides when a request may take this way (see the HTTP adapter's serveMcp).
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

export class OneRequestTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  private closed = false;
  private settle: (answer: JSONRPCMessage | undefined) => void = () => {};

  async start(): Promise<void> {}

  /**
   * Hands `request` to the connected server; resolves with its response, or undefined when the
   * transport closed first (the caller went away: the server's handler was told to stop).
   */
  answer(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage | undefined> {
    const answered = new Promise<JSONRPCMessage | undefined>((resolve) => {
      this.settle = resolve;
    });
    this.onmessage?.(request, extra);
    return answered;
  }

  /**
   * The response goes back; anything else the server sends meanwhile (progress, log messages) has
   * no stream to go on in a JSON answer, which the SDK's transport drops too. Requests to the
   * caller never come this way: a call that may ask the caller is answered as a stream.
   */
  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if ('result' in message || 'error' in message) this.settle(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.settle(undefined);
    this.onclose?.();
  }
}
