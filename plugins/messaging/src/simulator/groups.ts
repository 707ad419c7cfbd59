// The messaging simulator's groups: seeded with believable ones, renamed in place.
export interface Group {
  id: string;
  name: string;
  members: number;
  created_at: string;
  updated_at: string;
}

export const SEED_GROUPS: ReadonlyArray<Pick<Group, 'id' | 'name' | 'members'>> = [
  { id: 'grp_4f7c2a9d1e', name: 'Support rota', members: 12 },
  { id: 'grp_8b3e6d0a52', name: 'Warehouse Leeds', members: 41 },
  { id: 'grp_1c9f4e7b3a', name: 'Delivery drivers', members: 87 },
  { id: 'grp_6a2d8c5f90', name: 'Board', members: 7 },
  { id: 'grp_e5b7a3c1d4', name: 'Beta testers', members: 230 },
];

export class UnknownGroupError extends Error {}

export class Groups {
  private readonly groups = new Map<string, Group>();

  constructor(seed = SEED_GROUPS, now: Date = new Date('2026-01-05T09:00:00.000Z')) {
    for (const g of seed) this.groups.set(g.id, { ...g, created_at: now.toISOString(), updated_at: now.toISOString() });
  }

  rename(id: string, name: string, now: Date = new Date()): { group: Group; previous_name: string } {
    const group = this.groups.get(id);
    if (!group) throw new UnknownGroupError(`group ${id} not found`);
    const previous_name = group.name;
    group.name = name;
    group.updated_at = now.toISOString();
    return { group: { ...group }, previous_name };
  }

  list(): Group[] {
    return [...this.groups.values()].map((g) => ({ ...g }));
  }
}
