// Where client ID metadata documents come from: an outbound GET under the service's address policy.
export interface ClientMetadataSource {
  /** The document at `url`, parsed as JSON; throws with a message saying why it could not be had. */
  fetch(url: string): Promise<unknown>;
}
export const ClientMetadataSource = Symbol.for('switchyard.ClientMetadataSource');
