// The rounds of a run that waited for its caller's input: each question an upstream asked through
// the caller's channel (elicitation or sampling, in either protocol era), when it was asked and when
// the caller answered. Only the times and the kind are kept: an answer (or a question) may hold
// what the caller would not have written to a ledger, so neither is recorded.
import type { CallerChannel } from '../capabilities/index.js';
import type { Clock } from '../clock.js';

export interface InputRound {
  kind: 'elicitation' | 'sampling' | 'roots';
  asked_at: string;
  /** Null when the caller never answered (it withdrew the call, or the run ended first). */
  answered_at: string | null;
}

/** A record of a run never grows without end, however often its upstream asks. */
export const MAX_ROUNDS = 100;

/** The channel with every question it passes on noted in `rounds`; the channel itself when it cannot be asked. */
export function recordingRounds(channel: CallerChannel | undefined, rounds: InputRound[], clock: Clock): CallerChannel | undefined {
  if (!channel || (!channel.elicit && !channel.sample && !channel.listRoots)) return channel;
  const noted = (kind: InputRound['kind'], ask: (params: Record<string, unknown>, key?: string) => Promise<Record<string, unknown>>) => async (params: Record<string, unknown>, key?: string) => {
    const round: InputRound = { kind, asked_at: clock.now().toISOString(), answered_at: null };
    if (rounds.length < MAX_ROUNDS) rounds.push(round);
    const answer = await ask(params, key);
    round.answered_at = clock.now().toISOString();
    return answer;
  };
  return {
    ...channel,
    ...(channel.elicit ? { elicit: noted('elicitation', channel.elicit.bind(channel)) } : {}),
    ...(channel.sample ? { sample: noted('sampling', channel.sample.bind(channel)) } : {}),
    ...(channel.listRoots ? { listRoots: noted('roots', channel.listRoots.bind(channel)) } : {}),
  };
}
