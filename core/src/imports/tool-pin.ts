// Pinned tool definitions: the hash of each imported tool's definition that the owner (or the first
// import, trusting on first use) accepted. Every pin is a ledger entry (kind tool_definition), so
// which definition an agent was served can be proven from the public log.
import { randomId } from '../ids.js';

/** Why a pin was made: the first import of a server, the owner's approval, a server set to accept changes, or the owner's override changed in config. */
export type PinReason = 'first_use' | 'approved' | 'accepted' | 'override';

/** One pin, as stored (append-only; the newest pin of a key is the one in force). */
export interface ToolPin {
  id: string;
  /** The capability key the tool is imported under. */
  key: string;
  /** The configured server (upstreams.servers.<name>) and the tool's name there. */
  server: string;
  tool: string;
  /** "sha256:" hex of the definition's RFC 8785 canonical JSON. */
  definition_hash: string;
  /** The canonical JSON that was hashed, kept so a change can be shown as a diff. */
  definition: string;
  /** The hash of the owner's override of the tool (tool-override.ts), null when it has none. */
  override_hash: string | null;
  reason: PinReason;
  /** Who pinned it: "first_use", "onChange:accept" or the owner's actor name. */
  pinned_by: string;
  pinned_at: string;
}

export const newToolPinId = (): string => randomId('tdp_', 20);
export const TOOL_PIN_ID_PATTERN = /^tdp_[A-Za-z0-9]{8,40}$/;
