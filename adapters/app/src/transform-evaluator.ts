// The sandbox's evaluator: a child process that runs transforms one at a time (core's
// compileTransform) for transform-sandbox.ts over IPC. Whatever an expression does here, at worst
// this process dies or is killed; the service's goes on.
import { compileTransform, describeJsonataError, type DeliveryTransform, type TransformInput, type TransformResult } from '@switchyard/core';

interface Request {
  id: number;
  expression: string;
  input: TransformInput;
}

const compiled = new Map<string, DeliveryTransform>();

async function evaluate({ expression, input }: Request): Promise<TransformResult> {
  let transform = compiled.get(expression);
  if (!transform) {
    try {
      transform = compileTransform(expression);
    } catch (err) {
      // Stored before the rule it breaks: the attempt fails, with why.
      return { ok: false, message: (err as Error).message };
    }
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(expression, transform);
  }
  try {
    return await transform(input);
  } catch (err) {
    return { ok: false, message: describeJsonataError(err) };
  }
}

const send = (message: unknown): void => void process.send?.(message);

process.on('message', (request: Request) => {
  void evaluate(request).then((result) => send({ id: request.id, result }));
});
// The service went away (or closed the sandbox): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
send({ ready: true });
