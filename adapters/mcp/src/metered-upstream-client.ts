// The upstream client, timed: each MCP tool call's latency goes to the service's metrics by tool
// and outcome. Everything else passes through unchanged.
import type { McpToolDescription, ToolCallOptions, ToolCallResult, UpstreamAddress, UpstreamToolClient } from '@switchyard/core';
import type { ServiceMetrics } from '@switchyard/telemetry';

export class MeteredUpstreamClient implements UpstreamToolClient {
  constructor(
    private readonly inner: UpstreamToolClient,
    private readonly metrics: ServiceMetrics,
  ) {}

  async callTool(upstream: UpstreamAddress, tool: string, args: unknown, options: ToolCallOptions): Promise<ToolCallResult> {
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
