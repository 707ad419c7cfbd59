// plugins.edge in config: where the upstream is (a real server, or "simulator").
import { upstreamOptionsSchema, type JsonSchema, type UpstreamSetting } from '@switchyard/plugin-kit';

export interface EdgeOptions {
  upstream: UpstreamSetting;
  simulator?: { accountId?: string };
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    upstream: upstreamOptionsSchema('sse', '"simulator" or the SSE URL of a real server'),
    simulator: {
      type: 'object',
      properties: { accountId: { type: 'string', pattern: '^[0-9a-f]{32}$' } },
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
