// The upstream client with traces on: each tool call is a client span, so the run's trace shows
// the upstream's part; the call itself carries the span's traceparent (upstream-client.ts puts it
// in the request's _meta, and the HTTP transports in their headers).
import type { McpToolDescription, ToolCallOptions, ToolCallResult, UpstreamAddress, UpstreamToolClient } from '@switchyard/core';
import { inSpan, spanFailed } from '@switchyard/telemetry';

export class TracedUpstreamClient implements UpstreamToolClient {
  constructor(private readonly inner: UpstreamToolClient) {}

  callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
    return inSpan(`mcp tools/call ${tool}`, 'client', { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'server.address': upstream.url }, async (span) => {
      const result = await this.inner.callTool(upstream, tool, args, options);
      if (result.isError) spanFailed(span, 'the tool answered isError');
      return result;
    });
  }

  listTools(upstream: UpstreamAddress, options: { timeoutMs: number }): Promise<McpToolDescription[]> {
    return this.inner.listTools(upstream, options);
  }

  request(upstream: UpstreamAddress, method: string, params: Record<string, unknown> | undefined, options: { timeoutMs: number }): Promise<Record<string, unknown>> {
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
