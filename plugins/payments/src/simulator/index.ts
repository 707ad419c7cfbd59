// The payments simulator, for tests and tools (`@switchyard/plugin-payments/simulator`): the plugin's main entry
// imports it only when it starts it.
export { operations, type ApiOperation } from './catalogue.js';
export { OperationIndex, words } from './search.js';
export { createPaymentsServer, startPaymentsSimulator } from './server.js';
