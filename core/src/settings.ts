// The settings port: values made once and shared by every process.

/** Settings the service makes once and every process shares (keys generated at first start). */
export interface SharedSettings {
  /** The stored value, or `make()`'s, written by whichever process came first. */
  once(name: string, make: () => string): Promise<string>;
}
export const SharedSettings = Symbol.for('switchyard.SharedSettings');
