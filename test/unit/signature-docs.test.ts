// docs/webhooks.md keeps up with the scheme table: its signature table names every scheme with its
// sender's window, and its event-type table every scheme, in the table's order.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '@switchyard/app';
import { SCHEMES, SIGNATURE_SCHEMES } from '@switchyard/core';

const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'webhooks.md'), 'utf8');

/** The rows of the markdown table whose header row starts with `header`: their cells. */
function tableRows(header: string): string[][] {
  const start = doc.indexOf(header);
  expect(start, header).to.be.greaterThan(-1);
  const rows: string[][] = [];
  for (const line of doc.slice(start).split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split(' | ').map((c) => c.trim()));
  }
  return rows;
}

describe('docs: the signature schemes of docs/webhooks.md', () => {
  it('lists every scheme once, in the table’s order, with its sender’s window', () => {
    const rows = tableRows('| scheme | sender | checks | window | secret |');
    expect(rows.map((r) => r[0])).to.deep.equal(SIGNATURE_SCHEMES.map((s) => `\`${s}\``));
    for (const [name, , , window] of rows) {
      const scheme = SCHEMES[name!.slice(1, -1) as keyof typeof SCHEMES];
      expect(window, name).to.equal(scheme.window === null ? '—' : `${scheme.window} s`);
    }
  });

  it('says for every scheme where its sender names event types', () => {
    const rows = tableRows('| scheme | known without a scheme by | event type from |');
    expect(rows.map((r) => r[0])).to.deep.equal(SIGNATURE_SCHEMES.map((s) => `\`${s}\``));
    for (const [name, , from] of rows) {
      const rule = SCHEMES[name!.slice(1, -1) as keyof typeof SCHEMES].eventType;
      for (const header of rule?.headers ?? []) expect(from, name).to.contain(`header \`${header}\``);
      for (const path of rule?.paths ?? []) expect(from, name).to.contain(`\`${path}\``);
    }
  });
});
