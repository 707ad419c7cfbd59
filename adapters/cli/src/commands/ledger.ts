// `switchyard ledger erase <inv_… | dlv_…> --reason TEXT`: erases an entry's private payload through
// POST /api/ledger/<id>/erase (the owner's key); the leaf and every proof stay valid (docs/proofs.md#erasure).
import type { SwitchyardClient } from '../client.js';
import { CliError } from '../client.js';
import type { Output } from './hook.js';

interface ErasureView {
  id: string;
  entry_kind: string;
  entry: string;
  fields: string[];
  reason_sha256: string;
  erased_at: string;
}

export async function ledgerCommand(client: SwitchyardClient, args: string[], options: { json: boolean; reason?: string }, io: Output): Promise<void> {
  const [sub, id, ...extra] = args;
  if (sub !== 'erase' || !id || extra.length > 0) throw new CliError('invalid_request', 'usage: switchyard ledger erase <inv_… | dlv_…> --reason TEXT', 2);
  // The server checks the reason too; asking for it here saves a round trip for the common slip.
  if (!options.reason) throw new CliError('invalid_request', '--reason is required: why the private fields are erased (kept by the owner; its SHA-256 is logged)', 2);
  const answer = await client.request<{ erasure: ErasureView; confirm: string }>('POST', `/api/ledger/${encodeURIComponent(id)}/erase`, { reason: options.reason });
  const e = answer.erasure;
  io.out(options.json ? JSON.stringify(answer, null, 2) : `erased ${e.entry_kind} ${e.entry} at ${e.erased_at}: ${e.fields.join(', ')}; the erasure is ${e.id} (confirm: ${answer.confirm})`);
}
