// The edge simulator's state: which worker is active on each account, shared by all MCP sessions.
export interface ActivationResult {
  account_id: string;
  active_worker_id: string;
  previous_worker_id: string | null;
  activated_at: string;
}

export class ActiveWorkers {
  private readonly active = new Map<string, { workerId: string; at: string }>();

  constructor(readonly defaultAccount: string) {}

  activate(workerId: string, accountId: string = this.defaultAccount, now: Date = new Date()): ActivationResult {
    const previous = this.active.get(accountId)?.workerId ?? null;
    const at = now.toISOString();
    this.active.set(accountId, { workerId, at });
    return { account_id: accountId, active_worker_id: workerId, previous_worker_id: previous, activated_at: at };
  }

  current(accountId: string = this.defaultAccount): { account_id: string; active_worker_id: string | null; activated_at: string | null } {
    const entry = this.active.get(accountId);
    return { account_id: accountId, active_worker_id: entry?.workerId ?? null, activated_at: entry?.at ?? null };
  }
}
