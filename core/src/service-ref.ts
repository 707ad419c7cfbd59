// A typed reference to a service, after Backstage's createServiceRef: the value is the container's
// token, its type parameter the service's type, so whatever names a dependency by its ref gets it typed.
/** A service of type T; `multiple` when several packages each add one (the dependant gets them all). */
export interface ServiceRef<T, Multiple extends boolean = boolean> {
  readonly id: string;
  /** The container's token: Symbol.for(`switchyard.${id}`) unless given (a port's own token). */
  readonly token: symbol;
  readonly multiple: Multiple;
  /** The service's type, for the compiler only: there is no value here. */
  readonly T: T;
}

export function createServiceRef<T>(options: { id: string; token?: symbol }): ServiceRef<T, false>;
export function createServiceRef<T>(options: { id: string; multiple: true }): ServiceRef<T, true>;
export function createServiceRef<T>(options: { id: string; token?: symbol; multiple?: true }): ServiceRef<T, boolean> {
  return { id: options.id, token: options.token ?? Symbol.for(`switchyard.${options.id}`), multiple: options.multiple ?? false } as ServiceRef<T, boolean>;
}
