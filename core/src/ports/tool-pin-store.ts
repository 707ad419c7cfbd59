// Pinned tool definitions, append-only: each pin is also a leaf of the Merkle log (kind tool_definition).
import type { ToolPin } from '../tool-pin.js';

export interface ToolPinStore {
  /** Appends pins (one transaction). */
  pin(pins: ToolPin[]): Promise<void>;
  /** The pin in force of each tool of server `server` (by its upstream name): its newest. */
  current(server: string): Promise<ToolPin[]>;
  /** One pin by id. */
  get(id: string): Promise<ToolPin | undefined>;
}
export const ToolPinStore = Symbol.for('switchyard.ToolPinStore');
