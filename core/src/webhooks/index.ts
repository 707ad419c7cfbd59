// Webhooks and signatures: deliveries kept whole, duplicates marked, signatures checked, forwarding planned.
// Other folders import this concept from here, never from a file inside it.
export * from './delivery-id.js';
export * from './webhook.js';
export * from './webhook-intake.js';
export * from './delivery-scheduler.js';
export * from './forward-job.js';
export * from './webhook-settings.js';
export * from './event-type.js';
export * from './ports.js';
export * from './signatures/index.js';
