// The transports of a 2025-era connection to an upstream, one per kind: stdio (a child process, its
// messages bounded, its stderr kept as a short tail for error messages), legacy SSE and streamable
// HTTP (over the client's lean fetch, with the configured headers, and OAuth sign-in when the
// upstream uses it). The 2026-07-28 era's transports are the v2 SDK's (modern-upstream.ts).
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SwitchyardError, type UpstreamAddress } from '@switchyard/core';
import { BoundedStdioTransport } from './bounded-stdio-transport.js';
import { announcingInitialize } from './era-probe.js';
import type { UpstreamOAuthClients } from './upstream-auth.js';

/** Enough of a stdio server's stderr to say why it would not start. */
const STDERR_TAIL = 2000;

export interface LegacyTransportOptions {
  /** The largest message read from the upstream. */
  maxMessageBytes: number;
  /** The fetch HTTP transports go through (the client's lean fetch). */
  fetch: typeof fetch;
  /** The OAuth sign-in of upstream `name`, over `inner`. */
  signIn(name: string, inner: typeof globalThis.fetch): ReturnType<UpstreamOAuthClients['transportAuth']>;
}

export async function legacyTransport(upstream: UpstreamAddress, options: LegacyTransportOptions): Promise<{ transport: Transport; stderr: () => string }> {
  if (upstream.transport === 'stdio') {
    if (!upstream.command) throw new SwitchyardError('upstream_unavailable', `${upstream.url} has no command to start`, { upstream: upstream.url });
    const transport = new BoundedStdioTransport({
      command: upstream.command,
      args: upstream.args ?? [],
      env: { ...getDefaultEnvironment(), ...upstream.env },
      cwd: upstream.cwd,
      // Piped and drained: kept as a short tail for error messages, never mixed into our own output.
      stderr: 'pipe',
      maxMessageBytes: options.maxMessageBytes,
      parse: deserializeMessage,
    });
    let tail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    return { transport, stderr: () => tail.trim() };
  }
  const url = new URL(upstream.url);
  // Configured headers (e.g. authorization) go on every request, the SSE stream included.
  const announcing = announcingInitialize(options.fetch);
  const sdkOptions = { fetch: announcing, ...(upstream.headers ? { requestInit: { headers: upstream.headers } } : {}) };
  if (upstream.oauth) {
    const { authProvider, fetch } = await options.signIn(upstream.oauth, announcing);
    return { transport: new StreamableHTTPClientTransport(url, { ...sdkOptions, authProvider, fetch }), stderr: () => '' };
  }
  return { transport: upstream.transport === 'sse' ? new SSEClientTransport(url, sdkOptions) : new StreamableHTTPClientTransport(url, sdkOptions), stderr: () => '' };
}
