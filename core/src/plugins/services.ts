// The refs of the core's services and ports: what a package names as a dependency, typed by the ref.
// A port's ref uses the port's own token, so a binding made either way is the same binding.
import { type ApprovalService, type DispatchService, type InterruptedRuns, type PendingOutcomes, type IdempotentRuns, ApprovalStore, InvocationStore, RunReservations, IdempotencyKeyStore } from '../runs/index.js';
import { type CapabilityRegistry, type RunnerDirectory, BlobStore } from '../capabilities/index.js';
import type { DestinationAdmin, ForwardAllowlist, ForwardingService } from '../forwarding/index.js';
import { type OAuthAuthorizationServer, OAuthClientStore, OAuthCodeStore, OAuthGrantStore, OAuthRefreshTokenStore } from '../oauth/index.js';
import { type TokenIssuer, ApiKeyStore, ClientRateWindows, TokenUseStore } from '../access/index.js';
import { type WebhookIntake, DeliveryStore, WebhookStore } from '../webhooks/index.js';
import { ArticleStore } from '../content/index.js';
import { Clock } from '../clock.js';
import { RequestScope } from '../request-scope.js';
import { SharedSettings } from '../settings.js';
import { ToolPinStore, UpstreamImports, UpstreamOAuth, UpstreamToolClient } from '../imports/index.js';
import { VerifiableLedger } from '../ledger/index.js';
import { createServiceRef } from '../service-ref.js';

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
