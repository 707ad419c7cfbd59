// `switchyard tool …`: imported tools held for the owner's review (a definition changed upstream, a
// new tool on a known server, a tool gone): list them, read what changed, approve a new definition.
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
import { table } from '../table.js';
import type { Output } from './hook.js';

interface HoldView {
  key: string;
  server: string;
  reason: string;
  pinned_hash: string | null;
  listed_hash: string | null;
  held_since: string;
}

interface ChangesView extends HoldView {
  flapping: boolean;
  diff: Array<{ path: string; change: 'added' | 'removed' | 'changed'; before?: unknown; after?: unknown }>;
}

const short = (hash: string | null) => (hash ? hash.slice(0, 'sha256:'.length + 12) : '-');
const shown = (v: unknown) => JSON.stringify(v);

export async function toolCommand(client: SwitchyardClient, args: string[], options: { json: boolean }, io: Output): Promise<void> {
  const [sub, key, hash] = args;
  const print = (value: unknown, text: () => string) => io.out(options.json ? JSON.stringify(value, null, 2) : text());
  switch (sub) {
    case 'held': {
      const { items, omitted } = await client.request<{ items: HoldView[]; omitted: number }>('GET', '/api/tools/held');
      return print({ items, omitted }, () =>
        items.length
          ? table(['KEY', 'SERVER', 'REASON', 'PINNED', 'LISTED', 'HELD SINCE'], items.map((h) => [h.key, h.server, h.reason, short(h.pinned_hash), short(h.listed_hash), h.held_since])) +
            (omitted ? `\n(${omitted} more held, past the bound)` : '')
          : 'no tools held for review',
      );
    }
    case 'changes': {
      if (!key) throw new CliError('invalid_request', 'usage: switchyard tool changes <KEY>', 2);
      const c = await client.request<ChangesView>('GET', `/api/tools/${encodeURIComponent(key)}/changes`);
      return print(c, () =>
        [
          `${c.key} (${c.server}): ${c.reason}, held since ${c.held_since}${c.flapping ? ' (flapping: it changes on every refresh)' : ''}`,
          `pinned: ${c.pinned_hash ?? '-'}`,
          `listed: ${c.listed_hash ?? '-'}`,
          '',
          ...c.diff.map((d) => (d.change === 'added' ? `+ ${d.path}: ${shown(d.after)}` : d.change === 'removed' ? `- ${d.path}: ${shown(d.before)}` : `~ ${d.path}: ${shown(d.before)} -> ${shown(d.after)}`)),
          ...(c.listed_hash ? ['', `approve with: switchyard tool approve ${c.key} ${c.listed_hash}`] : []),
        ].join('\n'),
      );
    }
    case 'approve': {
      if (!key || !hash) throw new CliError('invalid_request', 'usage: switchyard tool approve <KEY> <sha256:…> (the listed hash of `tool changes`)', 2);
      const answer = await client.request<{ pin: { id: string; key: string; definition_hash: string }; confirm: string }>('POST', `/api/tools/${encodeURIComponent(key)}/approve`, { hash });
      return print(answer, () => `${answer.pin.key}: pinned ${answer.pin.definition_hash} (${answer.pin.id}); confirm: ${answer.confirm}`);
    }
    default:
      throw new CliError('invalid_request', `unknown tool command ${sub ?? ''}; try: held, changes <KEY>, approve <KEY> <hash>`, 2);
  }
}
