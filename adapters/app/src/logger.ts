// The service's logger: pino, one JSON object per line ({level, time, message, ...fields}), the level
// from config, warn and error on stderr and the rest on stdout. A line written while a request is
// handled names its request id (request_id), as the ledger records of that request do, and with
// traces on its trace_id and span_id.
import { pino, type DestinationStream } from 'pino';
import { currentRequestId, type HttpLogger } from '@switchyard/http-kit';
import { activeTraceIds } from '@switchyard/telemetry';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger extends HttpLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Where lines go; by default warn and error to stderr, the rest to stdout. */
  destination?: DestinationStream;
}

const standardStreams = (): DestinationStream =>
  pino.multistream(
    [
      { level: 'debug', stream: process.stdout },
      { level: 'warn', stream: process.stderr },
    ],
    { dedupe: true },
  );

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const base = pino(
    {
      level,
      base: null,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const id = currentRequestId();
        // With traces on, a line written inside a span names its trace (and span) too.
        const ids = activeTraceIds();
        if (ids) return id === null ? ids : { request_id: id, ...ids };
        return id === null ? {} : { request_id: id };
      },
    },
    options.destination ?? (level === 'silent' ? undefined : standardStreams()),
  );
  const at =
    (lvl: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (fields) base[lvl](fields, message);
      else base[lvl](message);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), debugEnabled: () => base.isLevelEnabled('debug') };
}
