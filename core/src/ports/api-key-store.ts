// The API keys' port: keys stored hashed.

export interface ApiKeyStore {
  /** Stores a hash of the key; storing the same key twice is a no-op. */
  add(key: string, label: string): Promise<void>;
  verify(key: string): Promise<boolean>;
  count(): Promise<number>;
}
export const ApiKeyStore = Symbol.for('switchyard.ApiKeyStore');
