// The title one of our own capabilities shows as an MCP tool: words a person reads (the system,
// then what the key says after it), never its place in the tree (`OIP > EDGE > EDGE_…`), which
// clients showed as a name. An imported tool keeps the title its upstream gave, or none.
import type { Capability } from '../capabilities/index.js';

const words = (text: string): string => text.toLowerCase().replace(/_+/g, ' ').trim();
const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

export function readableTitleOf(c: Pick<Capability, 'key' | 'system'>): string {
  const system = capitalized(words(c.system));
  const rest = c.key === c.system ? '' : c.key.startsWith(`${c.system}_`) ? words(c.key.slice(c.system.length + 1)) : words(c.key);
  return rest ? `${system}: ${rest}` : system;
}
