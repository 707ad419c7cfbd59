// The dashboard during a storage outage: a browser (it asks for HTML first) gets a small page that
// says the database did not serve the request and when to try again, with the same 503
// storage_unavailable and Retry-After the API answers; any other client gets the API's JSON (the
// service's error middleware). Counted once either way, as every face counts storage failures.
import type { ErrorRequestHandler, Request } from 'express';
import { SwitchyardError } from '@switchyard/core';
import { STORAGE_RETRY_AFTER_SECONDS, html, page, statusFor, storageFailure, type DashboardSessions, type PageOptions, type StorageFailures } from '@switchyard/http-kit';

const SECTIONS: Array<PageOptions['section']> = ['webhooks', 'approvals', 'ledger', 'upstreams', 'oauth'];

/** The navigation section of the page that was asked for. */
function sectionOf(req: Request): PageOptions['section'] {
  const first = req.originalUrl.split(/[/?#]/)[2] ?? '';
  return SECTIONS.find((s) => s === first) ?? 'capabilities';
}

export function storageOutagePage(failures: StorageFailures, sessions: DashboardSessions): ErrorRequestHandler {
  return (err, req, res, next) => {
    const storageError = SwitchyardError.is(err, 'storage_unavailable') || (!SwitchyardError.is(err) && failures.kindOf(err) !== null);
    if (!storageError || req.accepts(['json', 'html']) !== 'html' || res.headersSent) return next(err);
    const coded = storageFailure(err, failures)!;
    const session = sessions.of(req);
    res.locals['errorCode'] = coded.code; // for the metrics' refusals by reason
    res
      .status(statusFor(coded.code))
      .set('Retry-After', String(STORAGE_RETRY_AFTER_SECONDS))
      .type('html')
      .send(
        page(
          { title: 'Storage unavailable', section: sectionOf(req), signedIn: session !== null, ...(session ? { csrf: sessions.csrfToken(session) } : {}) },
          html`<h1>${coded.code}</h1><p class="message">${coded.message}</p><p>Try again in ${STORAGE_RETRY_AFTER_SECONDS} seconds${req.method === 'GET' ? '' : ' (the form can be sent again as it is)'}.</p><p><a href="${req.method === 'GET' ? req.originalUrl : '/dashboard'}">${req.method === 'GET' ? 'Reload the page' : 'Back to the dashboard'}</a></p>`,
        ),
      );
  };
}
