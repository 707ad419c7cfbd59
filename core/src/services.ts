// The refs of the core's services and ports: what a package names as a dependency, typed by the ref.
// A port's ref uses the port's own token, so a binding made either way is the same binding.
import type { ApprovalService } from './approvals.js';
import type { CapabilityRegistry } from './registry.js';
import type { DispatchService } from './dispatch.js';
import type { InterruptedRuns } from './interrupted-runs.js';
import type { PendingOutcomes } from './pending-outcomes.js';
import type { IdempotentRuns } from './idempotency.js';
import type { DestinationAdmin, ForwardAllowlist, ForwardingService } from './forwarding/index.js';
import type { OAuthAuthorizationServer } from './oauth/index.js';
import type { RunnerDirectory } from './runner-directory.js';
import type { TokenIssuer } from './token-issuer.js';
import type { WebhookIntake } from './webhook-intake.js';
import {
  ApiKeyStore,
  ApprovalStore,
  ArticleStore,
  BlobStore,
  ClientRateWindows,
  Clock,
  DeliveryStore,
  InvocationStore,
  OAuthClientStore,
  OAuthCodeStore,
  OAuthGrantStore,
  OAuthRefreshTokenStore,
  RequestScope,
  SharedSettings,
  TokenUseStore,
  ToolPinStore,
  UpstreamImports,
  UpstreamOAuth,
  UpstreamToolClient,
  VerifiableLedger,
  RunReservations,
  IdempotencyKeyStore,
  WebhookStore,
} from './ports.js';
import { createServiceRef } from './service-ref.js';

const port = <T>(id: string, token: symbol) => createServiceRef<T>({ id, token });

export const coreServices = {
  registry: createServiceRef<CapabilityRegistry>({ id: 'CapabilityRegistry' }),
  runners: createServiceRef<RunnerDirectory>({ id: 'RunnerDirectory' }),
  dispatch: createServiceRef<DispatchService>({ id: 'DispatchService' }),
  approvals: createServiceRef<ApprovalService>({ id: 'ApprovalService' }),
  tokens: createServiceRef<TokenIssuer>({ id: 'TokenIssuer' }),
  oauth: createServiceRef<OAuthAuthorizationServer>({ id: 'OAuthAuthorizationServer' }),
  forwarding: createServiceRef<ForwardingService>({ id: 'ForwardingService' }),
  destinations: createServiceRef<DestinationAdmin>({ id: 'DestinationAdmin' }),
  forwardAllowlist: createServiceRef<ForwardAllowlist>({ id: 'ForwardAllowlist' }),
  intake: createServiceRef<WebhookIntake>({ id: 'WebhookIntake' }),
  interruptedRuns: createServiceRef<InterruptedRuns>({ id: 'InterruptedRuns' }),
  pendingOutcomes: createServiceRef<PendingOutcomes>({ id: 'PendingOutcomes' }),
  idempotentRuns: createServiceRef<IdempotentRuns>({ id: 'IdempotentRuns' }),
  clock: port<Clock>('Clock', Clock),
  requestScope: port<RequestScope>('RequestScope', RequestScope),
  invocations: port<InvocationStore>('InvocationStore', InvocationStore),
  reservations: port<RunReservations>('RunReservations', RunReservations),
  idempotencyKeys: port<IdempotencyKeyStore>('IdempotencyKeyStore', IdempotencyKeyStore),
  blobs: port<BlobStore>('BlobStore', BlobStore),
  apiKeys: port<ApiKeyStore>('ApiKeyStore', ApiKeyStore),
  webhooks: port<WebhookStore>('WebhookStore', WebhookStore),
  deliveries: port<DeliveryStore>('DeliveryStore', DeliveryStore),
  settings: port<SharedSettings>('SharedSettings', SharedSettings),
  approvalStore: port<ApprovalStore>('ApprovalStore', ApprovalStore),
  toolPins: port<ToolPinStore>('ToolPinStore', ToolPinStore),
  tokenUses: port<TokenUseStore>('TokenUseStore', TokenUseStore),
  oauthClients: port<OAuthClientStore>('OAuthClientStore', OAuthClientStore),
  oauthGrants: port<OAuthGrantStore>('OAuthGrantStore', OAuthGrantStore),
  oauthCodes: port<OAuthCodeStore>('OAuthCodeStore', OAuthCodeStore),
  oauthRefreshTokens: port<OAuthRefreshTokenStore>('OAuthRefreshTokenStore', OAuthRefreshTokenStore),
  articles: port<ArticleStore>('ArticleStore', ArticleStore),
  ledger: port<VerifiableLedger>('VerifiableLedger', VerifiableLedger),
  upstreams: port<UpstreamImports>('UpstreamImports', UpstreamImports),
  upstreamOAuth: port<UpstreamOAuth>('UpstreamOAuth', UpstreamOAuth),
  upstreamTools: port<UpstreamToolClient>('UpstreamToolClient', UpstreamToolClient),
  rateWindows: port<ClientRateWindows>('ClientRateWindows', ClientRateWindows),
} as const;
