// `switchyard upstream …`: the imported MCP servers (list) and importing one's tools again (refresh).
import { counted } from '@switchyard/core';
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
import { table } from '../table.js';
import type { Output } from './hook.js';

interface UpstreamView {
  name: string;
  system: string;
  transport: string;
  address: string;
  status: string;
  tools: number;
  last_refresh: string | null;
  last_error: { code: string; message: string } | null;
}

interface RefreshView {
  server: string;
  system: string;
  added: string[];
  removed: string[];
  count: number;
  held?: string[];
}

export async function upstreamCommand(client: SwitchyardClient, args: string[], options: { json: boolean }, io: Output): Promise<void> {
  const [sub, name] = args;
  const print = (value: unknown, text: () => string) => io.out(options.json ? JSON.stringify(value, null, 2) : text());
  switch (sub) {
    case 'list': {
      const { items } = await client.request<{ items: UpstreamView[] }>('GET', '/api/upstreams');
      return print(items, () =>
        items.length
          ? table(
              ['NAME', 'SYSTEM', 'TRANSPORT', 'STATUS', 'TOOLS', 'LAST REFRESH', 'LAST ERROR'],
              items.map((u) => [u.name, u.system, u.transport, u.status, u.tools, u.last_refresh, u.last_error ? `${u.last_error.code}: ${u.last_error.message}` : null]),
            )
          : 'no upstream servers configured (config upstreams.servers)',
      );
    }
    case 'refresh': {
      if (!name) throw new CliError('invalid_request', 'usage: switchyard upstream refresh <name>', 2);
      const change = await client.request<RefreshView>('POST', `/api/upstreams/${encodeURIComponent(name)}/refresh`);
      return print(change, () =>
        [
          `${change.server}: ${counted(change.count, 'tool')} under ${change.system}`,
          `added:   ${change.added.length ? change.added.join(', ') : '-'}`,
          `removed: ${change.removed.length ? change.removed.join(', ') : '-'}`,
          ...(change.held?.length ? [`held:    ${change.held.join(', ')} (review: switchyard tool changes <KEY>)`] : []),
        ].join('\n'),
      );
    }
    default:
      throw new CliError('invalid_request', `unknown upstream command ${sub ?? ''}; try: list, refresh <name>`, 2);
  }
}
