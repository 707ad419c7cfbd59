// plugins.messaging in config: the upstream, the upstream account's plan, and the simulator's settings.
import { upstreamOptionsSchema, type JsonSchema, type UpstreamSetting } from '@switchyard/plugin-kit';

export type Plan = 'free' | 'pro' | 'enterprise';

export interface MessagingOptions {
  upstream: UpstreamSetting;
  /** The plan of the upstream account; phone lookups need enterprise (refused plan_required otherwise). */
  plan?: Plan;
  /** The simulator's own account plan, when it should differ from `plan` (it follows `plan` otherwise). */
  simulator?: { plan?: Plan };
}

export const optionsSchema: JsonSchema = {
  type: 'object',
  properties: {
    upstream: upstreamOptionsSchema('streamable-http', '"simulator" or the streamable HTTP URL of a real server (it carries /v4/)'),
    plan: { enum: ['free', 'pro', 'enterprise'], default: 'enterprise', description: "The upstream account's plan" },
    simulator: {
      type: 'object',
      properties: { plan: { enum: ['free', 'pro', 'enterprise'] } },
      additionalProperties: false,
    },
  },
  required: ['upstream'],
  additionalProperties: false,
};
