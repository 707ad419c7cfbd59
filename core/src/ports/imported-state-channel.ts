// What a refresh of an imported MCP server found, shared by every process on one database: the
// process that refreshed stores it and tells the others, which serve the same tools and holds
// from it at once, without listing the server themselves.
import type { McpToolDescription } from '../imported-tool.js';
import type { HeldTool } from '../tool-review.js';

/** One imported server as a refresh left it: its listing, the keys served and the tools held. */
export interface ImportedServerState {
  server: string;
  /** The upstream's address: a process that configures another address under this name keeps its own. */
  address: string;
  listing: McpToolDescription[];
  served: string[];
  held: HeldTool[];
  omitted: number;
  refreshed_at: string;
}

/** A stored state with its version (higher is newer, per server). */
export interface VersionedServerState extends ImportedServerState {
  version: number;
}

export interface ImportedStateChannel {
  /** Stores what this process's refresh found and tells every process (itself included); resolves with its version. */
  publish(state: ImportedServerState): Promise<number>;
  /** The state last published for `server`, or null when none was. */
  latest(server: string): Promise<VersionedServerState | null>;
  /**
   * Calls `heard` with a server's name each time a state of it is published, and with null when
   * publications may have been missed (the connection to the database came back): every server may
   * have changed. Resolves once listening.
   */
  listen(heard: (server: string | null) => void): Promise<{ close(): Promise<void> }>;
}
export const ImportedStateChannel = Symbol.for('switchyard.ImportedStateChannel');

/** One process (SQLite): nobody else to tell, nothing to hear; versions count this process's refreshes. */
export class LocalImportedStateChannel implements ImportedStateChannel {
  private version = 0;

  async publish(): Promise<number> {
    return ++this.version;
  }

  async latest(): Promise<null> {
    return null;
  }

  async listen(): Promise<{ close(): Promise<void> }> {
    return { close: async () => {} };
  }
}
