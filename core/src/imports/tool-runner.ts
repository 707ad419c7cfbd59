// The runner for capabilities of type tool: one call to the capability's upstream MCP tool.
import { type Capability, ToolOutput, type CapabilityRunner, type RunContext } from '../capabilities/index.js';
import { SwitchyardError } from '../errors.js';
import type { UpstreamAddress, UpstreamToolClient } from './ports.js';

/**
 * Tool errors come back as a result with isError; a tool may name a coded error by starting its
 * text with `code: message` (e.g. `plan_required: …`), which we keep; anything else is tool_error.
 */
const CODED_TOOL_ERRORS = new Set(['plan_required', 'invalid_arguments']);

export class ToolRunner implements CapabilityRunner {
  constructor(
    private readonly tools: UpstreamToolClient,
    private readonly upstream: UpstreamAddress,
  ) {}

  async run(capability: Capability, args: unknown, context: RunContext): Promise<unknown> {
    const tool = capability.tool ?? capability.key.toLowerCase();
    const result = await this.tools.callTool(this.upstream, tool, args, {
      timeoutMs: context.timeoutMs,
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.channel ? { channel: context.channel } : {}),
      ...(context.log ? { onLog: context.log } : {}),
      ...(context.callerProtocol ? { callerProtocol: context.callerProtocol } : {}),
    });
    if (!result.isError) return new ToolOutput(result.value, result.content, result.structuredContent);
    const match = /^([a-z_]+):\s*(.*)$/s.exec(result.text);
    const code = match && CODED_TOOL_ERRORS.has(match[1]!) ? (match[1] as 'plan_required' | 'invalid_arguments') : 'tool_error';
    throw new SwitchyardError(code, `${tool} answered an error: ${match && code !== 'tool_error' ? match[2] : result.text}`, { tool, upstream: this.upstream.url });
  }
}
