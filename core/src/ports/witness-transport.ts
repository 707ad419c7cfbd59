// How the log reaches a witness: one HTTP POST of a text body, answered or failed within a time.
export interface WitnessAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface WitnessTransport {
  /** POSTs `body` to `url`; rejects when the witness cannot be reached or does not answer in `timeoutMs`. */
  post(url: string, body: string, timeoutMs: number): Promise<WitnessAnswer>;
}
export const WitnessTransport = Symbol.for('switchyard.WitnessTransport');
