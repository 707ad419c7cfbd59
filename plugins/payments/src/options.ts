// plugins.payments in config: where the upstream is.
import { upstreamOptionsSchema, type JsonSchema, type UpstreamSetting } from '@switchyard/plugin-kit';

export interface PaymentsOptions {
  upstream: UpstreamSetting;
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    upstream: upstreamOptionsSchema('streamable-http', '"simulator" or the streamable HTTP URL of a real server'),
  },
  required: ['upstream'],
  additionalProperties: false,
};
