// The upstream client with traces on: each tool call is a client span, so the run's trace shows
// the upstream's part; the call itself carries the span's traceparent (upstream-client.ts puts it
// in the request's _meta, and the HTTP transports in their headers).
import type { ToolCallOptions, ToolCallResult, UpstreamAddress } from '@switchyard/core';
import { inSpan, spanFailed } from '@switchyard/telemetry';
import { DelegatingUpstreamClient } from './delegating-upstream-client.js';

export class TracedUpstreamClient extends DelegatingUpstreamClient {
  override callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
    return inSpan(`mcp tools/call ${tool}`, 'client', { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': tool, 'server.address': upstream.url }, async (span) => {
      const result = await this.inner.callTool(upstream, tool, args, options);
      if (result.isError) spanFailed(span, 'the tool answered isError');
      return result;
    });
  }
}
