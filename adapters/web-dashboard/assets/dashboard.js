// Dashboard behaviour: the try-it form on capability pages and live deliveries on webhook pages.
// Everything shown is set with textContent: nothing from the server is parsed as HTML.
'use strict';

function tryIt(form) {
  const status = document.getElementById('try-status');
  const result = document.getElementById('try-result');
  const invocation = document.getElementById('try-invocation');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const credential = form.elements.credential.value.trim();
    // A share token goes as Bearer; an API key (sy_…) in its own header.
    const auth = credential.startsWith('sy1.') ? { authorization: `Bearer ${credential}` } : { 'x-sheets-key': credential };
    status.textContent = 'Running…';
    status.className = '';
    try {
      const res = await fetch('/api/dispatch', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: JSON.stringify({ key: form.dataset.key, body: form.elements.body.value }),
      });
      const answer = await res.json();
      const ok = answer.ok === true;
      status.textContent = `${res.status} ${ok ? 'ok' : (answer.invocation?.error?.code ?? answer.error?.code ?? 'failed')}`;
      status.className = ok ? 'ok' : 'bad';
      result.hidden = false;
      result.textContent = JSON.stringify(ok ? answer.result : (answer.invocation?.error ?? answer.error), null, 2);
      invocation.hidden = !answer.invocation;
      invocation.textContent = '';
      if (answer.invocation) {
        invocation.append('Invocation ');
        const link = document.createElement('a');
        link.href = `/dashboard/invocations/${encodeURIComponent(answer.invocation.id)}`;
        link.textContent = answer.invocation.id;
        link.id = 'try-invocation-link';
        invocation.append(link, ` (${answer.invocation.status})`);
      }
    } catch (err) {
      status.textContent = `Request failed: ${err.message}`;
      status.className = 'bad';
    }
  });
}

function liveDeliveries(tbody) {
  const status = document.getElementById('live-status');
  const source = new EventSource(tbody.dataset.live);
  source.addEventListener('open', () => { status.textContent = 'Live: new deliveries appear as they arrive.'; });
  source.addEventListener('error', () => { status.textContent = 'Live view reconnecting…'; });
  source.addEventListener('delivery', (event) => {
    const d = JSON.parse(event.data);
    const row = document.createElement('tr');
    row.dataset.entry = d.id;
    row.className = 'fresh';
    const cell = (label, text) => { const td = document.createElement('td'); td.dataset.label = label; td.textContent = text; row.append(td); return td; };
    const first = cell('Entry', '');
    first.className = 'token';
    const link = document.createElement('a');
    link.href = `/dashboard/deliveries/${encodeURIComponent(d.id)}`;
    link.textContent = d.id;
    first.append(link);
    cell('Received', d.received_at).className = 'token';
    cell('Method', d.method);
    cell('Event type', d.event_type ?? '—');
    cell('Delivery id', d.delivery_id ?? '—');
    cell('Outcome', d.outcome).className = 'words';
    cell('Bytes', String(d.body_size));
    // Only a webhook with destinations shows where each delivery went on to.
    if (tbody.dataset.forwarding === 'shown') cell('Forwarding', d.forwarding ?? '—').className = 'words';
    tbody.prepend(row);
  });
}

document.addEventListener('DOMContentLoaded', () => {
  const form = document.getElementById('try-it');
  if (form) tryIt(form);
  const live = document.querySelector('[data-live]');
  if (live && 'EventSource' in window) liveDeliveries(live);
});
