// An upstream client that hands every call to another: the base of the decorators (metered,
// traced), which override only what they add to and pass the rest through unchanged.
import type { ForwardedRequestOptions, McpToolDescription, ToolCallOptions, ToolCallResult, UpstreamAddress, UpstreamToolClient } from '@switchyard/core';

export class DelegatingUpstreamClient implements UpstreamToolClient {
  constructor(protected readonly inner: UpstreamToolClient) {}

  callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
    return this.inner.callTool(upstream, tool, args, options);
  }

  listTools(upstream: UpstreamAddress, options: { timeoutMs: number }): Promise<McpToolDescription[]> {
    return this.inner.listTools(upstream, options);
  }

  request(upstream: UpstreamAddress, method: string, params: Record<string, unknown> | undefined, options: ForwardedRequestOptions): Promise<Record<string, unknown>> {
    if (!this.inner.request) return Promise.reject(new Error(`the upstream client cannot forward ${method}`));
    return this.inner.request(upstream, method, params, options);
  }

  onToolListChanged(listener: (upstream: UpstreamAddress) => void): () => void {
    return this.inner.onToolListChanged(listener);
  }

  onResourceUpdated(listener: (upstream: UpstreamAddress, params: { uri: string } & Record<string, unknown>) => void): () => void {
    return this.inner.onResourceUpdated ? this.inner.onResourceUpdated(listener) : () => {};
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
