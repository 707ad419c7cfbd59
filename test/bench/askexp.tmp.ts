import MiniSearch from 'minisearch';
import { performance } from 'node:perf_hooks';
import { tokenize, stem } from '@switchyard/core';
const VERBS = ['create', 'update', 'delete', 'list', 'get', 'search', 'rename', 'archive', 'send', 'sync', 'export', 'import', 'approve', 'refund', 'cancel', 'schedule', 'assign', 'close', 'merge', 'tag'];
const NOUNS = ['invoice', 'customer', 'group', 'worker', 'message', 'order', 'shipment', 'ticket', 'project', 'payment', 'subscription', 'document', 'contact', 'deployment', 'alert', 'report', 'calendar', 'file', 'repository', 'user'];
const SYSTEMS = ['CRM', 'BILLING', 'HELPDESK', 'STORAGE', 'DEPLOY', 'CHAT', 'MAIL', 'SHOP', 'HR', 'ANALYTICS'];
const docs = Array.from({ length: 10000 }, (_, i) => {
  const verb = VERBS[i % VERBS.length]!; const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!; const system = `${SYSTEMS[i % SYSTEMS.length]}${Math.floor(i / 400)}`;
  const key = `${system}_${verb.toUpperCase()}_${noun.toUpperCase()}_${i}`;
  return { id: key, key, description: `${verb}s a ${noun} in ${system.toLowerCase()} (operation ${i}); returns the ${noun} record`, path: `OIP > ${system} > ${key}`, inputs: `${noun}Id id of the ${noun} note` };
});
const STOP = new Set('a an and are as at be by can could do does for from get give how i in is it its me my of on or please some that the this to use want we what which with would you your'.split(' '));
const processTerm = (t: string) => { const l = t.toLowerCase(); return STOP.has(l) ? null : stem(l); };
const Q = ['rename a chat group','make another worker the active one','which payment API operation lists refunds','create an invoice for a customer','archive old support tickets','MESSAGING_UPDATE_GROUP'];
function run(label: string, opts: any) {
  const ms = new MiniSearch({ fields: ['key', 'description', 'path', 'inputs'], tokenize, processTerm, searchOptions: opts });
  ms.addAll(docs);
  const out: string[] = [];
  for (const q of Q) { const ts: number[] = []; for (let i = 0; i < 30; i++) { const t = performance.now(); ms.search(q); ts.push(performance.now() - t); } ts.sort((a, b) => a - b); out.push(ts[15]!.toFixed(1)); }
  console.log(label.padEnd(30), out.join(' '));
}
const base = { boost: { key: 3, description: 2, inputs: 1, path: 1 }, combineWith: 'OR' };
run('plain', base);
run('prefix', { ...base, prefix: (t: string) => t.length >= 3 });
run('fuzzy', { ...base, fuzzy: (t: string) => (t.length >= 5 ? 0.2 : false), maxFuzzy: 2 });
run('both', { ...base, prefix: (t: string) => t.length >= 3, fuzzy: (t: string) => (t.length >= 5 ? 0.2 : false), maxFuzzy: 2 });
run('fields key+desc', { ...base, fields: ['key', 'description'] });
run('weights off', { ...base, weights: { fuzzy: 0.45, prefix: 0.375 } , prefix: (t: string) => t.length >= 3, fuzzy: (t: string) => (t.length >= 5 ? 0.2 : false), maxFuzzy: 2});
