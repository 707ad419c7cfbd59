// Transforms run in this process, on its event loop: JSONata's own guardrails and no more. For
// core's tests and tools; the service runs them in its sandbox (adapters/app transform-sandbox.ts).
import type { TransformSandbox } from './ports.js';
import { compileTransform, type DeliveryTransform } from './transform.js';

export function inProcessTransforms(): TransformSandbox {
  const compiled = new Map<string, DeliveryTransform>();
  return {
    evaluate: async (expression, input) => {
      let transform = compiled.get(expression);
      if (!transform) {
        transform = compileTransform(expression);
        if (compiled.size >= 1000) compiled.clear();
        compiled.set(expression, transform);
      }
      return transform(input);
    },
    close: async () => compiled.clear(),
  };
}
