// The upstream client, timed: each MCP tool call's latency goes to the service's metrics by tool
// and outcome. Everything else passes through unchanged.
import type { ToolCallOptions, ToolCallResult, UpstreamAddress, UpstreamToolClient } from '@switchyard/core';
import type { ServiceMetrics } from '@switchyard/telemetry';
import { DelegatingUpstreamClient } from './delegating-upstream-client.js';

export class MeteredUpstreamClient extends DelegatingUpstreamClient {
  constructor(
    inner: UpstreamToolClient,
    private readonly metrics: ServiceMetrics,
  ) {
    super(inner);
  }

  override async callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const result = await this.inner.callTool(upstream, tool, args, options);
      this.metrics.upstreamCall(tool, result.isError ? 'tool_error' : 'ok', seconds());
      return result;
    } catch (err) {
      this.metrics.upstreamCall(tool, 'failed', seconds());
      throw err;
    }
  }
}
